/**
 * Issue 5's servers benchmark: 1,000 stopped server entries plus 20 running
 * simulated DayZ servers behind the real controller (default plugins, real
 * accounts: the first admin from ADMIN_USERNAME/ADMIN_PASSWORD, a Bearer
 * token from `POST /api/auth/login`).
 *
 * Set-up (not measured): one simulator install backs every stopped entry
 * (they never start, so they only need the binary to exist); each running
 * entry has its own install with free ports. On a first controller, one
 * stopped entry and the 20 running ones are created, and the 20 started,
 * through the API; that controller is stopped (the game servers keep
 * running) and the stopped entry is copied 999 times straight into its
 * database (`internal/cloneServers.ts`), which is much faster than 999 POSTs.
 *
 * Measured on a second controller over the same data directory:
 * - start-up: spawn -> the first 200 from `GET /api/servers` listing every
 *   entry (and, for information, until all 20 show as reattached, same pid);
 * - resident memory: VmRSS from /proc/<pid>/status after start-up and after
 *   the load (VmHWM, the peak, for information);
 * - `GET /api/servers` p50/p99 under autocannon (10 connections, 10 s after
 *   a 2 s warm-up), compared with `GET /api/health/ping` on the same
 *   controller and with a bare `node:http` server answering the very same
 *   JSON body, loaded one after the other with the same settings.
 *
 * `/api/*` is rate-limited per client IP, so (like `http.ts`) the controller
 * runs with TRUST_PROXY=1 and requests carry an `X-Forwarded-For` from a
 * pool of addresses; the limiter still runs on every request.
 *
 * Env: BENCH_SERVERS_STOPPED (1000), BENCH_SERVERS_RUNNING (20),
 * BENCH_SERVERS_CONNECTIONS (10), BENCH_SERVERS_DURATION_S (10),
 * BENCH_SERVERS_WARMUP_S (2); BENCH_SERVERS_KEEP=1 keeps the data directory and
 * installs (paths printed) for profiling a start-up by hand;
 * BENCH_SERVERS_LOG_LEVEL (e.g. Debug: per-plugin start-up times) sets the
 * measured controller's log level and prints its output at the end.
 * Run alone: `node test/dist/bench/servers.js`; with the rest: `npm run bench`.
 */
import { writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import {
  type ChildHandle,
  type ControllerHandle,
  delay,
  freePort,
  HOST,
  killAllChildren,
  makeTempDir,
  removeDir,
  requestJson,
  spawnController,
  spawnNode,
  stopProcess,
  waitForHttp
} from "../support/controller.js"
import { installSim, killAllSims, type SimInstall, type SimSettings, testSimSettings } from "../support/sim.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { type Measured, measuredRow, measureLoad } from "./internal/load.js"
import { cloneServerEntries } from "./internal/cloneServers.js"
import { hwmMiB, isAlive, pidsWhere, rssMiB } from "./internal/procfs.js"

const GOALS = { startupMs: 3_000, rssMiB: 200, p99Ms: 50 } as const
const ADMIN = { username: "bench-admin", password: "bench admin password 1" }
const rawServerScript = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "internal", "rawJsonServer.js")

const settings = () => ({
  stopped: envInt("BENCH_SERVERS_STOPPED", 1000),
  running: envInt("BENCH_SERVERS_RUNNING", 20),
  connections: envInt("BENCH_SERVERS_CONNECTIONS", 10),
  durationS: envInt("BENCH_SERVERS_DURATION_S", 10),
  warmupS: envInt("BENCH_SERVERS_WARMUP_S", 2)
})

const CONTROLLER_ENV = {
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  TRUST_PROXY: "1",
  DB_BACKUP_INTERVAL: "365 days"
}

/** The simulator quiet but populated: a roster of 5 players, no random activity. */
const simSettings: SimSettings = { ...testSimSettings, players: 5 }
const simArgs = Object.entries(simSettings).map(
  ([key, value]) => `-sim${key[0]!.toUpperCase()}${key.slice(1)}=${value === true ? 1 : value === false ? 0 : value}`
)

