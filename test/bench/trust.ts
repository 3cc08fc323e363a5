/**
 * Issue 32's trust benchmark: the public lookup and the partner export on a
 * pool of 1,000,000 bans, measured in one run on the real controller (a
 * child process on loopback, SQLite).
 *
 * The pool: the controller starts once on an empty data folder (migrations,
 * the `local` community, its keys) and issues a `network` partner key
 * (`POST /api/trust/partner-keys` as the admin), then stops; the bans go
 * straight into its `garrison.db` with better-sqlite3 in big transactions
 * (`internal/trustPool.ts`: one vouch each from `local`, 88 % active, 5 %
 * overturned, 5 % expired, 2 % pending, one feed tick each); then the
 * controller starts again on that folder and is measured.
 *
 * 1. Lookup (`GET /api/v1/trust/{steam64}`, signing on as by default, so
 *    each answer carries its RS256 proof), players drawn at random from the
 *    whole pool, against a bare `node:http` server answering the same path
 *    with one better-sqlite3 row fetch by platform id on the same file
 *    (`fixtures/raw-trust-lookup.ts`: the same table of 1,000,000 rows, the
 *    same index), both as child processes:
 *    - latency: p50/p99 of one request after another over one kept-alive
 *      connection, from a probe process of its own
 *      (`fixtures/lookup-probe.ts`, after BENCH_WARMUP_S of the same),
 *      nothing else loading the server. Goal: p99 <= 5 ms (under the
 *      throughput load below the p99 is mostly queueing: printed too);
 *    - throughput: requests/s under BENCH_CONNECTIONS connections
 *      (autocannon, in alternating rounds, the better round of each side),
 *      with each server's CPU time (all its threads) per request, a figure
 *      a busy machine disturbs less. Goal: Garrison >= 0.5x the raw
 *      server's requests/s.
 * 2. Export (`GET /api/v1/trust/export?limit=500` with the partner key):
 *    the first page against the page at depth 900,000 (`since` = the
 *    `updated_ms` of the 900,000th change), one request after another,
 *    alternating, the median of each. Goal: depth <= 1.3x the first page.
 *
 * Also printed, as diagnostics without goals: the query plans and raw
 * better-sqlite3 cost of each query the lookup and the export run (so a
 * slow one is named), the export's next page by its cursor, and the
 * lookup's throughput and latency once more with TRUST_SIGNING=false (what
 * the RS256 proof costs). The load average is printed at the start and the
 * end: the figures mean little on a machine busy with other work.
 *
 * The lookup's rate limit (`trust-lookup`, 60 a minute per IP) stays on:
 * the load comes "through a proxy" (TRUST_PROXY=1) with X-Forwarded-For
 * from BENCH_CLIENT_ADDRESSES addresses, each request the next address, so
 * none reaches the limit. The raw server gets the same requests.
 *
 * SQLite only: the pool is written into the SQLite file, so on the
 * PostgreSQL pass (`npm run bench:postgres`) this controller still runs on
 * SQLite (an empty DATABASE_URL), and says so.
 *
 * Env: BENCH_TRUST_BANS (1000000), BENCH_CONNECTIONS (50), BENCH_DURATION_S
 * (10), BENCH_WARMUP_S (2), BENCH_ROUNDS (2), BENCH_TRUST_PROBE_S (5),
 * BENCH_TRUST_EXPORT_REQUESTS (100), BENCH_TRUST_DEPTH (900000),
 * BENCH_CLIENT_ADDRESSES (16384).
 * Run alone: `node test/dist/bench/trust.js`; with the rest: `npm run bench`.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs"
import { availableParallelism, loadavg } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { type ChildHandle, freePort, HOST, killAllChildren, makeTempDir, removeDir, spawnController, spawnNode, stopProcess, waitForHttp } from "../support/controller.js"
import { seededRandom } from "../support/seededRandom.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { type LoadRequest, type Measured, measuredRow, measureLoad } from "./internal/load.js"
import { cpuSeconds } from "./internal/procfs.js"
import { openSqlite, poolPlayer, type SeedDatabase, seedTrustPool, statusOf, updatedMsOf } from "./internal/trustPool.js"

const GOALS = { lookupP99Ms: 5, lookupRatio: 0.5, exportDepthRatio: 1.3 } as const
const ADMIN = { username: "benchadmin", password: "bench-Password-2026!x" }
const PAGE = 500
const LOOKUP = "/api/v1/trust/"
const EXPORT = "/api/v1/trust/export"
/** Players the load and the probe draw from (at random across the whole pool). */
const SAMPLE = 100_000
const fixtures = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "fixtures")
const rawScript = NodePath.join(fixtures, "raw-trust-lookup.js")
const probeScript = NodePath.join(fixtures, "lookup-probe.js")

