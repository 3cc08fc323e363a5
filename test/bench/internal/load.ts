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
