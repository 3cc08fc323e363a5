/**
 * An in-process controller for host tests: real HTTP on a loopback port
 * (`Controller.layerTest`), a temporary data directory, the health
 * plugin, a header-driven test authenticator and a small echo plugin.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { HealthPlugin } from "@garrison/plugins"
import { Access, CurrentPrincipal, GarrisonConfig, type GarrisonSettings, Plugin } from "@garrison/runtime"
import { Effect, Layer, Schema } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import * as Controller from "../src/Controller.js"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../test/support/TestAuthPlugin.js"

class EchoBody extends Schema.Class<EchoBody>("EchoBody")({ text: Schema.String.pipe(Schema.minLength(1)) }) {}

const EchoApi = HttpApi.make("echo").add(
  HttpApiGroup.make("echo")
    .add(
      HttpApiEndpoint.post("echo", "/api/echo")
        .setPayload(EchoBody)
        .addSuccess(Schema.Struct({ text: Schema.String, by: Schema.String }))
        .annotate(Access, Access.permission("echo.use"))
    )
    .add(HttpApiEndpoint.get("whoami", "/api/whoami").addSuccess(Schema.String).annotate(Access, Access.anyAuth))
    .add(HttpApiEndpoint.get("tile", "/api/maps/tiles/:z").addSuccess(Schema.String).annotate(Access, Access.none))
    .add(HttpApiEndpoint.post("login", "/api/auth/login").addSuccess(Schema.String).annotate(Access, Access.none))
    .add(
      HttpApiEndpoint.get("seen", "/api/seen/:id")
        .setPath(Schema.Struct({ id: Schema.String }))
        .addSuccess(Schema.Struct({ url: Schema.String, id: Schema.String }))
        .annotate(Access, Access.none)
    )
    .add(HttpApiEndpoint.get("cached", "/api/cached").addSuccess(Schema.String).annotate(Access, Access.none))
    .add(HttpApiEndpoint.get("framed", "/api/framed").addSuccess(Schema.String).annotate(Access, Access.none))
)

/** How many requests reached the stub login handler (this process). */
export const stubLogins = { count: 0 }

const EchoHandlers = HttpApiBuilder.group(EchoApi, "echo", (h) =>
  h
    .handle("echo", ({ payload }) =>
      Effect.map(Effect.orDie(CurrentPrincipal), (p) => ({ text: payload.text, by: p.name }))
    )
    .handle("whoami", () => Effect.map(Effect.orDie(CurrentPrincipal), (p) => p.name))
    .handle("tile", () => Effect.succeed("tile"))
    .handle("login", () => Effect.sync(() => (stubLogins.count++, "no accounts yet")))
    // What the handler sees of the request: the URL after the gate, the decoded path parameter.
    .handle("seen", ({ path }) => Effect.map(HttpServerRequest.HttpServerRequest, (request) => ({ url: request.url, id: path.id })))
    // Handlers that set headers the gate also sets by default: theirs must win.
    .handleRaw("cached", () => Effect.succeed(HttpServerResponse.text("public", { headers: { "cache-control": "public, max-age=60" } })))
    .handleRaw("framed", () =>
      Effect.succeed(
        HttpServerResponse.text("framed", {
          headers: { "x-frame-options": "SAMEORIGIN", "content-security-policy": "frame-ancestors 'self'" }
        })
      )
    )
)

export const EchoPlugin = Plugin.make({
  id: "echo",
  permissions: [{ name: "echo.use", description: "Echo text back" }],
  http: Plugin.http(EchoApi, EchoHandlers)
})

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.
export { HeaderAuthPlugin }

export const testController = (settings: Partial<GarrisonSettings> = {}) =>
  Controller.layerTest([HealthPlugin, HeaderAuthPlugin, EchoPlugin]).pipe(
    Layer.provide(
      GarrisonConfig.layerWith({
        dataDir: Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-http-")),
        trustProxyHops: 1,
        ...settings
      })
    )
  )

/** The loopback port of the in-process controller, for raw-socket requests. */
export const serverPort = Effect.flatMap(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? Effect.succeed(server.address.port) : Effect.dieMessage("the test server is not on TCP")
)