const settings = () => ({
  bans: envInt("BENCH_TRUST_BANS", 1_000_000),
  connections: envInt("BENCH_CONNECTIONS", 50),
  durationS: envInt("BENCH_DURATION_S", 10),
  warmupS: envInt("BENCH_WARMUP_S", 2),
  rounds: envInt("BENCH_ROUNDS", 2),
  probeS: envInt("BENCH_TRUST_PROBE_S", 5),
  exportRequests: envInt("BENCH_TRUST_EXPORT_REQUESTS", 100),
  depth: envInt("BENCH_TRUST_DEPTH", 900_000),
  clientAddresses: envInt("BENCH_CLIENT_ADDRESSES", 16_384)
})
type Settings = ReturnType<typeof settings>

/** The controller's settings on both starts; an empty DATABASE_URL keeps it on SQLite on the PostgreSQL pass too. */
const controllerEnv = (extra: Readonly<Record<string, string>> = {}) => ({
  TRUST_PROXY: "1",
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  DB_BACKUP_INTERVAL: "365 days",
  DATABASE_URL: "",
  ...extra
})

const forwardedFor = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

/** One request whose path and forwarded address move on at every send (one counter for all connections). */
const lookupRequests = (paths: ReadonlyArray<string>, addresses: number): ReadonlyArray<LoadRequest> => {
  let n = 0
  return [
    {
      method: "GET",
      path: paths[0]!,
      setupRequest: (request) => {
        const i = n++
        return { ...request, path: paths[i % paths.length]!, headers: { "x-forwarded-for": forwardedFor(i % addresses) } }
      }
    }
  ]
}

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN
}
const f2 = (n: number) => n.toFixed(2)

// ---- the pool ----------------------------------------------------------------------------------------------------

