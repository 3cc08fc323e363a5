/** `priority_entries` rows, their API view (decoded, or as JSON written by the database), and the list's page cursors. */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset, perDialect } from "@garrison/runtime"
import { PriorityEntry } from "../contract/Api.js"

export const SELECT_COLUMNS = `id, seq, platform_id AS "platformId", name, role, expires_at AS "expiresAt",
  added_by AS "addedBy", added_at AS "addedAt", source`

export const EntryRow = Schema.Struct({
  id: Schema.String,
  /** Insertion order; never shown. */
  seq: Schema.Number,
  platformId: Schema.String,
  name: Schema.String,
  role: Schema.String,
  expiresAt: Schema.NullOr(Schema.String),
  addedBy: Schema.String,
  addedAt: Schema.String,
  source: Schema.String
})
export type EntryRow = typeof EntryRow.Type

export const decodeRows = Schema.decodeUnknown(Schema.Array(EntryRow))

/** The API's view of a row: the name as `playerName`, and as the deprecated `name` beside it (one release). */
export const toView = ({ seq: _, ...row }: EntryRow): PriorityEntry =>
  new PriorityEntry({
    id: row.id,
    platformId: row.platformId,
    playerName: row.name,
    name: row.name,
    role: row.role,
    expiresAt: row.expiresAt,
    addedBy: row.addedBy,
    addedAt: row.addedAt,
    source: row.source
  })

/** An entry as the list and the export read it: its JSON, written by the database, and its sort key. */
export interface EntryJsonRow {
  readonly json: string
  readonly seq: number
}

/**
 * `toView` in SQL: the `PriorityEntry` schema's fields in its order (every
 * column as stored, text or null, `seq` left out of the JSON); `seq` again
 * for the keyset. In the client's dialect (the runtime's `jsonSql`):
 * `jsonColumns(sql)`.
 */
export const jsonColumns = perDialect((json) =>
  `${
    json.text(json.object({
      id: "id",
      platformId: "platform_id",
      playerName: "name",
      name: "name",
      role: "role",
      expiresAt: "expires_at",
      addedBy: "added_by",
      addedAt: "added_at",
      source: "source"
    }))
  } AS json, seq`
)

/** Stored form of a time: UTC `toISOString()`, so that text order is time order. */
export const iso = (ms: number): string => new Date(ms).toISOString()

/** True when the entry is permanent or expires after `nowIso`. */
export const isActive = (row: { readonly expiresAt: string | null }, nowIso: string): boolean =>
  row.expiresAt === null || row.expiresAt > nowIso

/** Keyset cursor: the `seq` of a page's last row (rows added in between are neither skipped nor repeated). */
export const priorityCursor = cursorCodec("priority", Schema.Int.pipe(Schema.positive()))

/**
 * The list's paging, and the export's order: insertion order (`seq`), a
 * page's next one starting strictly after its last row. Any row with a
 * `seq` pages, decoded (`EntryRow`) or JSON (`EntryJsonRow`), with the same cursors.
 */
export const priorityPaging = Keyset.make({
  cursor: priorityCursor,
  key: [{ column: "seq", direction: "asc", value: (seq) => seq }],
  positionOf: (row: { readonly seq: number }) => row.seq
})
