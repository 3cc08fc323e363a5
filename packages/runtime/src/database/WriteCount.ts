/**
 * How many writes some data has had, for what is kept in memory in front
 * of it: a kept answer (an export, a signed-in caller) is used only while
 * the count stands where it stood when the answer was read. `counted` moves
 * it on once the write is over, whether it succeeded, failed or was
 * interrupted after its commit; a rolled-back write only costs a re-read.
 *
 * Moving it on after the write (or its whole transaction) is enough with
 * SQLite's one connection: an answer read before the write carries the old
 * count, and one read while a transaction holds the connection waits for
 * the commit and reads what it wrote.
 */
import * as Effect from "effect/Effect"

export interface WriteCount {
  /** Where the count stands now. */
  readonly current: () => number
  /** `write`, then the count moved on. */
  readonly counted: <A, E, R>(write: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export const makeWriteCount = (): WriteCount => {
  let count = 0
  const moveOn = Effect.sync(() => {
    count++
  })
  return { current: () => count, counted: (write) => Effect.ensuring(write, moveOn) }
}
