/**
 * The host tests' controller: the testkit's in-process controller (real
 * HTTP on a loopback port, a throw-away data directory, the test
 * authenticator) with the health plugin and a small echo plugin whose
 * routes exercise the host (rate-limit scopes, errors, a handler that
 * hangs, headers a handler sets); optionally more plugins and a log sink.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { HealthPlugin } from "@garrison/plugins"
import { Access, type AnyPlugin, CurrentPrincipal, type GarrisonSettings, Plugin, RateLimit, Unavailable } from "@garrison/runtime"
import { type LogLine, testController } from "@garrison/testkit"
import { Deferred, Effect, Schema } from "effect"

export { auditRecorder, type LogLine, serverPort } from "@garrison/testkit"

class EchoBody extends Schema.Class<EchoBody>("EchoBody")({ text: Schema.String.pipe(Schema.minLength(1)) }) {}

/** Shaped like the accounts plugin's login body, for what errors may say about secrets. */
class SignInBody extends Schema.Class<SignInBody>("SignInBody")({
  username: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)),
  password: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1024)),
  code: Schema.optional(Schema.String.pipe(Schema.maxLength(64)))
}) {}

const hangWatchers = new Set<Deferred.Deferred<void>>()

/** Starts watching now; the effect it returns completes once the next `POST /api/echo/hang` handler runs. */
export const watchHangHandler = Effect.map(Deferred.make<void>(), (started) => {
  hangWatchers.add(started)
  return Deferred.await(started)
})

const EchoApi = HttpApi.make("echo").add(
  HttpApiGroup.make("echo")
    .add(
      HttpApiEndpoint.post("echo", "/api/echo")
        .setPayload(EchoBody)
        .addSuccess(Schema.Struct({ text: Schema.String, by: Schema.String }))
        .annotate(Access, Access.permission("echo.use"))
    )
    .add(HttpApiEndpoint.get("whoami", "/api/whoami").addSuccess(Schema.String).annotate(Access, Access.anyAuth))
    // As the spec's map tiles and sign-in will declare themselves: exempt, and the auth scope (15 in 15 minutes).
    .add(HttpApiEndpoint.get("tile", "/api/maps/tiles/:z").addSuccess(Schema.String).annotate(Access, Access.none).annotate(RateLimit, "exempt"))
    .add(HttpApiEndpoint.post("login", "/api/auth/login").addSuccess(Schema.String).annotate(Access, Access.none).annotate(RateLimit, "auth"))
    .add(HttpApiEndpoint.post("signIn", "/api/echo/sign-in").setPayload(SignInBody).addSuccess(Schema.String).annotate(Access, Access.none))
    .add(HttpApiEndpoint.post("hang", "/api/echo/hang").setPayload(EchoBody).addSuccess(Schema.String).annotate(Access, Access.permission("echo.use")))
    .add(HttpApiEndpoint.get("unavailable", "/api/echo/unavailable").addSuccess(Schema.String).addError(Unavailable).annotate(Access, Access.none))
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
    .handle("unavailable", () => Effect.fail(new Unavailable({ message: "the game server is not reachable yet" })))
    .handle("signIn", ({ payload }) => Effect.succeed(`no account ${payload.username}`))
    // Runs until the client goes away: a slow handler to abort.
    .handle("hang", () =>
      Effect.zipRight(
        Effect.forEach([...hangWatchers], (started) => Effect.zipRight(Effect.sync(() => hangWatchers.delete(started)), Deferred.succeed(started, undefined))),
        Effect.never
      )
    )
)

export const EchoPlugin = Plugin.make({
  id: "echo",
  permissions: [{ name: "echo.use", description: "Echo text back" }],
  http: Plugin.http(EchoApi, EchoHandlers)
})

export interface HostControllerOptions {
  /** Plugins loaded after the echo plugin (an audit recorder, real plugins). */
  readonly plugins?: ReadonlyArray<AnyPlugin>
  /** `false` leaves out the echo plugin and the test authenticator, for real plugins that claim their paths and slot. */
  readonly echo?: boolean
  /** Receives every log line from Debug up, instead of the console. */
  readonly logs?: Array<LogLine>
}

/**
 * The testkit's in-process controller with the health plugin, the echo
 * plugin and the test authenticator, proxies trusted (one hop), `settings`
 * over the defaults.
 */
export const hostController = (settings: Partial<GarrisonSettings> = {}, options: HostControllerOptions = {}) =>
  testController([HealthPlugin, ...(options.echo === false ? [] : [EchoPlugin]), ...(options.plugins ?? [])], {
    dataPrefix: "garrison-http-",
    settings: { trustProxyHops: 1, ...settings },
    auth: options.echo !== false,
    ...(options.logs === undefined ? {} : { logs: options.logs })
  })
