/**
 * Signing in: the lockout first, which counts the attempt before anything
 * is hashed (a locked pair gets 429 even with the right password, and so
 * does a pair whose attempts under way already use up what it may fail),
 * then the password (timed the same whether or not the user exists), then
 * the MFA code when MFA is on, then a new session. Every outcome is an
 * audit row; failures count towards the lockout, a success clears it.
 */
import { AuditTrail } from "@garrison/runtime"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type AccountStoreError, InvalidCredentials, InvalidMfaCode, LockedOut, MfaRequired } from "../errors.js"
import { Lockout, type Verdict } from "../lockout/Lockout.js"
import { Mfa } from "../mfa/Mfa.js"
import { Passwords } from "../passwords/Passwords.js"
import { type IssuedSession, Sessions } from "../sessions/Sessions.js"
import { type UserRecord, Users } from "../users/Users.js"

export interface LoginInput {
  readonly username: string
  readonly password: string
  readonly code?: string | undefined
  readonly ip: string
}

export interface LoginSuccess {
  readonly session: IssuedSession
  readonly user: UserRecord
}

export interface LoginShape {
  readonly login: (
    input: LoginInput
  ) => Effect.Effect<LoginSuccess, LockedOut | InvalidCredentials | MfaRequired | InvalidMfaCode | AccountStoreError>
}

export class Login extends Context.Tag("@garrison/plugins/accounts/Login")<Login, LoginShape>() {
  static readonly make = Effect.gen(function* () {
    const users = yield* Users
    const passwords = yield* Passwords
    const sessions = yield* Sessions
    const lockout = yield* Lockout
    const mfa = yield* Mfa

    // Named here: no caller is signed in yet for the store to name the row after.
    const audit = (
      input: LoginInput,
      user: { readonly id: string; readonly username: string } | null,
      result: "success" | "failure" | "denied",
      details: Record<string, unknown>
    ) =>
      Effect.flatMap(AuditTrail, (trail) =>
        trail.record({ actor: user?.id ?? null, actorName: user?.username ?? null, ip: input.ip, action: "auth.login", target: input.username, result, details })
      )

    /** The password, then the MFA code, then a session; the lockout has already counted this attempt. */
    const check = (input: LoginInput) =>
      Effect.gen(function* () {
        const found = yield* users.credentials(input.username)
        const passwordOk = Option.isSome(found)
          ? yield* passwords.verify(found.value.passwordHash, input.password)
          : yield* passwords.verifyNobody(input.password)
        if (Option.isNone(found) || !passwordOk || found.value.user.disabled) {
          yield* audit(input, Option.isSome(found) ? found.value.user : null, "failure", { reason: "invalid-credentials" })
          return yield* new InvalidCredentials()
        }
        const { user, passwordHash } = found.value

        let method = "password"
        if (user.mfaEnabled) {
          if (input.code === undefined || input.code.trim().length === 0) return yield* new MfaRequired()
          const accepted = yield* mfa.acceptLoginCode(user.id, input.code)
          if (Option.isNone(accepted)) {
            yield* audit(input, user, "failure", { reason: "invalid-mfa-code" })
            return yield* new InvalidMfaCode()
          }
          method = `password+${accepted.value}`
          if (accepted.value === "recovery") {
            yield* Effect.flatMap(AuditTrail, (trail) =>
              trail.record({ actor: user.id, actorName: user.username, ip: input.ip, action: "auth.mfa.recovery-code", target: user.username, result: "success" })
            )
          }
        }

        if (passwords.needsRehash(passwordHash)) yield* users.rehash(user.id, input.password)
        const session = yield* sessions.issue(user.id)
        yield* audit(input, user, "success", { method, session: session.jti })
        return { session, user }
      })

    /**
     * A wrong password or code counts; "MFA code required" proved the password
     * right, and a store failure proved nothing, so they do not.
     */
    const verdict = (exit: Exit.Exit<LoginSuccess, InvalidCredentials | MfaRequired | InvalidMfaCode | AccountStoreError>): Verdict =>
      Exit.match(exit, {
        onSuccess: () => "success",
        onFailure: (cause) =>
          Option.match(Cause.failureOption(cause), {
            onNone: () => "uncounted",
            onSome: (error) => (error._tag === "InvalidCredentials" || error._tag === "InvalidMfaCode" ? "failure" : "uncounted")
          })
      })

    const login: LoginShape["login"] = (input) =>
      lockout.attempt({ ip: input.ip, username: input.username }, check(input), verdict).pipe(
        Effect.tapError((error) =>
          error._tag === "LockedOut" && error.reason !== "locked-now"
            ? audit(input, null, "denied", {
                reason: error.reason === "locked" ? "locked-out" : error.reason,
                retryAfterSeconds: error.retryAfterSeconds
              })
            : Effect.void
        )
      )

    return Login.of({ login })
  })

  static readonly layer = Layer.effect(Login, Login.make)
}