/** The first start: migrations, the local community and keys; the admin issues the partner key the export is read with. */
const prepare = async (dataDir: string): Promise<string> => {
  const controller = await spawnController({ dataDir, logLevel: "Warn", env: controllerEnv() })
  try {
    await waitForHttp(controller, `${controller.baseUrl}/api/health/ping`, 30_000)
    const login = await fetch(`${controller.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
      signal: AbortSignal.timeout(10_000)
    })
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status} ${await login.text()}`)
    const { token } = (await login.json()) as { token: string }
    const issued = await fetch(`${controller.baseUrl}/api/trust/partner-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench partner", tier: "network" }),
      signal: AbortSignal.timeout(10_000)
    })
    const body = (await issued.json()) as { key?: string }
    if (issued.status !== 201 || body.key === undefined) throw new Error(`issuing a partner key answered ${issued.status} ${JSON.stringify(body)}`)
    return body.key
  } finally {
    await stopProcess(controller, 10_000)
  }
}

// ---- the queries, alone ------------------------------------------------------------------------------------------

/** The statements the lookup and the export run, as the plugin writes them (Lookup.ts, Export.ts), with their parameters. */
const queries = (s: Settings, draw: () => number) => {
  const page = [0, updatedMsOf(s.depth - 1)] as const
  return [
    {
      label: "lookup: bans by platform id",
      sql: "SELECT id, status, reason_category FROM trust_bans WHERE platform_id = ?",
      params: (_db: SeedDatabase): ReadonlyArray<unknown> => [poolPlayer(draw())]
    },
    {
      label: "lookup: a ban's vouchers",
      sql: "SELECT community_id FROM trust_vouches WHERE ban_id = ?",
      params: (db: SeedDatabase): ReadonlyArray<unknown> => {
        const row = db.prepare("SELECT id FROM trust_bans WHERE platform_id = ?").get(poolPlayer(draw())) as { id: string }
        return [row.id]
      }
    },
    {
      label: "lookup: a community's last 20 (accuracy)",
      sql: "SELECT b.status FROM trust_vouches v JOIN trust_bans b ON b.id = v.ban_id WHERE v.community_id = ? ORDER BY v.submitted_ms DESC LIMIT ?",
      params: (_db: SeedDatabase): ReadonlyArray<unknown> => ["local", 20]
    },
    ...page.map((after, i) => ({
      label: `export: page of ${PAGE} ${i === 0 ? "from the start" : `at depth ${s.depth}`}`,
      sql: `SELECT b.id, b.platform_id, b.reason_category, b.status, b.activated_ms, b.expires_ms, b.updated_ms,
                   (SELECT COUNT(*) FROM trust_vouches v WHERE v.ban_id = b.id) AS vouch_count
            FROM trust_bans b WHERE b.updated_ms > ? AND b.status IN (?, ?, ?) ORDER BY b.updated_ms LIMIT ?`,
      params: (_db: SeedDatabase): ReadonlyArray<unknown> => [after, "active", "expired", "overturned", PAGE + 1]
    }))
  ]
}

/** Each query's plan and its cost alone (better-sqlite3, read-only, the controller stopped), to name a slow one. */
const explainQueries = (file: string, s: Settings): void => {
  const random = seededRandom(32, "queries")
  const db = openSqlite(file, { readonly: true })
  try {
    console.log("  the lookup's and the export's queries alone (better-sqlite3 on the same file):")
    for (const query of queries(s, () => random.int(0, s.bans))) {
      const statement = db.prepare(query.sql)
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params(db)) as ReadonlyArray<{ detail: string }>).map((row) => row.detail)
      const calls = query.label.startsWith("export") ? 200 : 5_000
      const args = Array.from({ length: calls }, () => query.params(db))
      for (const a of args.slice(0, 50)) statement.all(...a)
      const started = performance.now()
      for (const a of args) statement.all(...a)
      const micros = ((performance.now() - started) * 1000) / calls
      console.log(`    ${query.label.padEnd(42)} ${micros.toFixed(1).padStart(7)} us/call   plan: ${plan.join("; ")}`)
    }
  } finally {
    db.close()
  }
}

// ---- the lookup ----------------------------------------------------------------------------------------------------

interface Target {
  readonly label: string
  readonly child: ChildHandle
  readonly baseUrl: string
}

const startGarrison = async (dataDir: string, label: string, extra: Readonly<Record<string, string>> = {}): Promise<Target & { readonly startMs: number }> => {
  const started = performance.now()
  const child = await spawnController({ dataDir, logLevel: "Warn", env: controllerEnv(extra) })
  await waitForHttp(child, `${child.baseUrl}/api/health/ping`, 60_000)
  return { label, child, baseUrl: child.baseUrl, startMs: performance.now() - started }
}

const startRaw = async (file: string): Promise<Target> => {
  const port = await freePort()
  const child = spawnNode({ args: [rawScript], env: { PORT: String(port), HOST, DB_FILE: file } })
  const baseUrl = `http://${HOST}:${port}`
  await waitForHttp(child, `${baseUrl}${LOOKUP}${poolPlayer(0)}`)
  return { label: "raw", child, baseUrl }
}

/** Both answer a banned player, an overturned one and a stranger as they should, or the comparison means nothing. */
const checkLookups = async (garrison: Target, raw: Target, signed: boolean): Promise<void> => {
  const active = 1 // statusOf(1) is "active"
  const overturned = 7
  if (statusOf(active) !== "active" || statusOf(overturned) !== "overturned") throw new Error("the pool's statuses are not where the check expects them")
  const ask = async (target: Target, player: string) => {
    const answer = await fetch(`${target.baseUrl}${LOOKUP}${player}`, { headers: { "x-forwarded-for": "10.253.0.1" }, signal: AbortSignal.timeout(10_000) })
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> & { signals?: Record<string, unknown>; bans?: ReadonlyArray<unknown> } }
  }
  const a = await ask(garrison, poolPlayer(active))
  const o = await ask(garrison, poolPlayer(overturned))
  if (a.status !== 200 || a.body.signals?.["bans_active"] !== 1 || a.body["band"] !== "banned" || (signed && typeof a.body["proof"] !== "string")) {
    throw new Error(`garrison's lookup of an active ban answered ${a.status} ${JSON.stringify(a.body).slice(0, 400)}`)
  }
  if (o.status !== 200 || o.body.signals?.["overturned"] !== 1 || o.body.signals?.["bans_active"] !== 0) {
    throw new Error(`garrison's lookup of an overturned ban answered ${o.status} ${JSON.stringify(o.body).slice(0, 400)}`)
  }
  const r = await ask(raw, poolPlayer(active))
  if (r.status !== 200 || r.body.bans?.length !== 1) throw new Error(`the raw lookup answered ${r.status} ${JSON.stringify(r.body)}`)
  console.log(
    `  checked: an active ban's player scores ${String(a.body["score"])} (${String(a.body["band"])}, accuracy ${String(a.body.signals["accuracy"])}), ` +
      `an overturned one's ${String(o.body["score"])} (${String(o.body["band"])})${signed ? ", with a proof" : ""}; the raw server finds the row`
  )
}

interface Probe {
  readonly p50: number
  readonly p99: number
  readonly count: number
}

/** Sequential lookups from a process of their own: the latency of one lookup, nothing queueing before it. */
const probe = async (target: Target, pathsFile: string, s: Settings): Promise<Probe> => {
  const child = spawnNode({
    args: [probeScript],
    env: { BASE_URL: target.baseUrl, PATHS_FILE: pathsFile, WARMUP_MS: String(s.warmupS * 1000), DURATION_MS: String(s.probeS * 1000) }
  })
  const ended = await child.exited
  if (ended.code !== 0) throw new Error(`the lookup probe exited ${ended.code ?? ended.signal}: ${child.output()}`)
  const result = JSON.parse(child.output()) as { latencies: Array<number>; failures: number; firstFailure?: string }
  if (result.failures > 0 || result.latencies.length === 0) {
    throw new Error(`${target.label}: the lookup probe had ${result.failures} failures (${result.firstFailure ?? "none"}) and ${result.latencies.length} answers`)
  }
  return { p50: percentile(result.latencies, 0.5), p99: percentile(result.latencies, 0.99), count: result.latencies.length }
}

const probeRow = (label: string, p: Probe) => `  ${label.padEnd(24)} sequential: p50 ${p.p50.toFixed(2)} ms   p99 ${p.p99.toFixed(2)} ms   ${p.count} lookups`

interface Loaded extends Measured {
  /** The server process's CPU time (all threads) per answered request, in microseconds. */
  readonly cpuMicros: number
}

const loadOnce = async (target: Target, s: Settings, paths: ReadonlyArray<string>): Promise<Loaded> => {
  let cpuBefore = 0
  const measured = await measureLoad(target.label, {
    url: target.baseUrl,
    connections: s.connections,
    warmupS: s.warmupS,
    durationS: s.durationS,
    requests: () => lookupRequests(paths, s.clientAddresses),
    alongside: async () => {
      cpuBefore = cpuSeconds(target.child.pid) ?? Number.NaN
    }
  })
  const cpu = (cpuSeconds(target.child.pid) ?? Number.NaN) - cpuBefore
  return { ...measured, cpuMicros: measured.total > 0 ? (cpu * 1e6) / measured.total : Number.NaN }
}

const loadRow = (m: Loaded) => `${measuredRow(m, 24, 7)}   CPU ${m.cpuMicros.toFixed(0)} us/request`

/** The better of a side's rounds (more requests/s): noise only ever slows a run down. */
const best = (runs: ReadonlyArray<Loaded>): Loaded => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a))

