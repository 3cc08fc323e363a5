/** Notifications as stored, and their API form (decoded, or as JSON written by the database). */
import * as Schema from "effect/Schema"
import { perDialect } from "@garrison/runtime"
import { Notification, NotificationLevel } from "../contract/Api.js"
import { fromColumns } from "./audience.js"

export interface StoredNotification {
  readonly seq: number | string
  readonly id: string
  readonly created_at: string
  readonly audience_kind: string
  readonly audience_key: string
  readonly level: string
  readonly title: string
  readonly message: string
  readonly link: string | null
  readonly server_id: string | null
}

export const COLUMNS =
  "n.seq, n.id, n.created_at, n.audience_kind, n.audience_key, n.level, n.title, n.message, n.link, n.server_id"

const isLevel = Schema.is(NotificationLevel)

export const toNotification = (row: StoredNotification, read: boolean): Notification =>
  new Notification({
    id: row.id,
    audience: fromColumns(row.audience_kind, row.audience_key),
    // Stored by this plugin, so always a level; "info" only guards against hand-edited rows.
    level: isLevel(row.level) ? row.level : "info",
    title: row.title,
    message: row.message,
    link: row.link,
    serverId: row.server_id,
    createdAt: row.created_at,
    read
  }, true) // validated when published; a row edited by hand should not turn a read into a defect

/** A notification as the list reads it: its JSON, written by the database, and its position for the keyset. */
export interface NotificationJsonRow {
  readonly json: string
  readonly seq: number | string
}

const levels = NotificationLevel.literals.map((level) => `'${level}'`).join(", ")

/**
 * `toNotification` in SQL: the `Notification` schema's fields in its order,
 * the audience from its two columns, "info" for a level no publisher could
 * store, and `read` from the caller's read watermark
 * (`notification_user_state st`) or read mark (`notification_reads r`),
 * both joined by the list's query. `n.seq` again for the keyset. In the
 * client's dialect (the runtime's `jsonSql`): `jsonColumns(sql)`.
 */
export const jsonColumns = perDialect((json) =>
  `${
    json.text(json.object({
      id: "n.id",
      audience: json.raw(`CASE n.audience_kind WHEN 'user' THEN ${json.sqlOf(json.object({ userId: "n.audience_key" }))}
    WHEN 'permission' THEN ${json.sqlOf(json.object({ permission: "n.audience_key" }))} ELSE ${json.sqlOf(json.string("all"))} END`),
      level: `CASE WHEN n.level IN (${levels}) THEN n.level ELSE 'info' END`,
      title: "n.title",
      message: "n.message",
      link: "n.link",
      serverId: "n.server_id",
      createdAt: "n.created_at",
      read: json.boolean("n.seq <= COALESCE(st.read_seq, 0) OR r.seq IS NOT NULL")
    }))
  } AS json, n.seq`
)
