/**
 * A backup's file name says what it is: `<type>-<UTC time>.zip`, e.g.
 * `manual-20261125-033000-123.zip` (a collision in the same millisecond
 * gets `-2`, `-3`...). The name is the whole index: listing the folder is
 * listing the backups, with no second record to fall out of step after a
 * crash. A name that does not match is not a backup (and is never served).
 */
import type { BackupType } from "./retention.js"

const NAME = /^(manual|scheduled|pre-restore|pre-wipe|pre-update)-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{3})(?:-([1-9]\d{0,3}))?\.zip$/

export interface ArchiveName {
  readonly filename: string
  readonly type: BackupType
  /** UTC milliseconds, from the name. */
  readonly createdAt: number
}

const two = (n: number) => String(n).padStart(2, "0")

/** The name of a backup of `type` made at `ms`; `attempt` > 1 for a collision. */
export const archiveName = (type: BackupType, ms: number, attempt = 1): string => {
  const d = new Date(ms)
  const stamp = `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}-${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}-${String(d.getUTCMilliseconds()).padStart(3, "0")}`
  return `${type}-${stamp}${attempt > 1 ? `-${attempt}` : ""}.zip`
}

/** What a file name says, or undefined when it is not a backup's name. */
export const parseArchiveName = (filename: string): ArchiveName | undefined => {
  const m = NAME.exec(filename)
  if (m === null) return undefined
  const [, type, y, mo, d, h, mi, s, ms, attempt] = m
  const createdAt = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms))
  // A name like 20261399 parses to another date: it was not made here.
  if (Number.isNaN(createdAt) || archiveName(type as BackupType, createdAt, attempt === undefined ? 1 : Number(attempt)) !== filename) return undefined
  return { filename, type: type as BackupType, createdAt }
}
