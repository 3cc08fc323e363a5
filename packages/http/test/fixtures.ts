/**
 * An in-process controller for host tests: real HTTP on a loopback port
 * (`Controller.layerTest`), a temporary data directory, the health
 * plugin, a header-driven test authenticator and a small echo plugin.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
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
)

const EchoHandlers = HttpApiBuilder.group(EchoApi, "echo", (h) =>
  h
    .handle("echo", ({ payload }) =>
      Effect.map(Effect.orDie(CurrentPrincipal), (p) => ({ text: payload.text, by: p.name }))
    )
    .handle("whoami", () => Effect.map(Effect.orDie(CurrentPrincipal), (p) => p.name))
    .handle("tile", () => Effect.succeed("tile"))
    .handle("login", () => Effect.succeed("no accounts yet"))
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
