/**
 * Which backups pruning keeps. Backups are taken on the interval, at every
 * clean shutdown and after large imports, so a burst (a restart loop, a
 * batch of imports) could fill "the newest N" with copies minutes apart and
 * push out every older one. The policy therefore keeps, besides the newest
 * `keep`, one backup per interval for the last `keep` intervals and one per
 * UTC day for the last `days` days: history always reaches back at least
 * `keep` intervals, whatever happened in between.
 */

export interface RetentionPolicy {
  /** The newest this many are kept, and one per interval for this many intervals. */
  readonly keep: number
  /** Length of one interval slot, in milliseconds (the backup interval). */
  readonly intervalMs: number
  /** One per UTC day is kept for this many days, today included. */
  readonly days: number
}

export interface DatedBackup {
  readonly path: string
  /** When it was taken (ms since the epoch, from its name). */
  readonly takenAt: number
}

/** Days of daily backups kept besides the newest ones (see `RetentionPolicy`). */
export const DAILY_BACKUP_DAYS = 7

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The newest backup in each of the `count` slots of `slotMs` ending with the
 * one that holds `now` (slots are aligned to the epoch, so they do not shift
 * from one pruning to the next).
 */
const newestPerSlot = (
  newestFirst: ReadonlyArray<DatedBackup>,
  now: number,
  slotMs: number,
  count: number
): ReadonlyArray<string> => {
  if (!(slotMs > 0) || count <= 0) return []
  const current = Math.floor(now / slotMs)
  const kept = new Map<number, string>()
  for (const backup of newestFirst) {
    const slot = Math.floor(backup.takenAt / slotMs)
    if (slot > current - count && slot <= current && !kept.has(slot)) kept.set(slot, backup.path)
  }
  return [...kept.values()]
}

/** The paths to keep among `newestFirst` (sorted newest first, as `listBackups` returns them). */
export const backupsToKeep = (
  newestFirst: ReadonlyArray<DatedBackup>,
  now: number,
  policy: RetentionPolicy
): ReadonlySet<string> =>
  new Set([
    ...newestFirst.slice(0, Math.max(0, policy.keep)).map((backup) => backup.path),
    ...newestPerSlot(newestFirst, now, policy.intervalMs, policy.keep),
    ...newestPerSlot(newestFirst, now, DAY_MS, policy.days)
  ])
