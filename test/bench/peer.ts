/**
 * Garrison against a peer panel (issue 16): `fixtures/peer-panel.ts`, an
 * Express 4 + better-sqlite3 app written the way DayZ panels are, started
 * as a child process beside the real controller, both with the same 1,000
 * bans, the same load, in alternating rounds (Garrison, peer, Garrison,
 * peer), so a noisy moment hurts both alike.
 *
 * Measured, each as Garrison's figure, the peer's and their ratio:
 * - start-up: spawn to the first ping answered (empty data, default
 *   plugins), and resident memory right after; the median of three starts;
 * - requests/s with p50/p99 for the ping, the paged list (50 newest bans),
 *   the full export (every ban) and adding one ban (a new player each
 *   request);
 * - CPU per row served (the process's user + system time over the rows in
 *   its answers) for the paged list and the export;
 * - ping p99 while the export is under load (a second client, in a process
 *   of its own, pinging over one connection beside it).
 *
 * Goals (issues 16 and 29): ping >= 3x, export >= 1.5x, paged list >= 1.5x,
 * ban add >= 1x the peer's req/s (the peer writes an audit row in each
 * ban's transaction, synchronous=FULL, as durable as Garrison); export
 * and list p99 <= 3x their p50, add p99 <= 4x its p50; ping p99 under the
 * export load <= 20 ms; CPU per row <= the peer's for the list and the
 * export; start-up <= 1x the peer's; RSS after start-up <= 90 MiB. Goals
 * not met are reported, not fatal.
 *
 * Both run behind "a proxy" (TRUST_PROXY / trust proxy, X-Forwarded-For
 * from a pool of addresses) so neither's per-IP limiter of 600 a minute
 * answers 429s; both still run their limiter on every request.
 *
 * Env: BENCH_CONNECTIONS (50), BENCH_DURATION_S (5), BENCH_WARMUP_S (1),
 * BENCH_ROUNDS (2), BENCH_PEER_BANS (1000), BENCH_CLIENT_ADDRESSES (4096).
 * Run alone: `node test/dist/bench/peer.js`; with the rest: `npm run bench`.
 */
import { existsSync, readFileSync, rmSync } from "node:fs"
import { availableParallelism } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import {
  type ChildHandle,
  delay,
  freePort,
  HOST,
  killAllChildren,
  makeTempDir,
  removeDir,
  spawnController,
  spawnNode,
  stopProcess
} from "../support/controller.js"
import { addedPlayer, benchRows } from "./internal/banRows.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { type LoadRequest, type Measured, measuredRow, measureLoad } from "./internal/load.js"
import { cpuSeconds, rssMiB } from "./internal/procfs.js"

const fixtures = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "fixtures")
const peerScript = NodePath.join(fixtures, "peer-panel.js")
const probeScript = NodePath.join(fixtures, "ping-probe.js")
const countScript = NodePath.join(fixtures, "count-statements.js")
const ADMIN = { username: "benchadmin", password: "bench-Password-2026!x" }
const PAGE = 50

/** Issue 16's goals, with issue 29's for the add (against a peer as durable), the tails, start-up and memory. */
const GOALS = {
  ping: 3,
  export: 1.5,
  list: 1.5,
  add: 1,
  exportTail: 3,
  listTail: 3,
  addTail: 4,
  pingUnderLoadMs: 20,
  startup: 1,
  rssMiB: 90
} as const

const settings = () => ({
  connections: envInt("BENCH_CONNECTIONS", 50),
  durationS: envInt("BENCH_DURATION_S", 5),
  warmupS: envInt("BENCH_WARMUP_S", 1),
  rounds: envInt("BENCH_ROUNDS", 2),
  bans: envInt("BENCH_PEER_BANS", 1000),
  clientAddresses: envInt("BENCH_CLIENT_ADDRESSES", 4096)
})
type Settings = ReturnType<typeof settings>

interface Side {
  readonly label: "garrison" | "peer"
  readonly child: ChildHandle
  readonly baseUrl: string
  /** The signed-in session: Garrison's Bearer token, the peer's session cookie. */
  readonly auth: Readonly<Record<string, string>>
}

const forwardedFor = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

