/**
 * The notification list's cursor: the position (`seq`) of the last
 * notification of a page; the next (older) page starts strictly before it
 * (see the runtime's `Page`).
 */
import * as Schema from "effect/Schema"
import { cursorCodec } from "@garrison/runtime"

export const notificationCursor = cursorCodec("notifications", Schema.Int.pipe(Schema.positive()))
