/**
 * The ban list's cursor: `bannedAt` and `id` of the last ban of a page, its
 * sort key; the next page starts strictly after it (see the runtime's `Page`).
 */
import * as Schema from "effect/Schema"
import { cursorCodec } from "@garrison/runtime"

export const banCursor = cursorCodec(
  "bans",
  Schema.Struct({
    bannedAt: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}T/)),
    id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
  })
)
