/**
 * The pool's rules, as numbers and pure functions (the service applies them
 * inside its transactions):
 *
 * - a community's weight starts at 1.0 and stays within 0-2;
 * - a ban becomes `active` when the summed weight of the distinct
 *   communities vouching for it reaches the threshold (default 3.0: three
 *   communities at the starting weight);
 * - an overturn multiplies the weight of every community that vouched for
 *   the ban by 0.7; a community whose last 20 submissions were overturned
 *   more than 30 % of the time drops to 0 and is held there until an admin
 *   reviews it;
 * - a community submits at most 50 bans in 24 hours and 1,000 in 30 days.
 */
export const STARTING_WEIGHT = 1.0
export const MAX_WEIGHT = 2.0
export const DEFAULT_THRESHOLD = 3.0
export const OVERTURN_FACTOR = 0.7
export const OVERTURN_WINDOW = 20
export const OVERTURN_RATE_LIMIT = 0.3
export const DAY_MS = 86_400_000
export const SUBMISSION_CAPS: ReadonlyArray<{ readonly windowMs: number; readonly max: number; readonly label: string }> = [
  { windowMs: DAY_MS, max: 50, label: "24 hours" },
  { windowMs: 30 * DAY_MS, max: 1_000, label: "30 days" }
]

/** The categories a submission names (what partners filter their subscriptions by). */
export const REASON_CATEGORIES = ["cheating", "exploiting", "griefing", "toxicity", "ban-evasion", "impersonation", "other"] as const
export type ReasonCategory = (typeof REASON_CATEGORIES)[number]

export const POOL_STATUSES = ["pending", "active", "overturned", "expired"] as const
export type PoolStatus = (typeof POOL_STATUSES)[number]
/** What partners see: pending bans are this community's business until they are active. */
export const EXPORTED_STATUSES = ["active", "overturned", "expired"] as const

/** A weight kept within 0-2 and to four decimals (sums compare the same on both engines). */
export const clampWeight = (weight: number): number => Math.round(Math.min(MAX_WEIGHT, Math.max(0, weight)) * 10_000) / 10_000

/** Whether vouches of these weights make a ban active. A tiny tolerance keeps 0.7 + 0.7 + ... from missing by a rounding. */
export const reachesThreshold = (weights: ReadonlyArray<number>, threshold: number): boolean =>
  weights.reduce((sum, weight) => sum + weight, 0) >= threshold - 1e-9

/** The share of overturned bans among a community's latest submissions (null before it has any). */
export const overturnRate = (statuses: ReadonlyArray<string>): number | null =>
  statuses.length === 0 ? null : statuses.filter((status) => status === "overturned").length / statuses.length

/** Whether the rate holds the community at weight 0 until it is reviewed. */
export const overturnsTooOften = (statuses: ReadonlyArray<string>): boolean => (overturnRate(statuses) ?? 0) > OVERTURN_RATE_LIMIT
