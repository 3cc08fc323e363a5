/**
 * What sleeps on the TestClock. A test that moves the clock to wake a
 * fiber must first know the fiber is asleep, or the `adjust` passes before
 * it sleeps and it never wakes: `sleepingUntil` waits for exactly that.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { eventually } from "./Eventually.js"

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
