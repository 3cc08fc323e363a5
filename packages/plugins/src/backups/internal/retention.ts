/**
 * Which backups a retention policy keeps and which it prunes: pure
 * functions over a listing (no I/O, no clock).
 *
 * A backup is kept when ANY rule keeps it (a union, like restic's and
 * borg's `forget`):
 *
 * - `newest-of-type`: it is among the newest `keepPerType[type]` backups of
 *   its own type;
 * - a tier (`hourly`, `daily`, `weekly`, `monthly`) selects it;
 * - `newest`: it is the newest backup of all, so pruning never deletes the
 *   only backup, nor the one just made.
 *
 * Tiers look at all types together (a manual backup can be the day's
 * keeper). Buckets are UTC: hourly is the UTC hour (yyyy-mm-dd hh), daily
 * the UTC date, weekly the ISO 8601 week (ISO week-year and week number,
 * weeks start on Monday, so 2020-12-31 and 2021-01-03 are both in
 * 2020-W53 and 2021-01-04 starts 2021-W01), monthly the UTC yyyy-mm. For a
 * tier of N > 0, the backups are walked newest first; the newest backup of
 * each distinct bucket is that bucket's keeper, and the keepers of the
 * first N distinct buckets met are kept. Buckets without any backup do not
 * count (as in restic): "the last 7 days" means the last 7 days that have a
 * backup. N = 0 turns the tier off.
 *
 * A kept backup's `tier` is the coarsest tier among its reasons (monthly >
 * weekly > daily > hourly), or undefined when no tier keeps it. Its
 * `reasons` are listed in a fixed order: `newest-of-type`, then the tiers
 * from finest to coarsest, then `newest`.
 *
 * Order: newest first is `createdAt` descending, ties broken by filename
 * descending, so the verdict does not depend on the order of the input. A
 * filename given twice is one backup (the first one given counts). `keep`
 * is newest first, `prune` oldest first, and every input filename is in
 * exactly one of them.
 *
 * Policy numbers are not validated here (the HTTP layer does): a negative
 * number or NaN counts as 0, a fraction is rounded down (Math.floor), and
 * Infinity keeps all. A `createdAt` that is not a date (NaN, out of range)
 * sorts as the oldest possible and is in no tier's bucket.
 */

export const BACKUP_TYPES = ["manual", "scheduled", "pre-restore", "pre-wipe", "pre-update"] as const
export type BackupType = (typeof BACKUP_TYPES)[number]

/** Finest first; the index is the coarseness. */
export const TIERS = ["hourly", "daily", "weekly", "monthly"] as const
export type Tier = (typeof TIERS)[number]

export interface RetainedBackup {
  readonly filename: string
  readonly type: BackupType
  /** Milliseconds since the epoch (UTC). */
  readonly createdAt: number
}

export interface RetentionPolicy {
  /** Keep the newest N backups of each type (N >= 1 for every type). */
  readonly keepPerType: Readonly<Record<BackupType, number>>
  /** Tiered retention: keep the newest backup of each of the last N hours / days / weeks / months that have one (0 = tier off). */
  readonly tiers: Readonly<Record<Tier, number>>
}

export type RetentionReason = "newest-of-type" | Tier | "newest"

export interface KeptBackup {
  readonly filename: string
  readonly tier: Tier | undefined
  readonly reasons: ReadonlyArray<RetentionReason>
}

export interface RetentionVerdict {
  /** Newest first. */
  readonly keep: ReadonlyArray<KeptBackup>
  /** Filenames, oldest first. */
  readonly prune: ReadonlyArray<string>
}

const DAY_MS = 86_400_000

const pad = (value: number, width: number) => String(value).padStart(width, "0")

/** A policy number as a count: negatives and NaN are 0, fractions are rounded down. */
const countOf = (value: number | undefined): number =>
  typeof value !== "number" || Number.isNaN(value) || value <= 0 ? 0 : Math.floor(value)

/** Whole days since 1970-01-01 (UTC) of an instant, rounding towards the past. */
const dayIndexOf = (createdAt: number) => Math.floor(createdAt / DAY_MS)

/** The ISO 8601 week of an instant (UTC): the ISO week-year and week number (1..53). */
export const isoWeekOf = (createdAt: number): { readonly year: number; readonly week: number } => {
  const day = dayIndexOf(createdAt)
  // 1970-01-01 was a Thursday: Monday = 0 ... Sunday = 6.
  const weekday = (((day + 3) % 7) + 7) % 7
  // A week belongs to the year of its Thursday, and is numbered by that Thursday's ordinal in its year.
  const thursday = day - weekday + 3
  const year = new Date(thursday * DAY_MS).getUTCFullYear()
  const week = Math.floor((thursday - dayIndexOf(Date.UTC(year, 0, 1))) / 7) + 1
  return { year, week }
}

