/** Notifications as stored, and their API form. */
import * as Schema from "effect/Schema"
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
}

export const COLUMNS =
  "n.seq, n.id, n.created_at, n.audience_kind, n.audience_key, n.level, n.title, n.message, n.link"

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
    createdAt: row.created_at,
    read
  }, true) // validated when published; a row edited by hand should not turn a read into a defect
