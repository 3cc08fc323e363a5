/**
 * Waiting in real time, whatever clock the test runs on: for work done on
 * fibers the test does not join (event handlers, background workers,
 * another process), which the TestClock does not wait for.
 */
import * as Effect from "effect/Effect"

/** Sleeps `ms` wall-clock milliseconds; the TestClock stands still meanwhile. */
export const realSleep = (ms: number): Effect.Effect<void> =>
  Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/**
 * Runs `effect` until `check` holds for its value, every 10 ms of real
 * time, and answers that value; dies naming what it waited for (`what`,
 * when given) and the last value when `timeoutMs` (10 s: a deadline is
 * how long a failing test takes to say so, generous for a busy machine,
 * never a claim about speed) have passed first.
 */
export const eventually = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  check: (value: A) => boolean,
  timeoutMs = 10_000,
  what?: string
): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    let value = yield* effect
    while (!check(value)) {
      if (Date.now() > deadline) {
        const condition = what === undefined ? "condition" : `waiting for ${what}: condition`
        return yield* Effect.dieMessage(`${condition} not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`)
      }
      yield* realSleep(10)
      value = yield* effect
    }
    return value
  })
