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

/**
 * Not in the spec: failed sign-ins from one IP, whatever the usernames (a
 * spray over many names never locks a pair), are refused past 15 in 15
 * minutes: the `auth` rate limit's default numbers, counted in the database
 * so a restart does not give them back (the gate's own count is in memory).
 */
export const MAX_ADDRESS_FAILURES = 15
export const ADDRESS_WINDOW_MS = 15 * 60 * 1000

/** How long a counted failure is kept: the longer of the two windows. */
export const FAILURE_MEMORY_MS = Math.max(FAILURE_WINDOW_MS, ADDRESS_WINDOW_MS)
export const LOCK_MEMORY_MS = 24 * 60 * 60 * 1000

/** How long the `lockCount`-th lock (1-based) lasts. */
export const lockDurationMs = (lockCount: number): number =>
  lockCount <= 1 ? 60 * 1000 : lockCount === 2 ? 5 * 60 * 1000 : 60 * 60 * 1000

/** Whole seconds until `until`, at least 1, for `Retry-After`. */
export const secondsUntil = (until: number, now: number): number => Math.max(1, Math.ceil((until - now) / 1000))
