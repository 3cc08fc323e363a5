/**
 * The notification list's paging, newest first: a cursor holds the
 * position (`seq`) of the last notification of a page; the next (older)
 * page starts strictly before it (see the runtime's `Keyset`).
 */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset } from "@garrison/runtime"
import type { StoredNotification } from "./rows.js"

export const notificationCursor = cursorCodec("notifications", Schema.Int.pipe(Schema.positive()))

export const notificationPaging = Keyset.make({
  cursor: notificationCursor,
  key: [{ column: "n.seq", direction: "desc", value: (seq) => seq }],
  positionOf: (row: StoredNotification) => Number(row.seq)
})
