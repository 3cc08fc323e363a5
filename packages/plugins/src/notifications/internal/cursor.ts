/**
 * The notification list's paging, newest first: a cursor holds the
 * position (`seq`) of the last notification of a page; the next (older)
 * page starts strictly before it (see the runtime's `Keyset`).
 */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset } from "@garrison/runtime"

export const notificationCursor = cursorCodec("notifications", Schema.Int.pipe(Schema.positive()))

export const notificationPaging = Keyset.make({
  cursor: notificationCursor,
  key: [{ column: "n.seq", direction: "desc", value: (seq) => seq }],
  // Stored rows and JSON rows (`NotificationJsonRow`) both carry `seq`: one paging serves `list` and `listJson`.
  positionOf: (row: { readonly seq: number | string }) => Number(row.seq)
})