/** One request per simulated client address, each with the side's credentials. */
const requestsFor = (side: Side, s: Settings, base: LoadRequest): ReadonlyArray<LoadRequest> =>
  Array.from({ length: s.clientAddresses }, (_, i) => ({ ...base, headers: { ...side.auth, ...base.headers, "x-forwarded-for": forwardedFor(i) } }))

// ---- starting both ----------------------------------------------------------------------------------------------

/** `extra`: more environment (the counting pass's wrapper). */
const startPeer = async (dataDir: string, seed: number, extra: Readonly<Record<string, string>> = {}): Promise<{ child: ChildHandle; baseUrl: string }> => {
  const port = await freePort()
  const child = spawnNode({
    args: [peerScript],
    env: { PORT: String(port), HOST, DB_PATH: NodePath.join(dataDir, "peer.db"), ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, SEED_BANS: String(seed), ...extra }
  })
  return { child, baseUrl: `http://${HOST}:${port}` }
}

const startGarrison = async (dataDir: string, extra: Readonly<Record<string, string>> = {}): Promise<{ child: ChildHandle; baseUrl: string }> => {
  const controller = await spawnController({
    dataDir,
    logLevel: "Warn",
    env: { TRUST_PROXY: "1", ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...extra }
  })
  return { child: controller, baseUrl: controller.baseUrl }
}

/** Polls the ping every 5 ms; resolves with the time from `spawnedAt` to the first 200. */
const firstPing = async (child: ChildHandle, baseUrl: string, spawnedAt: number): Promise<number> => {
  const deadline = spawnedAt + 30_000
  while (performance.now() < deadline) {
    if (child.hasExited()) throw new Error(`exited before its first ping; output:\n${child.output()}`)
    try {
      const answer = await fetch(`${baseUrl}/api/health/ping`, { signal: AbortSignal.timeout(1_000) })
      if (answer.status === 200) return performance.now() - spawnedAt
    } catch {
      // Not listening yet.
    }
    await delay(5)
  }
  throw new Error(`no ping within 30 s; output:\n${child.output()}`)
}

interface Startup {
  readonly ms: number
  readonly rssMiB: number
}

/** Start, first ping, RSS a moment later, stop: three times, alternating, medians. */
const measureStartups = async (): Promise<{ garrison: Startup; peer: Startup }> => {
  const runs: Record<"garrison" | "peer", Array<Startup>> = { garrison: [], peer: [] }
  for (let round = 0; round < 3; round++) {
    for (const label of ["garrison", "peer"] as const) {
      const dataDir = makeTempDir("garrison-bench-peer-")
      try {
        const spawnedAt = performance.now()
        const started = label === "garrison" ? await startGarrison(dataDir) : await startPeer(dataDir, 0)
        const ms = await firstPing(started.child, started.baseUrl, spawnedAt)
        await delay(500)
        const rss = rssMiB(started.child.child.pid!) ?? Number.NaN
        runs[label].push({ ms, rssMiB: rss })
        await stopProcess(started.child, 5_000)
      } finally {
        removeDir(dataDir)
      }
    }
  }
  const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const summary = (list: ReadonlyArray<Startup>): Startup => ({ ms: median(list.map((s) => s.ms)), rssMiB: median(list.map((s) => s.rssMiB)) })
  return { garrison: summary(runs.garrison), peer: summary(runs.peer) }
}

// ---- signing in and seeding ------------------------------------------------------------------------------------

const signIn = async (label: Side["label"], baseUrl: string): Promise<Readonly<Record<string, string>>> => {
  const answer = await fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
    signal: AbortSignal.timeout(10_000)
  })
  if (answer.status !== 200) throw new Error(`${label}: sign-in answered ${answer.status} ${await answer.text()}`)
  if (label === "garrison") return { authorization: `Bearer ${((await answer.json()) as { token: string }).token}` }
  const cookies = answer.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!)
  return { cookie: cookies.join("; ") }
}

const seedGarrison = async (side: Side, count: number): Promise<void> => {
  const rows = benchRows(count, 0)
  const answer = await fetch(`${side.baseUrl}/api/bans/import`, {
    method: "POST",
    headers: { ...side.auth, "content-type": "application/json" },
    body: JSON.stringify(rows),
    signal: AbortSignal.timeout(60_000)
  })
  const body = (await answer.json()) as { added?: number }
  if (answer.status !== 200 || body.added !== count) throw new Error(`garrison: the import answered ${answer.status} ${JSON.stringify(body)}`)
}

