/**
 * Test support: the real controller as a child process (loading this plugin
 * through `PLUGINS`, as an operator would), and a small JSON client for it.
 * Needs a built repository (`npx tsc -b`).
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { Context, Effect, Layer, Schedule, Schema } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeNet from "node:net"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll } from "vitest"

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
// What `npm start` runs (unbundled here, as PLUGINS is set: see packages/http/src/start.ts).
const MAIN = NodePath.join(ROOT, "packages/http/dist/start.js")
const PLUGINS = "./examples/community-plugin,./test/dist/support/TestAuthPlugin.js"

export class ControllerFailed extends Schema.TaggedError<ControllerFailed>()("ControllerFailed", {
  message: Schema.String
}) {}

/** A condition polled by `eventually` that never came true; `last` is what was seen. */
export class NeverHappened extends Schema.TaggedError<NeverHappened>()("NeverHappened", {
  last: Schema.Unknown
}) {}

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) NodeFs.rmSync(dir, { recursive: true, force: true })
})

/** A fresh data directory (not yet created, as on a first start), removed after the file's tests. */
export const tempDataDir = (): string => {
  const dir = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "garrison-motd-"))
  created.push(dir)
  return NodePath.join(dir, "data")
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

export interface Response {
  readonly status: number
  readonly body: unknown
}

export interface CallOptions {
  /** `"<user>:<perm1,perm2>"`, sent as `Authorization: Bearer test:<user>:<perms>`. */
  readonly as?: string
  readonly json?: unknown
  /** A raw body, for malformed-input tests. */
  readonly text?: { readonly body: string; readonly contentType: string }
}

const parseJson = Schema.decodeUnknown(Schema.parseJson())

export const call = (baseUrl: string, method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(`${baseUrl}${path}`)
    if (options.as !== undefined) request = HttpClientRequest.bearerToken(request, `test:${options.as}`)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    if (options.text !== undefined) request = HttpClientRequest.bodyText(request, options.text.body, options.text.contentType)
    const response = yield* client.execute(request)
    const text = yield* response.text
    const body = text.length === 0 ? undefined : yield* parseJson(text)
    return { status: response.status, body } satisfies Response
  }).pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer))

/** Re-runs `effect` every 50 ms until `check` holds, for at most five seconds. */
export const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => boolean) =>
  effect.pipe(
    Effect.filterOrFail(check, (last) => new NeverHappened({ last })),
    Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("5 seconds")))
  )

export interface RunningController {
  readonly baseUrl: string
  readonly dataDir: string
  /** Everything the process wrote so far (stdout and stderr). */
  readonly output: () => string
}

export class ControllerProcess extends Context.Tag("test/ControllerProcess")<ControllerProcess, RunningController>() {}

/**
 * `node packages/http/dist/start.js` on a free loopback port, ready once
 * `GET /api/health/ping` answers; stopped when the scope closes.
 */
export const startController = (dataDir: string) =>
  Effect.gen(function* () {
    if (!NodeFs.existsSync(MAIN)) {
      return yield* new ControllerFailed({ message: `${MAIN} is missing: run \`npx tsc -b\` first` })
    }
    const port = yield* freePort
    const baseUrl = `http://127.0.0.1:${port}`
    const chunks: Array<string> = []
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [MAIN], {
          cwd: ROOT,
          env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, PLUGINS },
          stdio: ["ignore", "pipe", "pipe"]
        })
      ),
      stop
    )
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()))
    child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk.toString()))
    const output = () => chunks.join("")

    // Each try is bounded: the host listens before it serves, and a request
    // that lands in that window is never answered (reported to the host's owners).
    const ready = call(baseUrl, "GET", "/api/health/ping").pipe(
      Effect.timeout("1 second"),
      Effect.filterOrFail((response) => response.status === 200, () => new ControllerFailed({ message: "not ready" })),
      Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo("20 seconds")))
    )
    const died = Effect.flatMap(exited(child), (code) =>
      Effect.fail(new ControllerFailed({ message: `the controller exited with ${code}:\n${output()}` }))
    )
    yield* Effect.raceFirst(ready, died).pipe(
      Effect.mapError((error) =>
        error._tag === "ControllerFailed" ? error : new ControllerFailed({ message: `not ready: ${String(error)}\n${output()}` })
      )
    )
    return { baseUrl, dataDir, output } satisfies RunningController
  })

export const controllerLayer = (dataDir: string) => Layer.scoped(ControllerProcess, startController(dataDir))