// Game servers are spawned detached by the controller, so `killAllChildren` does not reach them.
const gamePorts = new Set<number>()
const gamePids = new Set<number>()
const killGameServers = (): void => {
  const found = pidsWhere((args) => args.some((arg) => arg.startsWith("-port=") && gamePorts.has(Number(arg.slice(6)))))
  for (const pid of new Set([...gamePids, ...found])) {
    if (!isAlive(pid)) continue
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // already gone
    }
  }
}
process.once("exit", killGameServers)

let addressCounter = 0
/** A fresh client address per call, so no single address reaches the per-IP limit. */
const nextAddress = () => {
  const i = addressCounter++ % 65536
  return `10.99.${(i >> 8) & 255}.${i & 255}`
}

interface ServerRow {
  readonly id: string
  readonly status: string
  readonly pid: number | null
  readonly rconStatus: string | null
}

const api = (controller: ControllerHandle, method: string, path: string, token?: string, body?: unknown) =>
  requestJson(controller.baseUrl, method, path, {
    headers: { "x-forwarded-for": nextAddress(), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    timeoutMs: 30_000,
    ...(body === undefined ? {} : { body })
  })

const login = async (controller: ControllerHandle): Promise<string> => {
  const response = await api(controller, "POST", "/api/auth/login", undefined, ADMIN)
  if (response.status !== 200) throw new Error(`login answered ${response.status} ${JSON.stringify(response.body)}`)
  return (response.body as { token: string }).token
}

const listServers = async (controller: ControllerHandle, token: string): Promise<ReadonlyArray<ServerRow>> => {
  const response = await api(controller, "GET", "/api/servers", token)
  if (response.status !== 200) throw new Error(`GET /api/servers answered ${response.status} ${JSON.stringify(response.body)}`)
  return (response.body as { items: ReadonlyArray<ServerRow> }).items
}

/** Runs `f` over `items` with at most `width` in flight. */
const pool = async <A>(items: ReadonlyArray<A>, width: number, f: (item: A, index: number) => Promise<void>): Promise<void> => {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++
        await f(items[index]!, index)
      }
    })
  )
}

const createEntry = async (controller: ControllerHandle, token: string, body: Record<string, unknown>): Promise<string> => {
  const created = await api(controller, "POST", "/api/servers", token, body)
  if (created.status !== 201) throw new Error(`POST /api/servers answered ${created.status} ${JSON.stringify(created.body)}`)
  return (created.body as { id: string }).id
}

/** Polls until `check` passes on a list; undefined after `timeoutMs`. */
const pollList = async (
  controller: ControllerHandle,
  token: string,
  check: (servers: ReadonlyArray<ServerRow>) => boolean,
  timeoutMs: number
): Promise<ReadonlyArray<ServerRow> | undefined> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const servers = await listServers(controller, token)
    if (check(servers)) return servers
    await delay(200)
  }
  return undefined
}

interface Startup {
  readonly pingMs: number
  readonly firstListMs: number
  readonly reattachedMs: number | undefined
  readonly relogin: boolean
}

/**
 * Spawns the controller and times spawn -> the first 200 from `GET /api/servers` with `expected` entries.
 * Uses the token from the previous controller; a 401 means a fresh login, included in the time.
 */
