/**
 * The trust score, from what the pool and the player's history say (see
 * README.md, "The score"):
 *
 *   score = clamp(50 + playtime + diversity + cleared − penalty, 0, 100)
 *
 * - penalty: 45 for each active ban, scaled by the accuracy of the
 *   communities vouching for it (0.5 + accuracy / 2: a ban vouched by
 *   communities that are often overturned weighs less), and 10 for each
 *   ban that expired (a past offence);
 * - playtime: up to 25, `7 × log2(1 + hours / 10)`;
 * - diversity: up to 10, 2.5 for each server seen beyond the first;
 * - cleared: 5 when a ban was overturned and none is active (the
 *   community's mistake, not the player's).
 *
 * Confidence is how much there is to go on: 0.1, plus 0.25 for each
 * community vouching (up to 3), plus 0.2 once playtime is known (scaled up
 * to 50 hours), plus 0.05 per server seen (up to 3); at most 1.
 *
 * Pending submissions move neither: they are counted (`submissions_pending`)
 * and nothing more is said about them.
 */
export interface TrustFacts {
  readonly activeBans: ReadonlyArray<{ readonly reasonCategory: string; readonly communities: number; readonly accuracy: number }>
  readonly pending: number
  readonly overturned: number
  readonly expired: number
  readonly playtimeHours: number | null
  readonly serversSeen: number | null
}

export const BANDS: ReadonlyArray<{ readonly name: string; readonly min: number; readonly max: number; readonly meaning: string }> = [
  { name: "banned", min: 0, max: 19, meaning: "an active community ban, vouched by accurate communities" },
  { name: "risky", min: 20, max: 39, meaning: "an active ban of weaker standing, or several past offences" },
  { name: "neutral", min: 40, max: 64, meaning: "nothing known against the player, little known for them" },
  { name: "trusted", min: 65, max: 84, meaning: "a clean record and real playtime" },
  { name: "veteran", min: 85, max: 100, meaning: "a clean record, long playtime across several servers" }
]

export const bandOf = (score: number): string => BANDS.find((band) => score >= band.min && score <= band.max)?.name ?? "neutral"

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places

export interface Scored {
  readonly score: number
  readonly confidence: number
  readonly band: string
  readonly accuracy: number | null
  readonly communities: number
  readonly reasons: ReadonlyArray<string>
}

export const scoreOf = (facts: TrustFacts): Scored => {
  const communities = facts.activeBans.reduce((sum, ban) => sum + ban.communities, 0)
  const accuracy = facts.activeBans.length === 0 ? null : round(facts.activeBans.reduce((sum, ban) => sum + ban.accuracy, 0) / facts.activeBans.length, 3)
  const penalty = facts.activeBans.reduce((sum, ban) => sum + 45 * (0.5 + ban.accuracy / 2), 0) + 10 * facts.expired
  const playtime = facts.playtimeHours === null ? 0 : Math.min(25, 7 * Math.log2(1 + facts.playtimeHours / 10))
  const diversity = facts.serversSeen === null ? 0 : Math.min(10, 2.5 * Math.max(0, facts.serversSeen - 1))
  const cleared = facts.overturned > 0 && facts.activeBans.length === 0 ? 5 : 0
  const score = Math.round(Math.min(100, Math.max(0, 50 + playtime + diversity + cleared - penalty)))
  const confidence = round(
    Math.min(
      1,
      0.1 +
        0.25 * Math.min(3, communities) +
        (facts.playtimeHours === null ? 0 : 0.2 * Math.min(1, facts.playtimeHours / 50)) +
        0.05 * Math.min(3, facts.serversSeen ?? 0)
    ),
    2
  )
  const reasons: Array<string> = []
  for (const ban of facts.activeBans) {
    reasons.push(`an active community ban for ${ban.reasonCategory}, vouched for by ${ban.communities} ${ban.communities === 1 ? "community" : "communities"}`)
  }
  if (facts.expired > 0) reasons.push(`${facts.expired} earlier ${facts.expired === 1 ? "ban has" : "bans have"} expired`)
  if (facts.overturned > 0) reasons.push(`${facts.overturned} ${facts.overturned === 1 ? "ban was" : "bans were"} overturned on appeal`)
  if (facts.activeBans.length === 0 && facts.expired === 0 && facts.overturned === 0) reasons.push("no community-ban history")
  if (facts.pending > 0) reasons.push(`${facts.pending} ${facts.pending === 1 ? "submission is" : "submissions are"} under review (not counted)`)
  reasons.push(
    facts.playtimeHours === null
      ? "playtime unknown"
      : `${round(facts.playtimeHours, 1)} hours played${facts.serversSeen === null ? "" : ` on ${facts.serversSeen} ${facts.serversSeen === 1 ? "server" : "servers"}`}`
  )
  return { score, confidence, band: bandOf(score), accuracy, communities, reasons }
}
