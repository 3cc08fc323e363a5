/**
 * Process helpers for end-to-end tests and benchmarks: free loopback ports,
 * temporary data directories, spawning the real controller (or any Node
 * script) with its output captured, waiting until it answers, and stopping
 * it. Framework-free, so vitest tests import the TS and benchmarks import
 * the compiled JS. Every child is tracked and killed when this process exits.
 * The test authenticator is `@garrison/testkit`'s; in-process tests use the
 * testkit's controller instead.
 *
 * On the PostgreSQL pass (`GARRISON_TEST_DATABASE=postgres`) a controller
 * gets `DATABASE_URL`: its data directory's database on the run's server
 * (the testkit's `acquireDataDirDatabase`), the same one when it restarts
 * on that directory; see `spawnController`.
 */
import { testAuthorization } from "@garrison/testkit/TestAuthPlugin"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

/** The monorepo root: the nearest folder up from here whose package.json is "garrison" (works from src and dist). */
const findRepoRoot = (): string => {
  let dir = NodePath.dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = NodePath.join(dir, "package.json")
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"))
      if (typeof parsed === "object" && parsed !== null && "name" in parsed && parsed.name === "garrison") return dir
    }
    const parent = NodePath.dirname(dir)
    if (parent === dir) throw new Error("cannot find the Garrison repository root above " + fileURLToPath(import.meta.url))
    dir = parent
  }
}

export const repoRoot = findRepoRoot()

/**
 * The testkit's per-data-directory databases, loaded only on the PostgreSQL pass (the variable is read as the
 * testkit's `testDatabaseEngine` does): on SQLite, and in a benchmark, nothing more is loaded or asked of a server.
 * At the top level, so under vitest it loads while the file is collected (its `afterAll` drops the databases the
 * file's controllers left).
 */
const testDatabases = /^postgres(ql)?$/.test((process.env["GARRISON_TEST_DATABASE"] ?? "").trim().toLowerCase())
  ? await import("@garrison/testkit/core")
  : undefined

/** What `npm start` runs: the bundled controller, or the unbundled one when PLUGINS is set (see start.ts). */
export const controllerEntry = NodePath.join(repoRoot, "packages/http/dist/start.js")
const compiledMain = NodePath.join(repoRoot, "packages/http/dist/main.js")
const bundle = NodePath.join(repoRoot, "packages/http/dist/garrison.mjs")
export const HOST = "127.0.0.1"

/** Plugin module paths as `PLUGINS` expects them (relative to the repository root, the child's cwd). */
export const testPlugins = {
  /** The testkit's header authenticator: `Authorization: Bearer test:<user>:<perm,perm>`. */
  auth: "./packages/testkit/dist/TestAuthPlugin.js",
  durability: "./test/dist/support/DurabilityPlugin.js"
} as const

/** Fails with a clear hint instead of a confusing spawn error when `npm run build` has not run. */
export const assertBuilt = (...files: ReadonlyArray<string>): void => {
  for (const file of [controllerEntry, compiledMain, bundle, ...files.map((f) => NodePath.resolve(repoRoot, f))]) {
    if (!existsSync(file)) throw new Error(`${file} does not exist; run \`npm run build\` from the repository root first`)
  }
  // `tsc -b` alone leaves an older bundle behind, and the tests would run yesterday's controller.
  if (statSync(compiledMain).mtimeMs > statSync(bundle).mtimeMs) {
    throw new Error(`${bundle} is older than ${compiledMain}; run \`npm run build\` from the repository root`)
  }
}

/** A port that was free a moment ago (the OS picks it; the tiny race is acceptable in tests). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, HOST, () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : undefined
      server.close(() => (port === undefined ? reject(new Error("no port assigned")) : resolve(port)))
    })
  })

export const makeTempDir = (prefix = "garrison-e2e-"): string => mkdtempSync(NodePath.join(tmpdir(), prefix))

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true })

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export interface ExitInfo {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface ChildHandle {
  readonly child: ChildProcess
  readonly pid: number
  /** stdout and stderr as received, interleaved (capped at 1 MiB). */
  readonly output: () => string
  /** Resolves once the process has exited; never rejects. */
  readonly exited: Promise<ExitInfo>
  readonly hasExited: () => boolean
}