const timeStartup = async (
  dataDir: string,
  port: number,
  token: { value: string },
  expected: number,
  running: ReadonlyMap<string, number>
): Promise<{ readonly controller: ControllerHandle; readonly startup: Startup }> => {
  const started = performance.now()
  const logLevel = process.env["BENCH_SERVERS_LOG_LEVEL"] ?? "Warn"
  const controller = await spawnController({ dataDir, port, logLevel, env: CONTROLLER_ENV })
  let relogin = false
  let pingMs: number | undefined
  let firstListMs: number | undefined
  const deadline = Date.now() + 60_000
  // First the health ping (the HTTP server is up), then the full list.
  while (pingMs === undefined) {
    if (controller.hasExited()) throw new Error(`the controller exited during start-up; output:\n${controller.output()}`)
    if (Date.now() > deadline) throw new Error(`GET /api/health/ping did not answer within 60 s; output:\n${controller.output()}`)
    try {
      if ((await api(controller, "GET", "/api/health/ping")).status === 200) pingMs = performance.now() - started
    } catch {
      // not listening yet
    }
    if (pingMs === undefined) await delay(10)
  }
  while (firstListMs === undefined) {
    if (controller.hasExited()) throw new Error(`the controller exited during start-up; output:\n${controller.output()}`)
    if (Date.now() > deadline) throw new Error(`GET /api/servers did not list ${expected} entries within 60 s; output:\n${controller.output()}`)
    try {
      const response = await api(controller, "GET", "/api/servers", token.value)
      if (response.status === 200 && (response.body as { items: ReadonlyArray<unknown> }).items.length === expected) {
        firstListMs = performance.now() - started
      } else if (response.status === 401 && !relogin) {
        relogin = true
        token.value = await login(controller)
      }
    } catch {
      // not listening yet
    }
    if (firstListMs === undefined) await delay(10)
  }
  const reattached = await pollList(
    controller,
    token.value,
    (servers) => servers.filter((s) => running.has(s.id) && s.status === "running" && s.pid === running.get(s.id)).length === running.size,
    20_000
  )
  const reattachedMs = reattached === undefined ? undefined : performance.now() - started
  return { controller, startup: { pingMs, firstListMs, reattachedMs, relogin } }
}

