/**
 * `/api/auth/*`. Login and logout answer with their own responses (they set
 * or clear cookies; login's `mfa-required` and 429 are not in the host's tag
 * table). MFA disable and the password change take a password or code, so
 * they count towards the same lockout as login.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { CurrentPrincipal, type Principal } from "@garrison/runtime"
import { AccountsApi } from "../contract/Api.js"
import { type AccountStoreError, ConfirmationFailed, LockedOut, PasswordRejected } from "../errors.js"
import { errorJson, lockedOut, withoutSessionCookies, withSessionCookies } from "../http/responses.js"
import { Lockout } from "../lockout/Lockout.js"
import { Login } from "../login/Login.js"
import { Mfa } from "../mfa/Mfa.js"
import { Passwords } from "../passwords/Passwords.js"
import { Sessions } from "../sessions/Sessions.js"
import { Users } from "../users/Users.js"
import { audit, requestFacts } from "./context.js"
import { asHttp } from "./httpErrors.js"

const sessionOf = (principal: Principal) => principal.attributes?.sessionId

export const AuthRoutes = HttpApiBuilder.group(AccountsApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const login = yield* Login
    const sessions = yield* Sessions
    const mfa = yield* Mfa
    const users = yield* Users
    const passwords = yield* Passwords
    const lockout = yield* Lockout

    /**
     * Runs a check of something only the account holder knows as an attempt
     * of the (IP, username) pair: refused while the pair is locked, and a
     * failed check counts towards the lockout like a failed sign-in (the
     * failure that locks answers 429). Any other outcome gives the attempt back.
     */
    const guarded =
      (principal: Principal, ip: string) =>
      <A, E, R>(
        check: Effect.Effect<A, E | ConfirmationFailed, R>
      ): Effect.Effect<A, E | ConfirmationFailed | LockedOut | AccountStoreError, R> =>
        lockout.attempt({ ip, username: principal.name }, check, (exit) =>
          Exit.isFailure(exit) && Option.exists(Cause.failureOption(exit.cause), (error) => error instanceof ConfirmationFailed)
            ? "failure"
            : "uncounted"
        )

    /** One audit row for a security change, whatever its outcome. */
    const audited =
      (principal: Principal, ip: string, action: string) =>
      <A, E, R>(self: Effect.Effect<A, E, R>) =>
        self.pipe(
          Effect.tapBoth({
            onFailure: () => audit({ actor: principal.id, ip, action, target: principal.name, result: "failure" }),
            onSuccess: () => audit({ actor: principal.id, ip, action, target: principal.name, result: "success" })
          })
        )

    const answerLocked = <A, E, R>(self: Effect.Effect<A, E | LockedOut, R>) =>
      Effect.catchIf(
        self,
        (error): error is LockedOut => error instanceof LockedOut,
        (error) => Effect.succeed(lockedOut(error))
      )

    return handlers
      .handle("login", ({ payload, request }) =>
        Effect.gen(function* () {
          const { ip, secure } = yield* requestFacts(request)
          return yield* login.login({ ...payload, ip }).pipe(
            Effect.map(({ session, user }) =>
              withSessionCookies(
                HttpServerResponse.unsafeJson({
                  token: session.token,
                  user: { id: user.id, username: user.username, role: user.role, mustChangePassword: user.mustChangePassword }
                }),
                session,
                secure
              )
            ),
            Effect.catchTags({
              LockedOut: (error) => Effect.succeed(lockedOut(error)),
              InvalidCredentials: () => Effect.succeed(errorJson(401, "unauthenticated", "wrong username or password")),
              MfaRequired: () =>
                Effect.succeed(errorJson(401, "mfa-required", "this account uses MFA: send the authenticator app's code as `code`")),
              InvalidMfaCode: () =>
                Effect.succeed(errorJson(401, "unauthenticated", "the MFA code is wrong, expired or already used"))
            }),
            asHttp
          )
        })
      )
      .handle("logout", ({ request }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentPrincipal
          const { ip, secure } = yield* requestFacts(request)
          const session = sessionOf(principal)
          if (session !== undefined) yield* asHttp(sessions.revoke(session))
          yield* audit({ actor: principal.id, ip, action: "auth.logout", target: principal.name, result: "success", details: { session } })
          return withoutSessionCookies(HttpServerResponse.empty({ status: 204 }), secure)
        })
      )
      .handle("mfaSetup", ({ request }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentPrincipal
          const { ip } = yield* requestFacts(request)
          const enrolment = yield* asHttp(mfa.begin({ id: principal.id, username: principal.name }))
          yield* audit({ actor: principal.id, ip, action: "auth.mfa.setup", target: principal.name, result: "success" })
          return enrolment
        })
      )
      .handle("mfaVerify", ({ payload, request }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentPrincipal
          const { ip } = yield* requestFacts(request)
          return yield* mfa.confirm(principal.id, payload.code).pipe(
            guarded(principal, ip),
            audited(principal, ip, "auth.mfa.enable"),
            Effect.map((recoveryCodes) => ({ enabled: true as const, recoveryCodes })),
            answerLocked,
            asHttp
          )
        })
      )
      .handle("mfaDisable", ({ payload, request }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentPrincipal
          const { ip } = yield* requestFacts(request)
          return yield* mfa.disable(principal.id, payload).pipe(
            guarded(principal, ip),
            audited(principal, ip, "auth.mfa.disable"),
            Effect.as({ enabled: false as const }),
            answerLocked,
            asHttp
          )
        })
      )
      .handle("changePasswordForced", ({ payload, request }) =>
        Effect.gen(function* () {
          const principal = yield* CurrentPrincipal
          const { ip } = yield* requestFacts(request)
          const change = Effect.gen(function* () {
            const found = yield* users.credentials(principal.name)
            const ok = Option.isSome(found) && (yield* passwords.verify(found.value.passwordHash, payload.currentPassword))
            if (!ok) return yield* new ConfirmationFailed({ message: "the current password is wrong" })
            if (payload.newPassword === payload.currentPassword) {
              return yield* new PasswordRejected({ field: "newPassword", message: "choose a password different from the current one" })
            }
            yield* users.changeOwnPassword(principal.id, payload.newPassword, sessionOf(principal) ?? "")
          })
          return yield* change.pipe(
            guarded(principal, ip),
            audited(principal, ip, "auth.password-change"),
            Effect.as(HttpServerResponse.empty({ status: 204 })),
            answerLocked,
            asHttp
          )
        })
      )
  })
)

export const SessionRoutes = HttpApiBuilder.group(AccountsApi, "session", (handlers) =>
  Effect.gen(function* () {
    const users = yield* Users
    return handlers.handle("me", () =>
      Effect.gen(function* () {
        const principal = yield* CurrentPrincipal
        const user = principal.kind === "user" ? yield* asHttp(users.findById(principal.id)) : Option.none()
        return {
          user: {
            id: principal.id,
            username: principal.name,
            role: principal.role,
            mustChangePassword: Option.isSome(user) && user.value.mustChangePassword,
            mfaEnabled: Option.isSome(user) && user.value.mfaEnabled
          },
          permissions: [...principal.permissions].sort(),
          scoped: [...(principal.scoped ?? new Map<string, ReadonlySet<string>>())]
            .map(([permission, servers]) => ({ permission, servers: [...servers].sort() }))
            .sort((a, b) => a.permission.localeCompare(b.permission))
        }
      })
    )
  })
)
