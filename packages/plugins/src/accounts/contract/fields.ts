/** Field schemas shared by the accounts contract. */
import * as Schema from "effect/Schema"
import { StoredText } from "@garrison/runtime"
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../passwords/limits.js"
import { USERNAME_PATTERN, USERNAME_RULE } from "../users/username.js"

export const Username = Schema.String.pipe(Schema.pattern(USERNAME_PATTERN, { message: () => USERNAME_RULE }))

/** A new password: 8 to 128 characters (code points). */
export const NewPassword = Schema.String.pipe(
  Schema.filter((s) => {
    const length = [...s].length
    return (
      (length >= MIN_PASSWORD_LENGTH && length <= MAX_PASSWORD_LENGTH) ||
      `passwords are ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`
    )
  })
)

/** A password typed to prove who you are; bounded so nobody hashes megabytes. */
export const GivenPassword = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1024))

export const RoleName = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9._-]{0,63}$/, {
    message: () => "role names are 1 to 64 lower-case letters, digits or ._-, starting with a letter or digit"
  })
)

/** A role's grants: permission names (everywhere) and `{permission, servers}` (on those servers only). */
export { Grants as PermissionNames } from "../roles/permissions.js"

export const Description = StoredText.pipe(Schema.maxLength(500))

export const IdPath = Schema.Struct({ id: Schema.String })