// Auth on each request, since per-request headers replace the defaults.
const measure = (label: string, url: string, path: string, token: string, s: ReturnType<typeof settings>): Promise<Measured> =>
  measureLoad(label, {
    ...s,
    url,
    requests: () =>
      Array.from({ length: 4096 }, (_, i) => ({
        method: "GET",
        path,
        headers: { authorization: `Bearer ${token}`, "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }
      }))
  })

const row = (m: Measured) => measuredRow(m, 24, 7)

const mib = (value: number | undefined) => (value === undefined ? "n/a" : `${value.toFixed(1)} MiB`)
const ms = (value: number | undefined) => (value === undefined ? "n/a" : `${value.toFixed(0)} ms`)
const verdict = (met: boolean) => (met ? "met" : "NOT met")


const stoppedName = (i: number) => `Stopped ${String(i + 1).padStart(4, "0")}`
const stoppedPort = (i: number) => 20_000 + i

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  const phase = (() => {
    const t0 = performance.now()
    return (what: string) => console.log(`  [${((performance.now() - t0) / 1000).toFixed(1)} s] ${what}`)
  })()
  const dataDir = makeTempDir("garrison-bench-servers-")
  const scratch = makeTempDir("garrison-bench-servers-body-")
  const installs: Array<SimInstall> = []
  const children: Array<ChildHandle> = []
  try {
    // Installs: one shared by the stopped entries, one per running entry.
    const shared = await installSim()
    installs.push(shared)
    for (let i = 0; i < s.running; i++) {
      const install = await installSim()
      installs.push(install)
      gamePorts.add(install.gamePort)
    }
    phase(`${installs.length} simulator installs ready`)

    const port = await freePort()
    const first = await spawnController({ dataDir, port, logLevel: "Warn", env: CONTROLLER_ENV })
    children.push(first)
    await waitForHttp(first, `${first.baseUrl}/api/health/ping`)
    const token = { value: await login(first) }

    // One stopped entry through the API (the shared install; its game port is never bound), copied in the database below.
    const templateId = await createEntry(first, token.value, { name: stoppedName(0), installDir: shared.dir, gamePort: stoppedPort(0) })

    const runningIds: Array<string> = []
    for (const [i, install] of installs.slice(1).entries()) {
      runningIds.push(
        await createEntry(first, token.value, {
          name: `Running ${String(i + 1).padStart(2, "0")}`,
          installDir: install.dir,
          gamePort: install.gamePort,
          extraArgs: simArgs,
          stop: { shutdownWaitMs: 2_000, terminateWaitMs: 1_000 }
        })
      )
    }
    const runningPids = new Map<string, number>()
    await pool(runningIds, s.running, async (id) => {
      const started = await api(first, "POST", `/api/servers/${id}/start`, token.value)
      const pid = (started.body as { pid?: number | null } | undefined)?.pid
      if (started.status !== 200 || typeof pid !== "number") {
        throw new Error(`start ${id} answered ${started.status} ${JSON.stringify(started.body)}`)
      }
      gamePids.add(pid)
      runningPids.set(id, pid)
    })
    const connected = await pollList(
      first,
      token.value,
      (servers) => servers.filter((sv) => runningPids.has(sv.id) && sv.rconStatus === "connected").length === s.running,
      20_000
    )
    phase(`${s.running} servers started${connected === undefined ? " (not all RCON sessions connected within 20 s)" : ", RCON connected"}`)

    // Restart the controller: start-up with every entry, reattaching to the running ones.
    await stopProcess(first)
    cloneServerEntries(dataDir, templateId, s.stopped - 1, (i) => stoppedName(i + 1), (i) => stoppedPort(i + 1))
    phase(`controller stopped; ${s.stopped - 1} copies of the stopped entry inserted into its database`)
    const gone = [...runningPids.values()].filter((pid) => !isAlive(pid))
    if (gone.length > 0) throw new Error(`${gone.length} game servers exited with the first controller`)
    const total = s.stopped + s.running
    const { controller, startup } = await timeStartup(dataDir, port, token, total, runningPids)
    children.push(controller)
    const rssStart = rssMiB(controller.pid)
    if (process.env["BENCH_SERVERS_LOG_LEVEL"] !== undefined) console.log(controller.output())
    phase(
      `controller restarted: first ping after ${ms(startup.pingMs)}, first full list after ${ms(startup.firstListMs)}, all ${s.running} reattached after ${ms(startup.reattachedMs)}` +
        (startup.relogin ? " (the old token was refused; a new login is included)" : "")
    )

    // The very body the controller serves, for the raw baseline.
    const bodyResponse = await fetch(`${controller.baseUrl}/api/servers`, {
      headers: { authorization: `Bearer ${token.value}`, "x-forwarded-for": nextAddress() },
      signal: AbortSignal.timeout(10_000)
    })
    const bodyText = await bodyResponse.text()
    const bodyFile = NodePath.join(scratch, "servers.json")
    writeFileSync(bodyFile, bodyText)
    const listed = (JSON.parse(bodyText) as { items: ReadonlyArray<ServerRow> }).items
    const runningNow = listed.filter((sv) => sv.status === "running").length

    const rawPort = await freePort()
    const raw = spawnNode({ args: [rawServerScript], env: { PORT: String(rawPort), HOST, BODY_FILE: bodyFile } })
    children.push(raw)
    await waitForHttp(raw, `http://${HOST}:${rawPort}/api/servers`)

    console.log(
      `servers: ${listed.length} entries (${runningNow} running), response ${(Buffer.byteLength(bodyText) / 1024).toFixed(0)} KiB; ` +
        `${s.connections} connections, ${s.warmupS} s warm-up + ${s.durationS} s each, sequential; node ${process.version}`
    )
    const servers = await measure("garrison GET /api/servers", `${controller.baseUrl}/api/servers`, "/api/servers", token.value, s)
    console.log(row(servers))
    const rssLoad = rssMiB(controller.pid)
    const peak = hwmMiB(controller.pid)
    const ping = await measure("garrison GET /api/health/ping", `${controller.baseUrl}/api/health/ping`, "/api/health/ping", token.value, s)
    console.log(row(ping))
    const rawM = await measure("raw node:http same JSON", `http://${HOST}:${rawPort}/api/servers`, "/api/servers", token.value, s)
    console.log(row(rawM))
    if (controller.hasExited()) throw new Error(`the controller exited during the benchmark; output:\n${controller.output()}`)

    const ratio = (a: number, b: number) => {
      if (b <= 0) return "n/a"
      const r = a / b
      return r >= 100 ? r.toFixed(0) : r >= 1 ? r.toFixed(2) : r.toPrecision(2)
    }
    console.log(
      `  ratios: /api/servers vs ping: p50 ${ratio(servers.p50, ping.p50)}x, p99 ${ratio(servers.p99, ping.p99)}x, req/s ${ratio(
        servers.requestsPerSecond,
        ping.requestsPerSecond
      )}; /api/servers vs raw: p50 ${ratio(servers.p50, rawM.p50)}x, p99 ${ratio(servers.p99, rawM.p99)}x, req/s ${ratio(
        servers.requestsPerSecond,
        rawM.requestsPerSecond
      )}`
    )

    const startupMet = startup.firstListMs <= GOALS.startupMs
    const rssWorst = Math.max(rssStart ?? Infinity, rssLoad ?? Infinity)
    const rssMet = rssWorst <= GOALS.rssMiB
    const p99Met = servers.p99 <= GOALS.p99Ms && servers.problems === 0
    console.log(`  start-up ${ms(startup.firstListMs)} (goal <= ${GOALS.startupMs} ms: ${verdict(startupMet)})`)
    console.log(
      `  RSS after start-up ${mib(rssStart)}, after load ${mib(rssLoad)}, peak ${mib(peak)} (goal <= ${GOALS.rssMiB} MiB: ${verdict(rssMet)})`
    )
    console.log(`  GET /api/servers p50 ${servers.p50} ms, p99 ${servers.p99} ms (goal p99 <= ${GOALS.p99Ms} ms: ${verdict(p99Met)})`)
    if (servers.problems > 0) console.log(`  warning: ${servers.problems} errors/timeouts/non-2xx on GET /api/servers`)
    const stillRunning = [...runningPids.values()].filter(isAlive).length
    if (stillRunning !== s.running) console.log(`  warning: only ${stillRunning} of ${s.running} game servers still running`)

    return {
      headline:
        `${s.stopped} stopped + ${s.running} running: start-up ${ms(startup.firstListMs)} (ping ${ms(startup.pingMs)}), RSS ${mib(rssStart)} -> ${mib(rssLoad)}, ` +
        `GET /api/servers p50 ${servers.p50} ms p99 ${servers.p99} ms ${servers.requestsPerSecond.toFixed(0)} req/s ` +
        `(raw same JSON p99 ${rawM.p99} ms, ping p99 ${ping.p99} ms)`,
      goals: [
        { description: `start-up <= ${GOALS.startupMs} ms`, met: startupMet },
        { description: `RSS <= ${GOALS.rssMiB} MiB`, met: rssMet },
        { description: `GET /api/servers p99 <= ${GOALS.p99Ms} ms`, met: p99Met }
      ]
    }
  } finally {
    await Promise.all(children.map((child) => stopProcess(child, 5_000)))
    killGameServers()
    await delay(200)
    if (process.env["BENCH_SERVERS_KEEP"] === "1") {
      console.log(`  kept: data directory ${dataDir}, installs ${installs.map((i) => i.dir).join(" ")}`)
    } else {
      for (const install of installs) install.remove()
      removeDir(dataDir)
      removeDir(scratch)
    }
  }
}

export const benchmark: Benchmark = {
  name: "servers",
  description: "1,000 stopped + 20 running servers: controller start-up, RSS, GET /api/servers latency",
  // Set-up (~30 s on a busy machine), three warm-up + measure rounds, with room to spare: 3 min by default.
  budgetMs: (() => {
    const s = settings()
    return 3 * (s.warmupS + s.durationS) * 1000 + 144_000
  })(),
  run
}

// `node test/dist/bench/servers.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, () => {
  killAllChildren()
  killAllSims()
  killGameServers()
})
