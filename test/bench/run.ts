/**
 * `npm run bench`: runs every benchmark module in this folder (each exports
 * `benchmark`), one at a time, then prints a summary. Goals that are not met
 * are reported, not fatal; a benchmark that cannot measure, or overruns its
 * budget, makes the exit code 1. Optional arguments name the benchmarks to
 * run, e.g. `node test/dist/bench/run.js http`.
 */
import { readdirSync } from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { killAllChildren } from "../support/controller.js"
import { type Benchmark, type BenchmarkReport, isBenchmark } from "./internal/Benchmark.js"

const here = NodePath.dirname(fileURLToPath(import.meta.url))
const self = NodePath.basename(fileURLToPath(import.meta.url))

/** Top-level `*.js` files only: helpers live in `internal/`, child scripts in `fixtures/`. */
const discover = async (): Promise<ReadonlyArray<Benchmark>> => {
  const files = readdirSync(here, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".js") && entry.name !== self)
    .map((entry) => entry.name)
    .sort()
  const found: Array<Benchmark> = []
  for (const file of files) {
    const module = (await import(pathToFileURL(NodePath.join(here, file)).href)) as Record<string, unknown>
    if (isBenchmark(module["benchmark"])) found.push(module["benchmark"])
  }
  return found
}

type Outcome = { readonly ok: true; readonly report: BenchmarkReport } | { readonly ok: false; readonly error: string }

/** Runs one benchmark within its budget; on overrun its children are killed so the next one starts clean. */
const runBounded = async (benchmark: Benchmark): Promise<Outcome> => {
  let timer: NodeJS.Timeout | undefined
  const overrun = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      killAllChildren()
      resolve({ ok: false, error: `exceeded its budget of ${benchmark.budgetMs} ms` })
    }, benchmark.budgetMs)
  })
  const ran = benchmark.run().then(
    (report): Outcome => ({ ok: true, report }),
    (error: unknown): Outcome => ({ ok: false, error: error instanceof Error ? error.stack ?? error.message : String(error) })
  )
  try {
    return await Promise.race([ran, overrun])
  } finally {
    clearTimeout(timer)
  }
}

const main = async () => {
  const wanted = process.argv.slice(2)
  const all = await discover()
  const unknown = wanted.filter((name) => !all.some((b) => b.name === name))
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(", ")}; available: ${all.map((b) => b.name).join(", ")}`)
    process.exitCode = 1
    return
  }
  const selected = wanted.length === 0 ? all : all.filter((b) => wanted.includes(b.name))

  const outcomes: Array<{ readonly benchmark: Benchmark; readonly outcome: Outcome }> = []
  for (const benchmark of selected) {
    console.log(`\n== ${benchmark.name}: ${benchmark.description}`)
    const outcome = await runBounded(benchmark)
    if (!outcome.ok) console.error(`  ${benchmark.name} failed: ${outcome.error}`)
    outcomes.push({ benchmark, outcome })
  }

  console.log("\n== Summary")
  for (const { benchmark, outcome } of outcomes) {
    if (!outcome.ok) {
      console.log(`  ${benchmark.name}: FAILED (${outcome.error.split("\n")[0]})`)
      continue
    }
    console.log(`  ${benchmark.name}: ${outcome.report.headline}`)
    for (const goal of outcome.report.goals) console.log(`    goal ${goal.description}: ${goal.met ? "met" : "NOT met"}`)
  }
  if (outcomes.some(({ outcome }) => !outcome.ok)) process.exitCode = 1
}

const stop = (signal: NodeJS.Signals) => {
  killAllChildren()
  process.exit(signal === "SIGINT" ? 130 : 143)
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)

main().then(
  // A benchmark that overran may have left timers or sockets behind; do not wait for them.
  () => process.exit(),
  (error: unknown) => {
    console.error(error)
    killAllChildren()
    process.exit(1)
  }
)
