/** `GET /api/users` pages by username key (case-folded, unique): a cursor holds the last user's. */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset } from "@garrison/runtime"
import { usernameKey } from "./username.js"
import type { UserRecord } from "./Users.js"

export const userPaging = Keyset.make({
  cursor: cursorCodec("users", Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128))),
  key: [{ column: "username_key", direction: "asc", value: (key) => key }],
  positionOf: (user: UserRecord) => usernameKey(user.username)
})