// ---- the export ----------------------------------------------------------------------------------------------------

interface ExportAnswer {
  readonly bans: ReadonlyArray<{ readonly updatedMs: number }>
  readonly nextCursor: string | null
}

const exportOnce = async (baseUrl: string, key: string, query: string): Promise<{ ms: number; page: ExportAnswer }> => {
  const started = performance.now()
  const answer = await fetch(`${baseUrl}${EXPORT}?${query}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) })
  const text = await answer.text()
  const ms = performance.now() - started
  if (answer.status !== 200) throw new Error(`the export (${query}) answered ${answer.status}: ${text.slice(0, 300)}`)
  return { ms, page: JSON.parse(text) as ExportAnswer }
}

interface ExportTimes {
  readonly first: ReadonlyArray<number>
  readonly depth: ReadonlyArray<number>
  readonly cursor: ReadonlyArray<number>
}

/** The first page, the page at depth and the depth page's next page (by its cursor), one request after another, interleaved. */
const measureExport = async (baseUrl: string, key: string, s: Settings): Promise<ExportTimes> => {
  const firstQuery = `limit=${PAGE}`
  const depthQuery = `limit=${PAGE}&since=${updatedMsOf(s.depth - 1)}`
  const first = await exportOnce(baseUrl, key, firstQuery)
  const depth = await exportOnce(baseUrl, key, depthQuery)
  if (first.page.bans.length !== PAGE || first.page.bans[0]?.updatedMs !== updatedMsOf(0)) throw new Error("the first export page does not start at the pool's first change")
  const expectedDepth = Array.from({ length: PAGE + 1 }, (_, i) => s.depth + i).find((i) => statusOf(i) !== "pending")!
  if (depth.page.bans.length !== PAGE || depth.page.bans[0]?.updatedMs !== updatedMsOf(expectedDepth) || depth.page.nextCursor === null) {
    throw new Error(`the export page at depth ${s.depth} does not start at change ${expectedDepth}`)
  }
  const cursorQuery = `limit=${PAGE}&cursor=${encodeURIComponent(depth.page.nextCursor)}`
  const times = { first: [] as Array<number>, depth: [] as Array<number>, cursor: [] as Array<number> }
  const warmup = 10
  for (let i = 0; i < warmup + s.exportRequests; i++) {
    const f = await exportOnce(baseUrl, key, firstQuery)
    const d = await exportOnce(baseUrl, key, depthQuery)
    const c = await exportOnce(baseUrl, key, cursorQuery)
    if (i < warmup) continue
    times.first.push(f.ms)
    times.depth.push(d.ms)
    times.cursor.push(c.ms)
  }
  return times
}

// ---- the benchmark -------------------------------------------------------------------------------------------------

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  if (s.depth + PAGE + 1 > s.bans) throw new Error(`BENCH_TRUST_DEPTH (${s.depth}) must leave a full page before the end of the pool (${s.bans} bans)`)
  if (3 * (s.exportRequests + 10) + 2 > 1_000) throw new Error("BENCH_TRUST_EXPORT_REQUESTS must keep the export under the network tier's 1,200 requests a minute")
  console.log(
    `trust: ${s.bans} pool bans (SQLite); lookup ${s.connections} connections, ${s.warmupS} s warm-up + ${s.durationS} s, ${s.rounds} alternating rounds per side, ` +
      `X-Forwarded-For from ${s.clientAddresses} addresses; export pages of ${PAGE}; node ${process.version}, ${availableParallelism()} CPUs, ` +
      `load average ${loadavg()[0]!.toFixed(1)}`
  )
  if (/^postgres(ql)?$/i.test((process.env["GARRISON_TEST_DATABASE"] ?? "").trim())) {
    console.log("  note: the pool is written into the SQLite file, so this benchmark runs the controller on SQLite on the PostgreSQL pass too")
  }
  const root = makeTempDir("garrison-bench-trust-")
  const children: Array<ChildHandle> = []
  try {
    const dataDir = NodePath.join(root, "data")
    mkdirSync(dataDir)
    const dbFile = NodePath.join(dataDir, "garrison.db")

    const key = await prepare(dataDir)
    const seeded = seedTrustPool(dbFile, s.bans)
    const statuses = Object.entries(seeded.byStatus)
      .map(([status, n]) => `${n} ${status}`)
      .join(", ")
    console.log(
      `  pool: ${seeded.bans} bans (${statuses}), one vouch each from 'local', written in ${(seeded.ms / 1000).toFixed(1)} s; ` +
        `garrison.db ${(statSync(dbFile).size / 1024 / 1024).toFixed(0)} MiB`
    )
    explainQueries(dbFile, s)

    const random = seededRandom(32, "players")
    const paths = Array.from({ length: SAMPLE }, () => `${LOOKUP}${poolPlayer(random.int(0, s.bans))}`)
    const pathsFile = NodePath.join(root, "lookup-paths.txt")
    writeFileSync(pathsFile, paths.join("\n"))

    const garrison = await startGarrison(dataDir, "garrison")
    children.push(garrison.child)
    console.log(`  controller started on the pool in ${(garrison.startMs / 1000).toFixed(1)} s (to its first ping)`)
    const raw = await startRaw(dbFile)
    children.push(raw.child)
    await checkLookups(garrison, raw, true)

    // Latency first, with nothing else running; then throughput, alternating.
    const gProbe = await probe(garrison, pathsFile, s)
    console.log(probeRow("garrison", gProbe))
    const rProbe = await probe(raw, pathsFile, s)
    console.log(probeRow("raw", rProbe))

    const runs: Record<"garrison" | "raw", Array<Loaded>> = { garrison: [], raw: [] }
    for (let round = 0; round < s.rounds; round++) {
      runs.garrison.push(await loadOnce(garrison, s, paths))
      runs.raw.push(await loadOnce(raw, s, paths))
    }
    const g = best(runs.garrison)
    const r = best(runs.raw)
    console.log(loadRow(g))
    console.log(loadRow(r))
    if (garrison.child.hasExited()) throw new Error(`the controller exited under load; output:\n${garrison.child.output()}`)
    const ratio = r.requestsPerSecond > 0 ? g.requestsPerSecond / r.requestsPerSecond : 0
    console.log(
      `  lookup ratio garrison/raw ${f2(ratio)} (goal >= ${GOALS.lookupRatio}; CPU per request raw/garrison ${f2(r.cpuMicros / g.cpuMicros)}); ` +
        `sequential p99 ${gProbe.p99.toFixed(2)} ms (goal <= ${GOALS.lookupP99Ms} ms)`
    )

    const times = await measureExport(garrison.baseUrl, key, s)
    const median = (values: ReadonlyArray<number>) => percentile(values, 0.5)
    const [firstMs, depthMs, cursorMs] = [median(times.first), median(times.depth), median(times.cursor)]
    const depthRatio = depthMs / firstMs
    const exportRow = (label: string, values: ReadonlyArray<number>) =>
      `  export ${label.padEnd(34)} median ${f2(median(values))} ms   p90 ${f2(percentile(values, 0.9))} ms   ${values.length} requests`
    console.log(exportRow(`first page (limit ${PAGE})`, times.first))
    console.log(exportRow(`page at depth ${s.depth} (since)`, times.depth))
    console.log(exportRow("the next page by its cursor", times.cursor))
    console.log(`  export ratio depth/first ${f2(depthRatio)} (goal <= ${GOALS.exportDepthRatio}); by cursor/first ${f2(cursorMs / firstMs)}`)

    // Diagnostic: the same lookup without the RS256 proof. The stop takes the controller's shutdown backup (at most
    // 5 s); no scheduled one runs while measuring, as the first start's shutdown backup is minutes old.
    await stopProcess(raw.child, 5_000)
    await stopProcess(garrison.child, 10_000)
    const unsigned = await startGarrison(dataDir, "garrison, signing off", { TRUST_SIGNING: "false" })
    children.push(unsigned.child)
    const rawAgain = await startRaw(dbFile)
    children.push(rawAgain.child)
    await checkLookups(unsigned, rawAgain, false)
    const uProbe = await probe(unsigned, pathsFile, s)
    const u = await loadOnce(unsigned, s, paths)
    console.log(probeRow("garrison, signing off", uProbe))
    console.log(loadRow(u))
    const unsignedRatio = u.requestsPerSecond / r.requestsPerSecond
    console.log(
      `  (diagnostic) with TRUST_SIGNING=false: ratio garrison/raw ${f2(unsignedRatio)}, sequential p99 ${uProbe.p99.toFixed(2)} ms; ` +
        `the proof costs ${(g.cpuMicros - u.cpuMicros).toFixed(0)} us of CPU per lookup; load average now ${loadavg()[0]!.toFixed(1)}`
    )

    const problems = g.problems + u.problems
    return {
      headline:
        `lookup on ${s.bans} bans: sequential p50/p99 ${f2(gProbe.p50)}/${f2(gProbe.p99)} ms (raw ${f2(rProbe.p50)}/${f2(rProbe.p99)}); ` +
        `garrison ${g.requestsPerSecond.toFixed(0)} req/s (p50 ${g.p50} ms, p99 ${g.p99} ms, ${g.cpuMicros.toFixed(0)} us CPU), ` +
        `raw ${r.requestsPerSecond.toFixed(0)} req/s (${r.cpuMicros.toFixed(0)} us CPU), ratio ${f2(ratio)} ` +
        `(${f2(unsignedRatio)} unsigned); export page ${PAGE}: first ${f2(firstMs)} ms, depth ${s.depth} ${f2(depthMs)} ms, ratio ${f2(depthRatio)}`,
      goals: [
        { description: `lookup p99 <= ${GOALS.lookupP99Ms} ms, one at a time (${f2(gProbe.p99)} ms)`, met: gProbe.p99 <= GOALS.lookupP99Ms },
        { description: `lookup req/s garrison/raw >= ${GOALS.lookupRatio} (${f2(ratio)})`, met: ratio >= GOALS.lookupRatio && g.problems === 0 },
        { description: `export page at depth ${s.depth} <= ${GOALS.exportDepthRatio}x the first page (${f2(depthRatio)}x)`, met: depthRatio <= GOALS.exportDepthRatio },
        { description: `no errors, time-outs or non-2xx from Garrison (${problems})`, met: problems === 0 }
      ]
    }
  } finally {
    await Promise.all(children.map((child) => stopProcess(child, 5_000)))
    removeDir(root)
  }
}

export const benchmark: Benchmark = {
  name: "trust",
  description: "trust lookup and partner export on a pool of 1,000,000 bans: lookup vs raw node:http + better-sqlite3, export depth vs first page",
  // Seeding and three starts (about a minute on 2 cores), the probes, the rounds and the export, with room to spare.
  budgetMs: (() => {
    const s = settings()
    return ((2 * s.rounds + 1) * (s.warmupS + s.durationS) + 3 * (s.warmupS + s.probeS)) * 1000 + 180_000 + Math.ceil(s.bans / 10_000) * 1000
  })(),
  run
}

// `node test/dist/bench/trust.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, killAllChildren)