/**
 * The bucket of an instant in a tier, as a label: `2026-03-18T10` (hourly),
 * `2026-03-18` (daily), `2026-W12` (weekly), `2026-03` (monthly); undefined
 * when `createdAt` is not a date.
 */
export const bucketOf = (tier: Tier, createdAt: number): string | undefined => {
  const date = new Date(createdAt)
  if (Number.isNaN(date.getTime())) return undefined
  const year = date.getUTCFullYear()
  const month = `${year}-${pad(date.getUTCMonth() + 1, 2)}`
  switch (tier) {
    case "hourly":
      return `${month}-${pad(date.getUTCDate(), 2)}T${pad(date.getUTCHours(), 2)}`
    case "daily":
      return `${month}-${pad(date.getUTCDate(), 2)}`
    case "weekly": {
      const { week, year: weekYear } = isoWeekOf(createdAt)
      return `${weekYear}-W${pad(week, 2)}`
    }
    case "monthly":
      return month
  }
}

/** `createdAt` for ordering: NaN is the oldest possible. */
const orderKey = (createdAt: number) => (Number.isNaN(createdAt) ? -Infinity : createdAt)

/** Newest first: `createdAt` descending, then filename descending. */
const newestFirst = (a: RetainedBackup, b: RetainedBackup): number => {
  const byTime = orderKey(b.createdAt) - orderKey(a.createdAt)
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime
  return a.filename < b.filename ? 1 : a.filename > b.filename ? -1 : 0
}

/** The input without repeated filenames (the first one given counts), newest first. */
const ordered = (backups: ReadonlyArray<RetainedBackup>): ReadonlyArray<RetainedBackup> => {
  const seen = new Set<string>()
  const unique: Array<RetainedBackup> = []
  for (const backup of backups) {
    if (seen.has(backup.filename)) continue
    seen.add(backup.filename)
    unique.push(backup)
  }
  return unique.sort(newestFirst)
}

/** The coarsest tier among `reasons`, or undefined. */
const coarsest = (reasons: ReadonlyArray<RetentionReason>): Tier | undefined => {
  let found: Tier | undefined
  for (const tier of TIERS) if (reasons.includes(tier)) found = tier
  return found
}

export const judgeRetention = (backups: ReadonlyArray<RetainedBackup>, policy: RetentionPolicy): RetentionVerdict => {
  const sorted = ordered(backups)
  const reasons = new Map<string, Array<RetentionReason>>()
  const give = (filename: string, reason: RetentionReason) => {
    const given = reasons.get(filename)
    if (given === undefined) reasons.set(filename, [reason])
    else given.push(reason)
  }

  // The newest N of each type.
  const seenOfType = new Map<BackupType, number>()
  for (const backup of sorted) {
    const rank = (seenOfType.get(backup.type) ?? 0) + 1
    seenOfType.set(backup.type, rank)
    if (rank <= countOf(policy.keepPerType[backup.type])) give(backup.filename, "newest-of-type")
  }

  // Each tier, finest first (so a backup's reasons list the tiers in that order): the keepers of the newest N buckets.
  for (const tier of TIERS) {
    const limit = countOf(policy.tiers[tier])
    if (limit === 0) continue
    const buckets = new Set<string>()
    for (const backup of sorted) {
      const bucket = bucketOf(tier, backup.createdAt)
      if (bucket === undefined || buckets.has(bucket)) continue
      buckets.add(bucket)
      if (buckets.size > limit) break
      give(backup.filename, tier)
    }
  }

  // The newest of all.
  const newest = sorted[0]
  if (newest !== undefined) give(newest.filename, "newest")

  const keep: Array<KeptBackup> = []
  const prune: Array<string> = []
  for (const backup of sorted) {
    const given = reasons.get(backup.filename)
    if (given === undefined) prune.push(backup.filename)
    else keep.push({ filename: backup.filename, tier: coarsest(given), reasons: given })
  }
  return { keep, prune: prune.reverse() }
}

/**
 * For a listing: which tier (the coarsest: monthly > weekly > daily >
 * hourly) keeps each backup, or undefined (kept by another rule, or
 * pruned). Every input filename is a key, newest first.
 */
export const tiersOf = (backups: ReadonlyArray<RetainedBackup>, policy: RetentionPolicy): ReadonlyMap<string, Tier | undefined> => {
  const verdict = judgeRetention(backups, policy)
  const tiers = new Map<string, Tier | undefined>(verdict.keep.map((kept) => [kept.filename, kept.tier]))
  return new Map(ordered(backups).map((backup) => [backup.filename, tiers.get(backup.filename)]))
}
