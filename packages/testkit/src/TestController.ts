/**
 * The controller in process: `Controller.layerTest` (the real host, real
 * HTTP on a random loopback port, an `HttpClient` aimed at it) over a list
 * of plugins and the test authenticator, on a throw-away data directory.
 *
 * ```ts
 * layer(testController([MotdPlugin]))("motd", (it) => {
 *   it.effect("posts", () => Effect.gen(function* () {
 *     const reply = yield* call("POST", "/api/motd", { as: "mia:motd.manage", json: { text: "hi" } })
 *     expect(reply.status).toBe(201)
 *   }))
 * })
 * ```
 */
import * as HttpServer from "@effect/platform/HttpServer"
import { Controller } from "@garrison/http"
import type { AnyPlugin } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as LogLevel from "effect/LogLevel"
import { withAuditTrail } from "./AuditRecorder.js"
import { type LogLine, testLogging } from "./Logs.js"
import { type SettingsOptions, withTestSettings } from "./Settings.js"
import { TestAuthPlugin } from "./TestAuthPlugin.js"

export interface TestControllerOptions extends SettingsOptions {
  /** The least level logged: Warning, or Debug when `logs` is given. */
  readonly logLevel?: LogLevel.LogLevel
  /** Receives the log lines instead of the console. */
  readonly logs?: Array<LogLine>
  /** `false` leaves the test authenticator out, for tests that sign in for real (the accounts plugin). */
  readonly auth?: boolean
}

/**
 * The controller over `plugins` (with an in-memory audit trail when they
 * record rows and bring none: `withAuditTrail`), then the test
 * authenticator (`TestAuthPlugin`). `Provides` names the plugins' services a test reads:
 * the host takes a dynamic list, so its type cannot say what they provide.
 */
export const testController = <Provides = never>(plugins: ReadonlyArray<AnyPlugin>, options: TestControllerOptions = {}) => {
  const loaded = withAuditTrail(plugins)
  const controller = withTestSettings(Controller.layerTest(options.auth === false ? loaded : [...loaded, TestAuthPlugin]), options).pipe(
    Layer.provide(testLogging(options))
  )
  return controller as Layer.Layer<Layer.Layer.Success<typeof controller> | Provides, Layer.Layer.Error<typeof controller>>
}

/** The in-process controller's loopback port, for clients other than its `HttpClient` (raw sockets). */
export const serverPort: Effect.Effect<number, never, HttpServer.HttpServer> = Effect.flatMap(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? Effect.succeed(server.address.port) : Effect.dieMessage("the test server is not on TCP")
)
