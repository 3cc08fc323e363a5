/**
 * autocannon's programmatic API, typed locally: the package ships no type
 * declarations and `@types/autocannon` is not installed. Only the options
 * and result fields used by the benchmarks are declared.
 */
import { createRequire } from "node:module"

/** A request autocannon cycles through; without `setupRequest` each is built once, before the run. */
export interface LoadRequest {
  readonly method?: string
  readonly path?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** Called before each send of this request (a fresh body per request, say); returns what is sent. */
  readonly setupRequest?: (request: LoadRequest) => LoadRequest
}

export interface LoadOptions {
  readonly url: string
  readonly connections: number
  /** Seconds. */
  readonly duration: number
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** Each connection cycles through these in order. */
  readonly requests?: ReadonlyArray<LoadRequest>
  readonly pipelining?: number
  /** Seconds before a request counts as timed out. */
  readonly timeout?: number
}

/** autocannon's histogram summary (latency in ms, requests in req/s per sample). */
export interface Histogram {
  readonly average: number
  readonly mean: number
  readonly stddev: number
  readonly min: number
  readonly max: number
  readonly total: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
}

export interface LoadResult {
  readonly latency: Histogram
  readonly requests: Histogram & { readonly sent: number }
  readonly throughput: Histogram
  readonly errors: number
  readonly timeouts: number
  readonly non2xx: number
  readonly duration: number
}

type Autocannon = (options: LoadOptions) => PromiseLike<LoadResult>

const require = createRequire(import.meta.url)
const autocannon = require("autocannon") as Autocannon

/** Runs one load test to completion (autocannon prints nothing unless tracked). */
export const load = (options: LoadOptions): Promise<LoadResult> => Promise.resolve(autocannon(options))

/** One load test's figures, as the benchmarks print and compare them. */
export interface Measured {
  readonly label: string
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly total: number
  /** Errors, timeouts and non-2xx answers. */
  readonly problems: number
}

/**
 * A warm-up (JIT, connections; its figures are discarded), then the measured
 * run. `requests` is called per run: autocannon writes into the objects it gets.
 */
export const measureLoad = async (
  label: string,
  options: {
    readonly url: string
    readonly connections: number
    readonly warmupS: number
    readonly durationS: number
    readonly requests: () => ReadonlyArray<LoadRequest>
    /** Runs beside the measured run (not the warm-up), e.g. a probe of another route's latency. */
    readonly alongside?: () => Promise<unknown>
  }
): Promise<Measured> => {
  const { url, connections } = options
  await load({ url, connections, duration: options.warmupS, requests: options.requests() })
  const [result] = await Promise.all([load({ url, connections, duration: options.durationS, requests: options.requests() }), options.alongside?.()])
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    problems: result.errors + result.timeouts + result.non2xx
  }
}

/** One printed line of figures; `labelWidth` and `rateWidth` line up a benchmark's rows. */
export const measuredRow = (m: Measured, labelWidth: number, rateWidth: number): string =>
  `  ${m.label.padEnd(labelWidth)} ${m.requestsPerSecond.toFixed(0).padStart(rateWidth)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(
    m.p99
  ).padStart(4)} ms   ${m.total} requests${m.problems > 0 ? `   ${m.problems} errors/timeouts/non-2xx` : ""}`
