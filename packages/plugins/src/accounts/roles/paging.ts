/**
 * `GET /api/roles` pages built-in roles first, then by name: a cursor holds
 * the last role's place. `built_in` is stored as 1 or 0, so the key holds
 * the flag that way too.
 */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset } from "@garrison/runtime"
import type { RoleRecord } from "./Roles.js"

export const rolePaging = Keyset.make({
  cursor: cursorCodec("roles", Schema.Struct({ builtIn: Schema.Boolean, name: Schema.String.pipe(Schema.maxLength(128)) })),
  key: [
    { column: "built_in", direction: "desc", value: (position) => (position.builtIn ? 1 : 0) },
    { column: "name", direction: "asc", value: (position) => position.name }
  ],
  positionOf: (role: RoleRecord) => ({ builtIn: role.builtIn, name: role.name })
})
