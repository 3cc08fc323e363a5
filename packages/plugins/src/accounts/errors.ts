/**
 * The accounts plugin's domain errors. Services fail with these; the routes
 * translate them into the host's HTTP errors (see routes/httpErrors.ts).
 * A database failure is `AccountStoreError`: a fault, not an answer, which
 * the routes (and the session authenticator) turn into a 500 with a request
 * id via `storeDefect`, so the database's message reaches the log only.
 */
import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a read or write of users, roles, sessions, MFA or lockouts. */
export class AccountStoreError extends Schema.TaggedError<AccountStoreError>()("AccountStoreError", storeErrorFields) {}

/** `storeError("<what was being done>")`: an `SqlError` (or unreadable rows) as an `AccountStoreError`. */
export const storeError = storeErrorMapper(AccountStoreError)

/** A password outside the policy (passwords/policy.ts): `field` is the request field (or setting) it came in, `message` why. */
export class PasswordRejected extends Schema.TaggedError<PasswordRejected>()("PasswordRejected", {
  field: Schema.String,
  message: Schema.String
}) {}

export class UsernameTaken extends Schema.TaggedError<UsernameTaken>()("UsernameTaken", {
  username: Schema.String
}) {}

export class UserNotFound extends Schema.TaggedError<UserNotFound>()("UserNotFound", {
  id: Schema.String
}) {}

export class RoleNotFound extends Schema.TaggedError<RoleNotFound>()("RoleNotFound", {
  name: Schema.String
}) {}

export class RoleExists extends Schema.TaggedError<RoleExists>()("RoleExists", {
  name: Schema.String
}) {}

/** Permission names the catalog does not know. */
export class UnknownPermissions extends Schema.TaggedError<UnknownPermissions>()("UnknownPermissions", {
  names: Schema.Array(Schema.String)
}) {}

/** A change the built-in roles do not allow (delete, rename, edit `admin`). */
export class BuiltInRole extends Schema.TaggedError<BuiltInRole>()("BuiltInRole", {
  name: Schema.String,
  message: Schema.String
}) {}

export class RoleInUse extends Schema.TaggedError<RoleInUse>()("RoleInUse", {
  name: Schema.String,
  users: Schema.Number
}) {}

/** The change would leave no enabled user with the `admin` permission. */
export class LastAdmin extends Schema.TaggedError<LastAdmin>()("LastAdmin", {
  message: Schema.String
}) {}

/** `POST /api/setup/admin` after a user exists. */
export class SetupClosed extends Schema.TaggedError<SetupClosed>()("SetupClosed", {}) {}

export class MfaAlreadyEnabled extends Schema.TaggedError<MfaAlreadyEnabled>()("MfaAlreadyEnabled", {}) {}

export class MfaNotPending extends Schema.TaggedError<MfaNotPending>()("MfaNotPending", {}) {}

export class MfaNotEnabled extends Schema.TaggedError<MfaNotEnabled>()("MfaNotEnabled", {}) {}

/** A wrong, stale or already used code or password confirming an MFA or password change. */
export class ConfirmationFailed extends Schema.TaggedError<ConfirmationFailed>()("ConfirmationFailed", {
  message: Schema.String
}) {}

/**
 * Too many failures for this (IP, username): try again later. `locked`: the
 * pair is locked; `attempts-at-limit`: attempts still being checked already
 * use up what the pair may fail, so this one is not checked; `locked-now`:
 * this failure locked the pair.
 */
export class LockedOut extends Schema.TaggedError<LockedOut>()("LockedOut", {
  /** `address-at-limit`: the IP has used its budget of failed sign-ins (any usernames). */
  reason: Schema.Literal("locked", "attempts-at-limit", "locked-now", "address-at-limit"),
  retryAfterSeconds: Schema.Number
}) {}

/** A backup document this controller cannot restore. */
export class InvalidBackup extends Schema.TaggedError<InvalidBackup>()("InvalidBackup", {
  message: Schema.String
}) {}

/** Wrong username or password (or a disabled user): one answer for all, so none is revealed. */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()("InvalidCredentials", {}) {}

/** The password was right, MFA is on and no code came with it. */
export class MfaRequired extends Schema.TaggedError<MfaRequired>()("MfaRequired", {}) {}

/** The password was right but the MFA code was wrong, stale or already used. */
export class InvalidMfaCode extends Schema.TaggedError<InvalidMfaCode>()("InvalidMfaCode", {}) {}
