/**
 * The real controller as a child process, as an operator runs it
 * (`node <@garrison/http>/dist/start.js`, what `npm start` runs), loading
 * plugins through `PLUGINS` beside the test authenticator: for tests about
 * loading a plugin module, or about what survives a restart of the process.
 * Everything else is faster in process (`testController`). On the
 * PostgreSQL pass (`GARRISON_TEST_DATABASE=postgres`) it gets `DATABASE_URL`:
 * its data directory's database on the run's server (`testDatabaseFor`),
 * the same one for a restart on that directory and for a kernel opened on
 * it in process.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodeNet from "node:net"
import * as NodePath from "node:path"
import { testDatabaseFor } from "./TestDatabase.js"

export class ControllerFailed extends Schema.TaggedError<ControllerFailed>()("ControllerFailed", {
  message: Schema.String
}) {}

const require = createRequire(import.meta.url)

/** The controller's entry point, next to the `@garrison/http` package's main module. */
export const controllerEntry = (): string => NodePath.join(NodePath.dirname(require.resolve("@garrison/http")), "start.js")

/** The test authenticator's built module, as `PLUGINS` takes it. */
export const testAuthPluginModule = (): string => require.resolve("@garrison/testkit/TestAuthPlugin")

export interface SpawnOptions {
  /** The data directory (need not exist yet: a first start makes it). */
  readonly dataDir: string
  /** Plugin modules for `PLUGINS`: paths relative to `cwd`, or package names. The test authenticator is added after them. */
  readonly plugins?: ReadonlyArray<string>
  /** The child's working directory: this process's by default. */
  readonly cwd?: string
  /** More environment (`LOG_LEVEL`, a plugin's settings, ...). A `DATABASE_URL` here wins over the PostgreSQL pass's database. */
  readonly env?: Readonly<Record<string, string>>
  /** How long it may take to answer `GET /api/health/ping`: 20 s. */
  readonly readyWithin?: number
}

export interface SpawnedController {
  readonly pid: number
  readonly baseUrl: string
  readonly dataDir: string
  /** Everything the process wrote so far (stdout and stderr). */
  readonly output: () => string
  /** An `HttpClient` aimed at it, so `call` and `request` take paths relative to it. */
  readonly client: Layer.Layer<HttpClient.HttpClient>
}

const freePort = Effect.async<number, ControllerFailed>((resume) => {
  const server = NodeNet.createServer()
  server.once("error", (error) => resume(Effect.fail(new ControllerFailed({ message: error.message }))))
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const exited = (child: ChildProcess) =>
  Effect.async<number | null>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.succeed(child.exitCode))
    const onExit = (code: number | null) => resume(Effect.succeed(code))
    child.once("exit", onExit)
    return Effect.sync(() => child.off("exit", onExit))
  })

/** SIGTERM, then SIGKILL if it has not gone within five seconds. */
const stop = (child: ChildProcess) =>
  Effect.suspend(() => {
    if (child.exitCode !== null || child.signalCode !== null) return Effect.void
    child.kill("SIGTERM")
    // Finalizers run uninterruptibly; the wait must be interruptible for the time-out to win.
    return exited(child).pipe(
      Effect.interruptible,
      Effect.timeout("5 seconds"),
      Effect.catchTag("TimeoutException", () => Effect.sync(() => child.kill("SIGKILL"))),
      Effect.asVoid
    )
  })

/** An `HttpClient` (fetch) that sends paths relative to `baseUrl`. */
export const clientFor = (baseUrl: string): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, HttpClient.mapRequest(HttpClientRequest.prependUrl(baseUrl)))
  ).pipe(Layer.provide(FetchHttpClient.layer))

/**
 * Spawns the controller on a free loopback port and waits until it
 * answers; it is stopped (SIGTERM, then SIGKILL) when the scope closes.
 * Fails with its output when it exits or does not answer in time. On the
 * PostgreSQL pass its data directory's database is released after it has
 * stopped (kept for a restart on that directory while the directory is
 * there, see `releaseDataDirDatabase`).
 */
export const spawnController = (options: SpawnOptions): Effect.Effect<SpawnedController, ControllerFailed, Scope.Scope> =>
  Effect.gen(function* () {
    const entry = controllerEntry()
    if (!Fs.existsSync(entry)) return yield* new ControllerFailed({ message: `${entry} is missing: build first (\`npx tsc -b\`)` })
    const port = yield* freePort
    const baseUrl = `http://127.0.0.1:${port}`
    // Acquired before the process, so released after it has stopped.
    const databaseUrl = options.env?.["DATABASE_URL"] === undefined ? yield* testDatabaseFor(options.dataDir) : undefined
    const chunks: Array<string> = []
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [entry], {
          cwd: options.cwd ?? process.cwd(),
          env: {
            ...process.env,
            PORT: String(port),
            HOST: "127.0.0.1",
            DATA_DIR: options.dataDir,
            PLUGINS: [...(options.plugins ?? []), testAuthPluginModule()].join(","),
            // Tests run as root and make their installs as root (under a 0700 run folder no other user can enter); the
            // refusal of root-owned installs has tests of its own, which set this to "false" (test/e2e/game-server-user.test.ts).
            ALLOW_ROOT_GAME_SERVERS: "true",
            ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
            ...options.env
          },
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      stop
    )
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()))
    child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()))
    const output = () => chunks.join("")
    const client = clientFor(baseUrl)

    // Each try is bounded: the host listens before it serves, and a request in that window may never be answered.
    const ready = HttpClient.get("/api/health/ping").pipe(
      Effect.scoped,
      Effect.provide(client),
      Effect.timeout("1 second"),
      Effect.filterOrFail((response) => response.status === 200, () => new ControllerFailed({ message: "not ready" })),
      Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo(options.readyWithin ?? 20_000)))
    )
    const died = Effect.flatMap(exited(child), (code) =>
      Effect.fail(new ControllerFailed({ message: `the controller exited with ${code}:\n${output()}` }))
    )
    yield* Effect.raceFirst(ready, died).pipe(
      Effect.mapError((error) =>
        error._tag === "ControllerFailed" ? error : new ControllerFailed({ message: `not ready: ${String(error)}\n${output()}` })
      )
    )
    return { pid: child.pid ?? 0, baseUrl, dataDir: options.dataDir, output, client } satisfies SpawnedController
  })
