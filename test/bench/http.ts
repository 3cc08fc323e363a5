/**
 * HTTP overhead: `GET /api/health/ping` on the real controller against a
 * bare `node:http` server answering the same JSON, both as child processes
 * on loopback, loaded one after the other with the same autocannon settings.
 * Goal (design): Garrison serves at least 0.6x the raw server's requests/s.
 *
 * Every `/api/*` route, ping included, is rate-limited to 600 requests a
 * minute per client IP (spec, Limits), so load from one address measures
 * 429s after the first second. The load therefore comes "through a proxy":
 * the controller runs with TRUST_PROXY=1 and each request carries an
 * `X-Forwarded-For` from a pool of BENCH_CLIENT_ADDRESSES addresses, enough
 * that none reaches the limit; the limiter still runs on every request. The
 * raw server gets the very same requests (and ignores the header).
 *
 * Env: BENCH_CONNECTIONS (50), BENCH_DURATION_S (10), BENCH_WARMUP_S (2),
 * BENCH_CLIENT_ADDRESSES (4096).
 * Run alone: `node test/dist/bench/http.js`; with the rest: `npm run bench`.
 */
import { availableParallelism } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import {
  type ChildHandle,
  freePort,
  HOST,
  killAllChildren,
  makeTempDir,
  removeDir,
  spawnController,
  spawnNode,
  stopProcess,
  waitForHttp
} from "../support/controller.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { type LoadRequest, type Measured, measuredRow, measureLoad } from "./internal/load.js"

const PATH = "/api/health/ping"
const EXPECTED_BODY = JSON.stringify({ status: "ok" })
const GOAL_RATIO = 0.6
const rawServerScript = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "fixtures", "raw-http-server.js")

const settings = () => ({
  connections: envInt("BENCH_CONNECTIONS", 50),
  durationS: envInt("BENCH_DURATION_S", 10),
  warmupS: envInt("BENCH_WARMUP_S", 2),
  clientAddresses: envInt("BENCH_CLIENT_ADDRESSES", 4096)
})

/** Pre-built requests, one per simulated client address (10.x.y.z), so building them costs nothing during the run. */
const proxiedRequests = (count: number): ReadonlyArray<LoadRequest> =>
  Array.from({ length: count }, (_, i) => ({
    method: "GET",
    path: PATH,
    headers: { "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }
  }))

interface Target {
  readonly label: string
  readonly url: string
}

/** Both servers must answer the same thing, or the comparison means nothing. */
const checkResponse = async (target: Target): Promise<void> => {
  const response = await fetch(target.url, { signal: AbortSignal.timeout(5_000) })
  const body = await response.text()
  const type = response.headers.get("content-type") ?? ""
  if (response.status !== 200 || !type.startsWith("application/json") || body !== EXPECTED_BODY) {
    throw new Error(`${target.label} answered ${response.status} "${type}" ${body}; expected 200 application/json ${EXPECTED_BODY}`)
  }
}

const measure = (target: Target, s: ReturnType<typeof settings>): Promise<Measured> =>
  measureLoad(target.label, { ...s, url: target.url, requests: () => proxiedRequests(s.clientAddresses) })

const row = (m: Measured) => measuredRow(m, 10, 8)

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  const dataDir = makeTempDir("garrison-bench-")
  const children: Array<ChildHandle> = []
  try {
    const [garrisonPort, rawPort] = [await freePort(), await freePort()]
    // Effect's label is "Warn" ("Warning" is not a level main.ts accepts).
    const garrison = await spawnController({ dataDir, port: garrisonPort, logLevel: "Warn", env: { TRUST_PROXY: "1" } })
    children.push(garrison)
    const raw = spawnNode({ args: [rawServerScript], env: { PORT: String(rawPort), HOST } })
    children.push(raw)

    const garrisonTarget: Target = { label: "garrison", url: `http://${HOST}:${garrisonPort}${PATH}` }
    const rawTarget: Target = { label: "raw", url: `http://${HOST}:${rawPort}${PATH}` }
    await waitForHttp(garrison, garrisonTarget.url)
    await waitForHttp(raw, rawTarget.url)
    await checkResponse(garrisonTarget)
    await checkResponse(rawTarget)

    console.log(
      `http: GET ${PATH}, ${s.connections} connections, ${s.warmupS} s warm-up + ${s.durationS} s each, sequential, ` +
        `X-Forwarded-For from ${s.clientAddresses} addresses; node ${process.version}, ${availableParallelism()} CPUs`
    )
    // One after the other: the two servers never compete for the CPU.
    const g = await measure(garrisonTarget, s)
    console.log(row(g))
    const r = await measure(rawTarget, s)
    console.log(row(r))
    const results = [g, r]
    const ratio = r.requestsPerSecond > 0 ? g.requestsPerSecond / r.requestsPerSecond : 0
    const met = ratio >= GOAL_RATIO && g.problems === 0
    console.log(`  ratio garrison/raw ${ratio.toFixed(2)} (goal >= ${GOAL_RATIO}: ${met ? "met" : "NOT met"})`)
    for (const m of results) {
      if (m.problems > 0) console.log(`  warning: ${m.label} had ${m.problems} errors/timeouts/non-2xx responses`)
    }
    // If the controller died under load, say so rather than report a ratio.
    if (garrison.hasExited()) throw new Error(`the controller exited during the benchmark; output:\n${garrison.output()}`)
    return {
      headline:
        `garrison ${g.requestsPerSecond.toFixed(0)} req/s (p50 ${g.p50} ms, p99 ${g.p99} ms), ` +
        `raw ${r.requestsPerSecond.toFixed(0)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms), ratio ${ratio.toFixed(2)}`,
      goals: [{ description: `garrison/raw requests/s >= ${GOAL_RATIO}`, met }]
    }
  } finally {
    await Promise.all(children.map((child) => stopProcess(child, 5_000)))
    removeDir(dataDir)
  }
}

export const benchmark: Benchmark = {
  name: "http",
  description: `GET ${PATH}: Garrison vs raw node:http`,
  // Two warm-up + measure rounds, start-up and shutdown, with room to spare.
  budgetMs: (() => {
    const s = settings()
    return 2 * (s.warmupS + s.durationS) * 1000 + 60_000
  })(),
  run
}

// `node test/dist/bench/http.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, killAllChildren)