/** Both sides must answer the list and the export with the same rows, or the comparison means nothing. */
const checkSameData = async (sides: ReadonlyArray<Side>, count: number): Promise<void> => {
  const views = await Promise.all(
    sides.map(async (side) => {
      const exported = (await (await fetch(`${side.baseUrl}/api/bans/export`, { headers: side.auth })).json()) as Array<{ platformId: string }>
      const page = (await (await fetch(`${side.baseUrl}/api/bans?limit=${PAGE}`, { headers: side.auth })).json()) as { items: Array<{ platformId: string }> }
      return { exported: exported.map((b) => b.platformId).join(","), page: page.items.map((b) => b.platformId).join(","), rows: exported.length }
    })
  )
  const [g, p] = views
  if (g!.rows !== count || g!.exported !== p!.exported || g!.page !== p!.page) {
    throw new Error(`garrison and the peer disagree: ${g!.rows} and ${p!.rows} rows exported, first pages equal: ${g!.page === p!.page}`)
  }
}

// ---- loads ---------------------------------------------------------------------------------------------------------

interface Scenario {
  readonly name: string
  readonly rowsPerAnswer: number
  readonly request: (side: Side, s: Settings) => ReadonlyArray<LoadRequest>
  readonly path: string
}

let added = 0
const scenarios: ReadonlyArray<Scenario> = [
  { name: "ping", rowsPerAnswer: 0, path: "/api/health/ping", request: (side, s) => requestsFor(side, s, { method: "GET", path: "/api/health/ping" }) },
  { name: "list", rowsPerAnswer: PAGE, path: `/api/bans?limit=${PAGE}`, request: (side, s) => requestsFor(side, s, { method: "GET", path: `/api/bans?limit=${PAGE}` }) },
  { name: "export", rowsPerAnswer: -1, path: "/api/bans/export", request: (side, s) => requestsFor(side, s, { method: "GET", path: "/api/bans/export" }) },
  {
    name: "add",
    rowsPerAnswer: 0,
    path: "/api/bans",
    request: (side, s) =>
      requestsFor(side, s, {
        method: "POST",
        path: "/api/bans",
        headers: { "content-type": "application/json" },
        // A new player for every request, on both sides alike.
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ platformId: addedPlayer(added++), playerName: "Bench Added", reason: "benchmark: added under load" })
        })
      })
  }
]

interface Run extends Measured {
  readonly cpuSeconds: number
  /** Ping p99 beside the export's load (export only). */
  readonly pingP99?: number
}

const measureOne = async (side: Side, scenario: Scenario, s: Settings): Promise<Run> => {
  const pid = side.child.child.pid!
  let cpuBefore = 0
  let pingP99: number | undefined
  const measured = await measureLoad(side.label, {
    url: side.baseUrl,
    connections: s.connections,
    warmupS: s.warmupS,
    durationS: s.durationS,
    requests: () => scenario.request(side, s),
    alongside: async () => {
      cpuBefore = cpuSeconds(pid) ?? 0
      if (scenario.name !== "export") return
      // One more client pinging, one request after another over one kept-alive connection, while the export is under load.
      const probe = await pingProbe(side.baseUrl, Math.max(1, s.durationS - 1) * 1000)
      if (probe.failures > 0 || probe.latencies.length === 0) {
        throw new Error(`${side.label}: the ping probe beside the export had ${probe.failures} failures and ${probe.latencies.length} answers`)
      }
      pingP99 = percentile(probe.latencies, 0.99)
    }
  })
  const cpu = (cpuSeconds(pid) ?? 0) - cpuBefore
  return { ...measured, cpuSeconds: cpu, ...(pingP99 === undefined ? {} : { pingP99 }) }
}

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

/** Pings for `durationMs` from a process of its own (`fixtures/ping-probe.ts`), so the load generator here never delays it. */
const pingProbe = async (baseUrl: string, durationMs: number): Promise<{ latencies: Array<number>; failures: number }> => {
  const probe = spawnNode({ args: [probeScript], env: { URL: `${baseUrl}/api/health/ping`, DURATION_MS: String(durationMs) } })
  const ended = await probe.exited
  if (ended.code !== 0) throw new Error(`the ping probe exited ${ended.code ?? ended.signal}: ${probe.output()}`)
  return JSON.parse(probe.output()) as { latencies: Array<number>; failures: number }
}

