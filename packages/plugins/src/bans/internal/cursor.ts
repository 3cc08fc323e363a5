/**
 * The ban list's paging, newest first: a cursor holds `bannedAt` and `id`
 * of the last ban of a page, its sort key; the next page starts strictly
 * after it (see the runtime's `Keyset`).
 */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset } from "@garrison/runtime"
import type { Ban } from "../contract/Api.js"

export const banCursor = cursorCodec(
  "bans",
  Schema.Struct({
    bannedAt: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}T/)),
    id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
  })
)

export const banPaging = Keyset.make({
  cursor: banCursor,
  key: [
    { column: "banned_at", direction: "desc", value: (position) => position.bannedAt },
    { column: "id", direction: "desc", value: (position) => position.id }
  ],
  positionOf: (ban: Ban) => ({ bannedAt: ban.bannedAt, id: ban.id })
})

/** The list's paging over JSON rows (`BanJsonRow`): the same cursors as `banPaging`. */
export const jsonPaging = Keyset.make({
  cursor: banCursor,
  key: banPaging.key,
  positionOf: (row: { readonly bannedAt: string; readonly id: string }) => ({ bannedAt: row.bannedAt, id: row.id })
})

/** The export's order, oldest first; its chunks follow each other by this key (no cursor leaves the process). */
export const exportOrder = Keyset.make({
  cursor: banCursor,
  key: [
    { column: "banned_at", direction: "asc", value: (position) => position.bannedAt },
    { column: "id", direction: "asc", value: (position) => position.id }
  ],
  positionOf: (row: { readonly bannedAt: string; readonly id: string }) => ({ bannedAt: row.bannedAt, id: row.id })
})
