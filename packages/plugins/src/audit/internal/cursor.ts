/**
 * The audit list's paging, newest first: a cursor holds the position
 * (`seq`) of the last row of a page; the next (older) page starts strictly
 * before it (see the runtime's `Keyset`). Decoded rows and JSON rows page
 * alike: both carry `seq`.
 */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset } from "@garrison/runtime"

export const auditCursor = cursorCodec("audit", Schema.Int.pipe(Schema.positive()))

export const auditPaging = Keyset.make({
  cursor: auditCursor,
  key: [{ column: "seq", direction: "desc", value: (seq) => seq }],
  positionOf: (row: { readonly seq: number | string }) => Number(row.seq)
})
