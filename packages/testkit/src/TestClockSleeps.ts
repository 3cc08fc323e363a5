/**
 * What sleeps on the TestClock. A test that moves the clock to wake a
 * fiber must first know the fiber is asleep, or the `adjust` passes before
 * it sleeps and it never wakes: `sleepingUntil` waits for exactly that.
 */
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { eventually, realSleep } from "./Eventually.js"

/** When the fibers asleep on the TestClock wake (ms since the epoch); a sleep leaves the list when it fires. */
export const sleepsOnTestClock: Effect.Effect<ReadonlyArray<number>> = Effect.map(TestClock.sleeps(), Chunk.toReadonlyArray)

/**
 * Waits (polling in real time, at most `timeoutMs`) until some fiber sleeps
 * on the TestClock until `at`, such as a worker waiting for an expiry: an
 * `adjust` to `at` is then sure to wake it. A sleep cut short stays in the
 * list, so `at` should be a time only that fiber waits for.
 */
export const sleepingUntil = (at: number, timeoutMs = 5000): Effect.Effect<ReadonlyArray<number>> =>
  eventually(sleepsOnTestClock, (sleeps) => sleeps.includes(at), timeoutMs)

/**
 * Moves the TestClock forward `by`, one `step` at a time, first waiting (polling in real time, at most
 * `timeoutMs` a step) until at least `sleepers` fibers sleep until the next step's instant: background jobs that
 * run every `step` (the kernel's `jobs`), each having finished its last run. So every run happens at its own
 * time however long its work takes in real time (a PostgreSQL round trip), where one big `adjust` would move
 * the clock past the runs still working, and they would sleep again from the end of it. The jobs' sleeps must
 * fall on the steps (a job sleeps `every` from the kernel's start, then `every` after each run); a rest shorter
 * than `step` is adjusted at the end, waking nothing.
 */
export const adjustInSteps = (
  by: Duration.DurationInput,
  step: Duration.DurationInput,
  options: { readonly sleepers?: number; readonly timeoutMs?: number } = {}
): Effect.Effect<void> =>
  Effect.gen(function* () {
    const stepMs = Duration.toMillis(step)
    const sleepers = options.sleepers ?? 1
    const timeoutMs = options.timeoutMs ?? 5000
    let now = yield* Clock.currentTimeMillis
    const end = now + Duration.toMillis(by)
    while (end - now >= stepMs) {
      const next = now + stepMs
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const sleeps = yield* sleepsOnTestClock
        if (sleeps.filter((at) => at === next).length >= sleepers) break
        if (Date.now() > deadline) {
          return yield* Effect.dieMessage(`waiting for ${sleepers} sleeper(s) until ${next} on the TestClock: not met in ${timeoutMs} ms; sleeps ${JSON.stringify(sleeps)}`)
        }
        yield* realSleep(1)
      }
      yield* TestClock.adjust(stepMs)
      now = next
    }
    if (end > now) yield* TestClock.adjust(end - now)
  })