/** The better of a side's rounds (the one with more requests/s): noise only ever slows a run down. */
const best = (runs: ReadonlyArray<Run>): Run => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a))

const microsPerRow = (run: Run, rowsPerAnswer: number): number => (rowsPerAnswer > 0 && run.total > 0 ? (run.cpuSeconds * 1e6) / (run.total * rowsPerAnswer) : Number.NaN)

// ---- statements per request: a counting pass ------------------------------------------------------------------------

/** Requests per scenario in the counting pass, one at a time. */
const COUNTED_REQUESTS = 20

interface Counts {
  readonly statements: number
  readonly commits: number
}

/** The counts so far of a process started with the counting wrapper (it writes them on SIGUSR2). */
const readCounts = async (child: ChildHandle, file: string): Promise<Counts> => {
  rmSync(file, { force: true })
  child.child.kill("SIGUSR2")
  const deadline = performance.now() + 5_000
  while (performance.now() < deadline) {
    if (existsSync(file)) {
      try {
        return JSON.parse(readFileSync(file, "utf8")) as Counts
      } catch {
        // Caught half-written: read again.
      }
    }
    await delay(5)
  }
  throw new Error(`no statement counts from pid ${child.child.pid}; output:\n${child.output()}`)
}

/** One request as the load sends it, with the side's credentials. */
const sendOnce = async (side: Side, request: LoadRequest): Promise<number> => {
  const sent = request.setupRequest === undefined ? request : request.setupRequest(request)
  const answer = await fetch(`${side.baseUrl}${sent.path}`, {
    method: sent.method ?? "GET",
    headers: sent.headers ?? {},
    ...(sent.body === undefined ? {} : { body: sent.body }),
    signal: AbortSignal.timeout(30_000)
  })
  await answer.arrayBuffer()
  return answer.status
}

/**
 * Statements and commits per request of each scenario, on each side,
 * counted at the driver in instances of their own started with the
 * counting wrapper (never the timed ones: the wrapper costs a little).
 */
const countStatements = async (s: Settings): Promise<Map<string, Record<Side["label"], Counts>>> => {
  const dir = makeTempDir("garrison-bench-count-")
  const counting = (label: string) => ({
    NODE_OPTIONS: `${process.env["NODE_OPTIONS"] ?? ""} --import=${pathToFileURL(countScript).href}`.trim(),
    STATEMENT_COUNT_FILE: NodePath.join(dir, `${label}.json`)
  })
  const sides: Array<Side> = []
  try {
    sides.push({ label: "garrison", ...(await startGarrison(NodePath.join(dir, "garrison"), counting("garrison"))), auth: {} })
    sides.push({ label: "peer", ...(await startPeer(dir, s.bans, counting("peer"))), auth: {} })
    const ready: Array<Side> = []
    for (const side of sides) {
      await firstPing(side.child, side.baseUrl, performance.now())
      ready.push({ ...side, auth: await signIn(side.label, side.baseUrl) })
    }
    await seedGarrison(ready[0]!, s.bans)
    const table = new Map<string, Record<Side["label"], Counts>>()
    for (const scenario of scenarios) {
      const row: Partial<Record<Side["label"], Counts>> = {}
      for (const side of ready) {
        const requests = scenario.request(side, s)
        // One request first: what the first of a kind costs (a prepared statement, a cache) is not what each costs.
        await sendOnce(side, requests[0]!)
        const file = counting(side.label).STATEMENT_COUNT_FILE
        const before = await readCounts(side.child, file)
        for (let i = 0; i < COUNTED_REQUESTS; i++) {
          const status = await sendOnce(side, requests[(i + 1) % requests.length]!)
          if (status >= 400) throw new Error(`${side.label}: ${scenario.name} answered ${status} in the counting pass`)
        }
        const after = await readCounts(side.child, file)
        row[side.label] = {
          statements: (after.statements - before.statements) / COUNTED_REQUESTS,
          commits: (after.commits - before.commits) / COUNTED_REQUESTS
        }
      }
      table.set(scenario.name, row as Record<Side["label"], Counts>)
    }
    return table
  } finally {
    await Promise.all(sides.map((side) => stopProcess(side.child, 5_000)))
    removeDir(dir)
  }
}

