/** `priority_entries` rows, their API view, and the list's page cursors. */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { PriorityEntry } from "../contract/Api.js"

export const SELECT_COLUMNS = `id, seq, platform_id AS "platformId", name, role, expires_at AS "expiresAt",
  added_by AS "addedBy", added_at AS "addedAt"`

export const EntryRow = Schema.Struct({
  id: Schema.String,
  /** Insertion order; never shown. */
  seq: Schema.Number,
  platformId: Schema.String,
  name: Schema.String,
  role: Schema.String,
  expiresAt: Schema.NullOr(Schema.String),
  addedBy: Schema.String,
  addedAt: Schema.String
})
export type EntryRow = typeof EntryRow.Type

export const decodeRows = Schema.decodeUnknown(Schema.Array(EntryRow))

export const toView = ({ seq: _, ...row }: EntryRow): PriorityEntry => new PriorityEntry(row)

/** Stored form of a time: UTC `toISOString()`, so that text order is time order. */
export const iso = (ms: number): string => new Date(ms).toISOString()

/** True when the entry is permanent or expires after `nowIso`. */
export const isActive = (row: { readonly expiresAt: string | null }, nowIso: string): boolean =>
  row.expiresAt === null || row.expiresAt > nowIso

const PREFIX = "priority:"

/** Keyset cursor: the `seq` of a page's last row (rows added in between are neither skipped nor repeated). */
export const encodeCursor = (row: EntryRow): string => Buffer.from(`${PREFIX}${row.seq}`, "utf8").toString("base64url")

export const decodeCursor = (cursor: string): Option.Option<number> => {
  const text = Buffer.from(cursor, "base64url").toString("utf8")
  if (!text.startsWith(PREFIX)) return Option.none()
  const digits = text.slice(PREFIX.length)
  const seq = Number(digits)
  return /^[1-9][0-9]{0,15}$/.test(digits) && Number.isSafeInteger(seq) ? Option.some(seq) : Option.none()
}
