/**
 * One lock per key (a server id, say), made on first use and forgotten as
 * soon as no one holds it or waits for it: a map of locks that does not
 * grow with every key ever seen (servers deleted long ago, ids from bad
 * requests).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

export interface KeyedLocks {
  /** Runs `effect` holding `key`'s lock, waiting for it. */
  readonly withLock: <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Runs `effect` holding `key`'s lock if it is free now; none when someone holds it. */
  readonly withLockIfFree: <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<Option.Option<A>, E, R>
  /** How many keys have a lock now (held or awaited): for tests and metrics. */
  readonly size: Effect.Effect<number>
}

export const makeKeyedLocks = (): Effect.Effect<KeyedLocks> =>
  Effect.sync(() => {
    const locks = new Map<string, { readonly semaphore: Effect.Semaphore; users: number }>()
    // A user counts from before it asks for the lock until it is done with it (or gave up waiting).
    const using = <A, E, R>(key: string, use: (semaphore: Effect.Semaphore) => Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(
        Effect.sync(() => {
          let entry = locks.get(key)
          if (entry === undefined) {
            entry = { semaphore: Effect.unsafeMakeSemaphore(1), users: 0 }
            locks.set(key, entry)
          }
          entry.users++
          return entry
        }),
        (entry) => use(entry.semaphore),
        (entry) =>
          Effect.sync(() => {
            entry.users--
            if (entry.users === 0 && locks.get(key) === entry) locks.delete(key)
          })
      )
    return {
      withLock: (key, effect) => using(key, (semaphore) => semaphore.withPermits(1)(effect)),
      withLockIfFree: (key, effect) => using(key, (semaphore) => semaphore.withPermitsIfAvailable(1)(effect)),
      size: Effect.sync(() => locks.size)
    }
  })
