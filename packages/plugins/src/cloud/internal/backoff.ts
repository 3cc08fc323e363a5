/**
 * Reconnection delays: exponential from `base` (doubled per failed attempt
 * since the last connection), capped at `max`, with "equal jitter": a
 * delay is drawn between half of that and all of it, so controllers that
 * lost one relay at once do not come back at once.
 */
import * as Duration from "effect/Duration"

/** The delay before attempt `attempt + 1`, after `attempt` failed ones (1 or more); `random` in [0, 1). */
export const reconnectDelay = (attempt: number, base: Duration.Duration, max: Duration.Duration, random: number): number => {
  const ceiling = delayCeiling(attempt, base, max)
  return Math.max(1, Math.round(ceiling / 2 + (ceiling / 2) * random))
}

/** The most that delay can be (before the jitter): `base * 2^(attempt-1)`, at most `max`. */
export const delayCeiling = (attempt: number, base: Duration.Duration, max: Duration.Duration): number =>
  Math.min(Duration.toMillis(max), Duration.toMillis(base) * 2 ** Math.max(0, Math.min(attempt - 1, 30)))
