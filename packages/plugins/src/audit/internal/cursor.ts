/**
 * The audit list's cursor: the position (`seq`) of the last row of a page;
 * the next (older) page starts strictly before it (see the runtime's `Page`).
 */
import * as Schema from "effect/Schema"
import { cursorCodec } from "@garrison/runtime"

export const auditCursor = cursorCodec("audit", Schema.Int.pipe(Schema.positive()))
