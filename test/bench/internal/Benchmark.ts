/**
 * What a benchmark module exports, so `run.ts` can find and run every
 * benchmark in the folder: `export const benchmark: Benchmark = { ... }`.
 */
import { pathToFileURL } from "node:url"

/** A target the design sets, e.g. "garrison/raw >= 0.6"; reported, never fatal. */
export interface Goal {
  readonly description: string
  readonly met: boolean
}

export interface BenchmarkReport {
  /** One-line figures for the summary, e.g. "garrison 12000 req/s, raw 18000 req/s, ratio 0.67". */
  readonly headline: string
  readonly goals: ReadonlyArray<Goal>
}

export interface Benchmark {
  readonly name: string
  readonly description: string
  /** Upper bound on the run; `run.ts` kills the children and gives up after it. */
  readonly budgetMs: number
  /** Prints its own detail as it goes; returns the summary. Rejects only when it could not measure. */
  readonly run: () => Promise<BenchmarkReport>
}

export const isBenchmark = (value: unknown): value is Benchmark =>
  typeof value === "object" &&
  value !== null &&
  "name" in value &&
  typeof value.name === "string" &&
  "run" in value &&
  typeof value.run === "function" &&
  "budgetMs" in value &&
  typeof value.budgetMs === "number"

/** A positive integer from the environment, or the default. */
export const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === "") return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`)
  return value
}

/**
 * `node test/dist/bench/<name>.js` runs just that benchmark: call this at the
 * end of the module with its `import.meta.url`. Past the budget it runs
 * `giveUp` (kill the children it started) and exits 1.
 */
export const runAloneIfMain = (benchmark: Benchmark, moduleUrl: string, giveUp: () => void = () => {}): void => {
  if (process.argv[1] === undefined || pathToFileURL(process.argv[1]).href !== moduleUrl) return
  const timer = setTimeout(() => {
    console.error(`${benchmark.name} benchmark exceeded ${benchmark.budgetMs} ms; giving up`)
    giveUp()
    process.exit(1)
  }, benchmark.budgetMs)
  benchmark.run().then(
    (report) => {
      clearTimeout(timer)
      console.log(report.headline)
      for (const goal of report.goals) console.log(`goal ${goal.description}: ${goal.met ? "met" : "NOT met"}`)
    },
    (error: unknown) => {
      clearTimeout(timer)
      console.error(error)
      process.exitCode = 1
    }
  )
}
