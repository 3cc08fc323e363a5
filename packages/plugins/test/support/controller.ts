/**
 * The plugins under test in process: the controller (`Controller.layerTest`,
 * real HTTP on a loopback port) with the shared header authenticator on a
 * throw-away data directory, or the kernel alone in a scope a test can
 * close; `call`, one request as a named caller; `eventually`, polling in
 * real time.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { Headers } from "@effect/platform/Headers"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Controller } from "@garrison/http"
import { type AnyPlugin, GarrisonConfig, Runtime } from "@garrison/runtime"
import { Chunk, Duration, Effect, Exit, Layer, Logger, LogLevel, Scope, TestClock } from "effect"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../../test/support/TestAuthPlugin.js"
import { tempDir } from "./tempDir.js"

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.
export { HeaderAuthPlugin }

export interface ControllerOptions {
  /** How the throw-away data directory's name starts. */
  readonly dataPrefix: string
  /** An existing data directory instead of a throw-away one (the caller removes it). */
  readonly dataDir?: string
  /** Proxy hops trusted for `X-Forwarded-For`; the configuration's default when left out. */
  readonly trustProxyHops?: number
  /** The least level logged; `Warning` when left out. */
  readonly logLevel?: LogLevel.LogLevel
  /** Plugins loaded after the authenticator (recorders, probes). */
  readonly extra?: ReadonlyArray<AnyPlugin>
}

/**
 * The controller over `plugins`, then the header authenticator, then
 * `extra`. `Provides` names the plugins' services a test reads: the host
 * takes a dynamic plugin list, so its type cannot say what they provide.
 */
export const testController = <Provides = never>(plugins: ReadonlyArray<AnyPlugin>, options: ControllerOptions) => {
  const controller = Controller.layerTest([...plugins, HeaderAuthPlugin, ...(options.extra ?? [])]).pipe(
    Layer.provide(
      GarrisonConfig.layerWith({
        dataDir: options.dataDir ?? tempDir(options.dataPrefix),
        ...(options.trustProxyHops === undefined ? {} : { trustProxyHops: options.trustProxyHops }),
        // Tests move the clock by hours to years; scheduled database backups would fire on every step.
        backupInterval: Duration.days(365_000)
      })
    ),
    Layer.provide(Logger.minimumLogLevel(options.logLevel ?? LogLevel.Warning))
  )
  return controller as Layer.Layer<Layer.Layer.Success<typeof controller> | Provides, Layer.Layer.Error<typeof controller>>
}

/**
 * The kernel alone (`Runtime.layer`, no HTTP) over `plugins` on `dataDir`,
 * without scheduled backups and logging errors only, built in a scope of
 * its own: `context` to read services from, `stop` to close it (a test may
 * then start another on the same data directory).
 */
export const startKernel = <const Plugins extends ReadonlyArray<AnyPlugin>>(plugins: Plugins, dataDir: string) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const layer = Runtime.layer(plugins, { scheduledBackups: false }).pipe(
      Layer.provide(GarrisonConfig.layerWith({ dataDir })),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Error))
    )
    const context = yield* Layer.buildWithScope(layer, scope)
    return { context, stop: Scope.close(scope, Exit.void) }
  })

export interface CallOptions {
  /** The caller, `"<user>:<perm,perm>"`, sent as `Authorization: Bearer test:<as>`; none when left out. */
  readonly as?: string
  /** The request body, as JSON. */
  readonly json?: unknown
  /** Sent as `X-Forwarded-For` (the client address, with proxies trusted). */
  readonly ip?: string
}

/** A reply as it came: status, headers and the body's text. */
export interface RawReply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** One request to the controller under test, through its `HttpClient`. */
export const request = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.gen(function* () {
    let req = HttpClientRequest.make(method)(path)
    if (options.as !== undefined) req = HttpClientRequest.bearerToken(req, `test:${options.as}`)
    if (options.ip !== undefined) req = HttpClientRequest.setHeader(req, "x-forwarded-for", options.ip)
    if (options.json !== undefined) req = HttpClientRequest.bodyUnsafeJson(req, options.json)
    const response = yield* HttpClient.execute(req)
    const text = yield* response.text
    return { status: response.status, headers: response.headers, text } satisfies RawReply
  }).pipe(Effect.scoped)

/** The body's JSON (the assertions check its shape), or `empty` when there is no body. */
export const jsonBody = <Body>(text: string, empty: Body): Body => (text.length === 0 ? empty : (JSON.parse(text) as Body))

export interface Reply<Body = unknown> {
  readonly status: number
  readonly body: Body
}

/** One request; its status and parsed body (`undefined` when there is none). */
export const call = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.map(request(method, path, options), ({ status, text }): Reply => ({ status, body: jsonBody<unknown>(text, undefined) }))

/** When the fibers asleep on the TestClock wake (ms since the epoch); a sleep leaves the list when it fires. */
export const sleepsOnTestClock = Effect.map(TestClock.sleeps(), Chunk.toReadonlyArray)

/**
 * Waits (polling in real time) until some fiber sleeps on the TestClock until `at`, such as a
 * worker waiting for an expiry or a backup request waiting to settle: an `adjust` to `at` is then
 * sure to wake it. (A sleep cut short stays in the list, so `at` should be one only that fiber waits for.)
 */
export const sleepingUntil = (at: number, timeoutMs = 5000) =>
  eventually(sleepsOnTestClock, (sleeps) => sleeps.includes(at), timeoutMs)

/** Sleeps in wall-clock time, whatever clock the test runs on. */
export const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Polls in real time (for work done on fibers the test clock does not wait for). */
export const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => boolean, timeoutMs = 5000) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    let value = yield* effect
    while (!check(value)) {
      if (Date.now() > deadline) return yield* Effect.dieMessage(`condition not met in time; last value ${JSON.stringify(value)}`)
      yield* realSleep(10)
      value = yield* effect
    }
    return value
  })
