/**
 * `npm run reset-admin -- [username]`: a new one-time password for an admin
 * who lost theirs (the first admin's, printed once, or their own). Works on
 * the data directory directly, with or without a controller running on it
 * (sessions and lockouts live in the database, so the running controller
 * sees the change on the next request). The admin's sessions end, their
 * sign-in lockouts are lifted, they must change the password at the next
 * sign-in, and the reset is an audit row. MFA stays as it was unless
 * `turnMfaOff` (`--mfa-off`): for an admin who lost their authenticator and
 * their recovery codes too.
 */
import { AuditTrail } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Lockout } from "../lockout/Lockout.js"
import { generatePassword } from "../passwords/Passwords.js"
import { ADMIN_ROLE } from "../roles/builtIn.js"
import { Users } from "../users/Users.js"

export class ResetRefused extends Schema.TaggedError<ResetRefused>()("ResetRefused", { message: Schema.String }) {}

export interface AdminReset {
  readonly username: string
  readonly password: string
  /** Whether MFA was on and was turned off by this reset. */
  readonly mfaTurnedOff: boolean
}

export interface ResetOptions {
  /** Also turn the admin's MFA off (they enrol again after signing in). */
  readonly turnMfaOff?: boolean
}

/** The admin to reset: the one named, or the only admin there is. */
const chooseAdmin = (username: string | undefined) =>
  Effect.gen(function* () {
    const users = yield* Users
    const admins = (yield* users.list).filter((user) => user.role === ADMIN_ROLE)
    if (username !== undefined) {
      const named = admins.find((user) => user.username.toLowerCase() === username.toLowerCase())
      if (named !== undefined) return named
      const other = (yield* users.findByUsername(username))._tag === "Some"
      return yield* new ResetRefused({
        message: other
          ? `"${username}" is not an admin; an admin can set their password with PATCH /api/users/:id`
          : `no user "${username}"; admins: ${admins.map((a) => a.username).join(", ") || "(none)"}`
      })
    }
    if (admins.length === 1) return admins[0]!
    return yield* new ResetRefused({
      message:
        admins.length === 0
          ? "there is no admin yet: start the controller once to create the first one"
          : `there are ${admins.length} admins (${admins.map((a) => a.username).join(", ")}): name the one to reset`
    })
  })

export const resetAdminPassword = (username: string | undefined, options: ResetOptions = {}) =>
  Effect.gen(function* () {
    const users = yield* Users
    const admin = yield* chooseAdmin(username)
    const password = generatePassword()
    const mfaTurnedOff = options.turnMfaOff === true && admin.mfaEnabled
    // A password set this way ends all of the admin's sessions (Users.update), and enables them again.
    yield* users.update(admin.id, { password, passwordTrusted: true, mustChangePassword: true, disabled: false, ...(mfaTurnedOff ? { mfaEnabled: false } : {}) })
    yield* Effect.flatMap(Lockout, (lockout) => lockout.releaseUser(admin.username))
    yield* Effect.flatMap(AuditTrail, (audit) =>
      audit.record({
        // The reset-admin command, run on the host: no principal behind it, no actor.
        actor: null,
        ip: null,
        action: "auth.password-reset",
        target: admin.username,
        result: "success",
        details: { via: "reset-admin command", mfaTurnedOff }
      })
    )
    return { username: admin.username, password, mfaTurnedOff } satisfies AdminReset
  })