const OUTPUT_LIMIT = 1024 * 1024

/**
 * Every child still running, one set per process: the e2e tests run one
 * after another in one worker, each with this module loaded afresh, and
 * one exit hook serves them all.
 */
const running: Set<ChildProcess> = (() => {
  const shared = globalThis as { garrisonTestChildren?: Set<ChildProcess> }
  if (shared.garrisonTestChildren === undefined) {
    const children = new Set<ChildProcess>()
    shared.garrisonTestChildren = children
    // Children must not outlive a crashed test run or an interrupted benchmark.
    process.once("exit", () => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    })
  }
  return shared.garrisonTestChildren
})()

/** SIGKILLs every child still running; safe to call any time (tests' afterAll, bench deadlines). */
export const killAllChildren = (): void => {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  }
  running.clear()
}

export interface SpawnOptions {
  readonly args: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  readonly cwd?: string
}

/**
 * Spawns `node <args>` with captured output. On the PostgreSQL pass a script given a `DATA_DIR` (and no
 * `DATABASE_URL`) whose directory has a database already (a controller ran on it: `resetAdmin.js`) gets that one.
 */
export const spawnNode = (options: SpawnOptions): ChildHandle => {
  const dataDir = options.env?.["DATA_DIR"]
  const databaseUrl =
    testDatabases !== undefined && dataDir !== undefined && options.env?.["DATABASE_URL"] === undefined ? testDatabases.dataDirDatabaseUrl(dataDir) : undefined
  const child = spawn(process.execPath, [...options.args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }), ...options.env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  if (child.pid === undefined) throw new Error(`cannot spawn node ${options.args.join(" ")}`)
  running.add(child)
  let output = ""
  const append = (chunk: Buffer) => {
    if (output.length < OUTPUT_LIMIT) output += chunk.toString("utf8")
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  let done = false
  const exited = new Promise<ExitInfo>((resolve) => {
    // "close" (not "exit") so the output streams are fully read when this resolves.
    child.on("close", (code, signal) => {
      done = true
      running.delete(child)
      resolve({ code, signal })
    })
    child.on("error", (error) => {
      append(Buffer.from(`\n[spawn error] ${error.message}\n`))
    })
  })
  return { child, pid: child.pid, output: () => output, exited, hasExited: () => done }
}

/** Waits for exit up to `timeoutMs`; undefined when still running. */
export const waitForExit = (handle: ChildHandle, timeoutMs: number): Promise<ExitInfo | undefined> =>
  Promise.race([handle.exited, delay(timeoutMs).then(() => undefined)])

/** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. */
export const stopProcess = async (handle: ChildHandle, graceMs = 10_000): Promise<ExitInfo> => {
  if (handle.hasExited()) return handle.exited
  handle.child.kill("SIGTERM")
  const ended = await waitForExit(handle, graceMs)
  if (ended !== undefined) return ended
  handle.child.kill("SIGKILL")
  return handle.exited
}

/** Polls `url` until it answers 200; rejects (with the child's output) if the child exits or time runs out. */
export const waitForHttp = async (handle: ChildHandle, url: string, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  let lastProblem = "no attempt yet"
  while (Date.now() < deadline) {
    if (handle.hasExited()) {
      const info = await handle.exited
      throw new Error(
        `process ${handle.pid} exited (code ${info.code}, signal ${info.signal}) before ${url} answered; output:\n${handle.output()}`
      )
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) })
      await response.arrayBuffer()
      if (response.status === 200) return
      lastProblem = `status ${response.status}`
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error)
    }
    await delay(50)
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${lastProblem}); output:\n${handle.output()}`)
}

export interface ControllerOptions {
  readonly dataDir: string
  /** Defaults to a free port. */
  readonly port?: number
  /** Module paths relative to the repository root, e.g. `testPlugins.auth`. */
  readonly plugins?: ReadonlyArray<string>
  /** Effect log level label: Trace, Debug, Info, Warn, Error, Fatal, None. */
  readonly logLevel?: string
  /** Extra environment (e.g. `DB_BACKUP_INTERVAL`). */
  readonly env?: Readonly<Record<string, string>>
}

export interface ControllerHandle extends ChildHandle {
  readonly port: number
  readonly baseUrl: string
  readonly dataDir: string
}

/**
 * Spawns `node packages/http/dist/start.js` (what `npm start` runs) without waiting for it. On the PostgreSQL pass
 * with `DATABASE_URL` = the data directory's database (made on its first start, kept for the next start on that
 * directory), released when the process has exited: dropped then if the directory is gone, else after the test
 * file (the testkit's `releaseDataDirDatabase`). A `DATABASE_URL` in `env` wins.
 */
export const spawnController = async (options: ControllerOptions): Promise<ControllerHandle> => {
  assertBuilt(...(options.plugins ?? []))
  const port = options.port ?? (await freePort())
  const databases = options.env?.["DATABASE_URL"] === undefined ? testDatabases : undefined
  const databaseUrl = await databases?.acquireDataDirDatabase(options.dataDir)
  const env = {
    PORT: String(port),
    HOST,
    DATA_DIR: options.dataDir,
    PLUGINS: (options.plugins ?? []).join(","),
    LOG_LEVEL: options.logLevel ?? "Info",
    // Tests run as root and make their installs as root (under a 0700 run folder no other user can enter); the
    // refusal of root-owned installs has tests of its own (gameServerUser.test.ts), which set this to "false".
    ALLOW_ROOT_GAME_SERVERS: "true",
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...options.env
  }
  let handle: ChildHandle
  try {
    handle = spawnNode({ args: [controllerEntry], env })
  } catch (error) {
    await databases?.releaseDataDirDatabase(options.dataDir)
    throw error
  }
  // Once the process (and its connections) are gone; a failed drop only leaves the database to the run's end.
  if (databases !== undefined) void handle.exited.then(() => databases.releaseDataDirDatabase(options.dataDir)).catch(() => undefined)
  return { ...handle, port, baseUrl: `http://${HOST}:${port}`, dataDir: options.dataDir }
}

