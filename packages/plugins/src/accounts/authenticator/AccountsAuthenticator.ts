/**
 * The accounts plugin's `Authenticator`: the host calls it for every
 * endpoint that is not public. Token from the `auth-token` cookie, else
 * `Authorization: Bearer`; signature, expiry and revocation checked; the
 * user and their role's permissions loaded now (so a role change or a
 * disabled account takes effect on the next request); CSRF for
 * cookie-authenticated writes; and the forced password change.
 */
import { AuditTrail, AuthenticationFailed, Authenticator, type AuthenticatorShape, type Principal } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { credentialsOf, csrfCookieOf, csrfHeaderOf } from "../http/request.js"
import { Sessions } from "../sessions/Sessions.js"
import { Users } from "../users/Users.js"
import { allowedWhileMustChange, needsCsrf } from "./exemptions.js"

const invalidSession = new AuthenticationFailed({
  status: 401,
  code: "unauthenticated",
  message: "the session is invalid, expired or signed out; sign in again"
})

const csrfMismatch = new AuthenticationFailed({
  status: 403,
  code: "csrf-mismatch",
  message: "send the csrf-token cookie's value in the X-CSRF-Token header"
})

const mustChange = new AuthenticationFailed({
  status: 403,
  code: "password-change-required",
  message: "change your password first: POST /api/auth/change-password-forced with {currentPassword, newPassword}"
})

export const makeAuthenticator = Effect.gen(function* () {
  const sessions = yield* Sessions
  const users = yield* Users

  const authenticate: AuthenticatorShape["authenticate"] = (request, { path, method, clientIp }) =>
    Effect.gen(function* () {
      const credentials = credentialsOf(request)
      if (Option.isNone(credentials)) return Option.none()
      const claims = yield* sessions.verify(credentials.value.token)
      if (Option.isNone(claims)) return yield* invalidSession
      const found = yield* users.principal(claims.value.sub)
      if (Option.isNone(found) || found.value.user.disabled) return yield* invalidSession
      const { user, permissions } = found.value

      // Cookies ride along on cross-site requests; bearer tokens do not, so only cookie writes need the CSRF token.
      if (credentials.value.via === "cookie" && needsCsrf(method, path)) {
        if (!sessions.csrfValid(claims.value.jti, csrfHeaderOf(request), csrfCookieOf(request))) {
          const audit = yield* AuditTrail
          yield* audit.record({
            actor: user.id,
            ip: clientIp,
            action: "auth.csrf-mismatch",
            target: `${method} ${path}`,
            result: "denied",
            details: { header: csrfHeaderOf(request) === undefined ? "missing" : "wrong" }
          })
          return yield* csrfMismatch
        }
      }
      if (user.mustChangePassword && !allowedWhileMustChange(method, path)) return yield* mustChange

      const principal: Principal = {
        kind: "user",
        id: user.id,
        name: user.username,
        role: user.role,
        permissions,
        attributes: { sessionId: claims.value.jti, authenticatedBy: credentials.value.via, ip: clientIp }
      }
      return Option.some(principal)
    })

  return { authenticate } satisfies AuthenticatorShape
})

/** Fills the host's authenticator slot. */
export const AuthenticatorLive = Layer.effect(Authenticator, makeAuthenticator)
