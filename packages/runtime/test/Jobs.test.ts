/**
 * A plugin's jobs (`Plugin.Job`), on `TestClock`: the first run after
 * `initialDelay`, then `every` after each run; an interval read from the
 * settings; a run that fails, dies or outlives `timeout` is logged naming
 * the job, and the loop goes on. On the pass's engine (`testGarrisonConfig`).
 */
import { describe, expect, it } from "@effect/vitest"
import { captureLogs, type LogLine, tempDir, testGarrisonConfig } from "@garrison/testkit/core"
import { Context, Effect, Layer, Ref, TestClock } from "effect"
import * as Plugin from "../src/kernel/Plugin.js"
import * as Runtime from "../src/kernel/Runtime.js"

class Runs extends Context.Tag("test/Runs")<Runs, Ref.Ref<ReadonlyArray<string>>>() {}

const record = (what: string) => Effect.flatMap(Runs, (runs) => Ref.update(runs, (all) => [...all, what]))

/** Run n: fails on 2, dies on 3, hangs on 4 (stopped by the time-out), fine otherwise. */
const flaky = Effect.gen(function* () {
  const runs = yield* Runs
  const n = (yield* Ref.get(runs)).filter((r) => r.startsWith("flaky")).length + 1
  yield* record(`flaky ${n}`)
  if (n === 2) return yield* Effect.fail("the store said no")
  if (n === 3) return yield* Effect.dieMessage("a bug")
  if (n === 4) return yield* Effect.never
})

const plugin = Plugin.make({
  id: "jobs",
  layer: Layer.effect(Runs, Ref.make<ReadonlyArray<string>>([])),
  jobs: [
    { name: "flaky", every: "1 minute", initialDelay: "10 seconds", timeout: "30 seconds", run: flaky },
    { name: "configured", every: Effect.succeed("5 minutes"), run: record("configured") }
  ]
})

describe("plugin jobs", () => {
  it.scoped("run after their initial delay, then every interval; a failure, a defect or a time-out is logged and the loop goes on", () => {
    const lines: Array<LogLine> = []
    return Effect.gen(function* () {
      const runs = yield* Runs
      const seen = () => Ref.get(runs)
      yield* TestClock.adjust("9 seconds")
      expect(yield* seen()).toEqual([])
      yield* TestClock.adjust("1 second")
      expect(yield* seen()).toEqual(["flaky 1"])
      // 2 fails at 1:10, 3 dies at 2:10, 4 hangs from 3:10 and is stopped at 3:40, 5 runs at 4:40.
      yield* TestClock.adjust("1 minute")
      yield* TestClock.adjust("1 minute")
      yield* TestClock.adjust("1 minute")
      yield* TestClock.adjust("30 seconds")
      yield* TestClock.adjust("1 minute")
      const flakyRuns = (yield* seen()).filter((r) => r.startsWith("flaky"))
      expect(flakyRuns).toEqual(["flaky 1", "flaky 2", "flaky 3", "flaky 4", "flaky 5"])
      // The interval read at start-up: first after one interval (no initial delay given).
      expect((yield* seen()).filter((r) => r === "configured")).toEqual([])
      yield* TestClock.adjust("30 seconds")
      expect((yield* seen()).filter((r) => r === "configured")).toEqual(["configured"])
      const warnings = lines.filter((l) => l.message.startsWith("job jobs/flaky failed")).map((l) => l.message)
      expect(warnings.length).toBe(3)
      expect(warnings.join("\n")).toContain("the store said no")
      expect(warnings.join("\n")).toContain("a bug")
      expect(warnings.join("\n")).toContain("took longer than 30s: stopped")
    }).pipe(
      Effect.provide(Runtime.layer([plugin], { scheduledBackups: false }).pipe(Layer.provide(testGarrisonConfig({ dataDir: tempDir("garrison-jobs-") })))),
      Effect.provide(captureLogs(lines))
    )
  })
})
