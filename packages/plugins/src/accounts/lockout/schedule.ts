/**
 * The spec's login lockout, as numbers: 5 failures for one (IP, username)
 * within 10 minutes lock that pair for 60 s, then 5 min, then 1 h for the
 * third and every later lock. A success clears it all.
 *
 * Not in the spec, filled in here: the count of locks is forgotten 24 h
 * after the last lock ended (so a pair attacked once in a while does not
 * stay on 1 h locks forever, and the table does not grow without bound).
 */
export const MAX_FAILURES = 5
export const FAILURE_WINDOW_MS = 10 * 60 * 1000
export const LOCK_MEMORY_MS = 24 * 60 * 60 * 1000

/** How long the `lockCount`-th lock (1-based) lasts. */
export const lockDurationMs = (lockCount: number): number =>
  lockCount <= 1 ? 60 * 1000 : lockCount === 2 ? 5 * 60 * 1000 : 60 * 60 * 1000

/** Whole seconds until `until`, at least 1, for `Retry-After`. */
export const secondsUntil = (until: number, now: number): number => Math.max(1, Math.ceil((until - now) / 1000))
