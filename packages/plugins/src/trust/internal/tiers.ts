/**
 * Partner tiers: how many rows an export page may hold and how many
 * export requests a key may make a minute. An admin gives each partner key
 * a tier.
 */
export interface Tier {
  readonly name: string
  readonly maxLimit: number
  readonly requestsPerMinute: number
}

export const TIERS: ReadonlyArray<Tier> = [
  { name: "community", maxLimit: 500, requestsPerMinute: 60 },
  { name: "partner", maxLimit: 2_000, requestsPerMinute: 300 },
  { name: "network", maxLimit: 5_000, requestsPerMinute: 1_200 }
]

export const TIER_NAMES = TIERS.map((tier) => tier.name) as unknown as readonly ["community", "partner", "network"]

export const tierOf = (name: string): Tier => TIERS.find((tier) => tier.name === name) ?? TIERS[0]!

/** A page's size when the request names none. */
export const DEFAULT_EXPORT_LIMIT = 500