/** Spawns the controller and waits until `GET /api/health/ping` answers. */
export const startController = async (options: ControllerOptions, timeoutMs = 20_000): Promise<ControllerHandle> => {
  const controller = await spawnController(options)
  try {
    await waitForHttp(controller, `${controller.baseUrl}/api/health/ping`, timeoutMs)
  } catch (error) {
    controller.child.kill("SIGKILL")
    throw error
  }
  return controller
}

/** Spawns the controller expecting it to refuse to start; resolves with its exit and output. */
export const runControllerToExit = async (
  options: ControllerOptions,
  timeoutMs = 15_000
): Promise<ExitInfo & { readonly output: string }> => {
  const controller = await spawnController(options)
  const ended = await waitForExit(controller, timeoutMs)
  if (ended === undefined) {
    controller.child.kill("SIGKILL")
    throw new Error(`the controller was still running after ${timeoutMs} ms; output:\n${controller.output()}`)
  }
  return { ...ended, output: controller.output() }
}

export interface JsonResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
}

/** One JSON request; the body is parsed when there is one, else undefined. */
export const requestJson = async (
  baseUrl: string,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>>; readonly timeoutMs?: number } = {}
): Promise<JsonResponse> => {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000)
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text.length === 0 ? undefined : (JSON.parse(text) as unknown) }
}

/** `Authorization` header for the test authenticator: `Bearer test:<user>:<perm,...>`. */
export const testAuth = (permissions: ReadonlyArray<string>, user = "t"): Readonly<Record<string, string>> => testAuthorization(user, permissions)