const shownCounts = (counts: Counts | undefined) =>
  counts === undefined ? "" : `   ${counts.statements.toFixed(1)} statements, ${counts.commits.toFixed(1)} commits per request`

// ---- the benchmark ---------------------------------------------------------------------------------------------------

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  console.log(
    `peer: Garrison vs an Express 4 + better-sqlite3 panel; ${s.bans} bans; ${s.connections} connections, ${s.warmupS} s warm-up + ${s.durationS} s, ` +
      `${s.rounds} alternating rounds per side; node ${process.version}, ${availableParallelism()} CPUs`
  )
  const startups = await measureStartups()
  const startupRatio = startups.garrison.ms / startups.peer.ms
  console.log(
    `  start-up to first ping: garrison ${startups.garrison.ms.toFixed(0)} ms (RSS ${startups.garrison.rssMiB.toFixed(0)} MiB), ` +
      `peer ${startups.peer.ms.toFixed(0)} ms (RSS ${startups.peer.rssMiB.toFixed(0)} MiB); ratio ${startupRatio.toFixed(2)}`
  )

  const counted = await countStatements(s)

  const dataDirs = [makeTempDir("garrison-bench-peer-"), makeTempDir("garrison-bench-peer-")]
  const sides: Array<Side> = []
  try {
    const g = await startGarrison(dataDirs[0]!)
    await firstPing(g.child, g.baseUrl, performance.now())
    const garrison: Side = { label: "garrison", ...g, auth: await signIn("garrison", g.baseUrl) }
    sides.push(garrison)
    const p = await startPeer(dataDirs[1]!, s.bans)
    await firstPing(p.child, p.baseUrl, performance.now())
    const peer: Side = { label: "peer", ...p, auth: await signIn("peer", p.baseUrl) }
    sides.push(peer)
    await seedGarrison(garrison, s.bans)
    await checkSameData(sides, s.bans)

    const results = new Map<string, { garrison: Run; peer: Run }>()
    for (const scenario of scenarios) {
      const runs: Record<Side["label"], Array<Run>> = { garrison: [], peer: [] }
      for (let round = 0; round < s.rounds; round++) {
        for (const side of sides) runs[side.label].push(await measureOne(side, scenario, s))
      }
      const pair = { garrison: best(runs.garrison), peer: best(runs.peer) }
      results.set(scenario.name, pair)
      console.log(`  ${scenario.name} (${scenario.path})`)
      for (const [label, m] of [["garrison", pair.garrison], ["peer", pair.peer]] as const) {
        const rows = scenario.rowsPerAnswer === -1 ? s.bans : scenario.rowsPerAnswer
        const perRow = microsPerRow(m, rows)
        console.log(
          measuredRow(m, 9, 7) +
            `   CPU ${m.total > 0 ? ((m.cpuSeconds * 1e6) / m.total).toFixed(0) : "?"} us/request` +
            (Number.isNaN(perRow) ? "" : ` (${perRow.toFixed(1)} us/row)`) +
            shownCounts(counted.get(scenario.name)?.[label]) +
            (m.pingP99 === undefined ? "" : `   ping p99 beside it ${m.pingP99.toFixed(1)} ms`)
        )
      }
      for (const side of sides) if (side.child.hasExited()) throw new Error(`${side.label} exited under load; output:\n${side.child.output()}`)
    }

    const ratio = (name: string) => {
      const pair = results.get(name)!
      return pair.peer.requestsPerSecond > 0 ? pair.garrison.requestsPerSecond / pair.peer.requestsPerSecond : 0
    }
    const exportRun = results.get("export")!.garrison
    const addRun = results.get("add")!.garrison
    const listPair = results.get("list")!
    const exportPair = results.get("export")!
    const cpu = {
      list: [microsPerRow(listPair.garrison, PAGE), microsPerRow(listPair.peer, PAGE)] as const,
      export: [microsPerRow(exportPair.garrison, s.bans), microsPerRow(exportPair.peer, s.bans)] as const
    }
    const problems = [...results.values()].reduce((n, pair) => n + pair.garrison.problems, 0)
    const goals = [
      { description: `ping req/s >= ${GOALS.ping}x the peer (${ratio("ping").toFixed(2)}x)`, met: ratio("ping") >= GOALS.ping },
      { description: `paged list req/s >= ${GOALS.list}x the peer (${ratio("list").toFixed(2)}x)`, met: ratio("list") >= GOALS.list },
      { description: `full export req/s >= ${GOALS.export}x the peer (${ratio("export").toFixed(2)}x)`, met: ratio("export") >= GOALS.export },
      { description: `ban add req/s >= ${GOALS.add}x the peer (${ratio("add").toFixed(2)}x)`, met: ratio("add") >= GOALS.add },
      {
        description: `list p99 <= ${GOALS.listTail}x its p50 (${listPair.garrison.p99} ms vs ${listPair.garrison.p50} ms)`,
        met: listPair.garrison.p99 <= GOALS.listTail * Math.max(1, listPair.garrison.p50)
      },
      {
        description: `add p99 <= ${GOALS.addTail}x its p50 (${addRun.p99} ms vs ${addRun.p50} ms)`,
        met: addRun.p99 <= GOALS.addTail * Math.max(1, addRun.p50)
      },
      {
        description: `export p99 <= ${GOALS.exportTail}x its p50 (${exportRun.p99} ms vs ${exportRun.p50} ms)`,
        met: exportRun.p99 <= GOALS.exportTail * Math.max(1, exportRun.p50)
      },
      {
        description: `ping p99 beside the export load <= ${GOALS.pingUnderLoadMs} ms (${exportRun.pingP99?.toFixed(1) ?? "?"} ms)`,
        met: (exportRun.pingP99 ?? Infinity) <= GOALS.pingUnderLoadMs
      },
      {
        description: `CPU per row of the paged list <= the peer's (${cpu.list[0].toFixed(1)} vs ${cpu.list[1].toFixed(1)} us)`,
        met: cpu.list[0] <= cpu.list[1]
      },
      {
        description: `CPU per row of the export <= the peer's (${cpu.export[0].toFixed(1)} vs ${cpu.export[1].toFixed(1)} us)`,
        met: cpu.export[0] <= cpu.export[1]
      },
      { description: `start-up <= ${GOALS.startup}x the peer's (${startupRatio.toFixed(2)}x)`, met: startupRatio <= GOALS.startup },
      { description: `RSS after start-up <= ${GOALS.rssMiB} MiB (${startups.garrison.rssMiB.toFixed(0)} MiB)`, met: startups.garrison.rssMiB <= GOALS.rssMiB },
      { description: `no errors, time-outs or non-2xx from Garrison (${problems})`, met: problems === 0 }
    ]
    return {
      headline:
        `ratios garrison/peer: ping ${ratio("ping").toFixed(2)}, list ${ratio("list").toFixed(2)}, export ${ratio("export").toFixed(2)}, ` +
        `add ${ratio("add").toFixed(2)}; export p50/p99 ${exportRun.p50}/${exportRun.p99} ms, ping p99 beside it ${exportRun.pingP99?.toFixed(1) ?? "?"} ms; ` +
        `CPU us/row list ${cpu.list[0].toFixed(1)} vs ${cpu.list[1].toFixed(1)}, export ${cpu.export[0].toFixed(1)} vs ${cpu.export[1].toFixed(1)}; ` +
        `start-up ${startupRatio.toFixed(2)}x, RSS ${startups.garrison.rssMiB.toFixed(0)} vs ${startups.peer.rssMiB.toFixed(0)} MiB`,
      goals
    }
  } finally {
    await Promise.all(sides.map((side) => stopProcess(side.child, 5_000)))
    for (const dir of dataDirs) removeDir(dir)
  }
}

export const benchmark: Benchmark = {
  name: "peer",
  description: "Garrison vs an Express 4 + better-sqlite3 panel: ping, paged list, export, ban add, start-up, memory",
  budgetMs: (() => {
    const s = settings()
    return scenarios.length * 2 * s.rounds * (s.warmupS + s.durationS) * 1000 + 180_000
  })(),
  run
}

// `node test/dist/bench/peer.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, killAllChildren)
