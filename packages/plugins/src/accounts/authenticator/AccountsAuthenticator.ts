/**
 * The `session` scheme: what the accounts plugin's sign-in gives. Token from
 * the `auth-token` cookie, else `Authorization: Bearer <JWT>`; signature,
 * expiry and revocation checked; the user and their role's permissions
 * loaded now (so a role change or a disabled account takes effect on the
 * next request); CSRF for cookie-authenticated writes unless the endpoint
 * is `CsrfExempt`; and the forced password change, unless the endpoint is
 * allowed `DuringPasswordChange`.
 */
import {
  AuditTrail,
  AuthenticationFailed,
  type AuthenticationScheme,
  type Principal,
  type SchemeAuthenticator,
  SESSION_SCHEME
} from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { credentialsOf, csrfCookieOf, csrfHeaderOf } from "../http/request.js"
import { Sessions } from "../sessions/Sessions.js"
import { Users } from "../users/Users.js"
import { bearerToken, sessionCookie } from "./methods.js"

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

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"])

export const makeSessionAuthenticator = Effect.gen(function* () {
  const sessions = yield* Sessions
  const users = yield* Users
  const audit = yield* AuditTrail

  const authenticate: SchemeAuthenticator["authenticate"] = (request, { path, method, clientIp, csrfExempt, duringPasswordChange }) =>
    Effect.gen(function* () {
      const credentials = credentialsOf(request)
      if (Option.isNone(credentials)) return Option.none()
      const claims = yield* sessions.verify(credentials.value.token)
      if (Option.isNone(claims)) return yield* invalidSession
      const found = yield* users.principal(claims.value.sub)
      if (Option.isNone(found) || found.value.user.disabled) return yield* invalidSession
      const { user, permissions, scoped } = found.value

      // Cookies ride along on cross-site requests; bearer tokens do not, so only cookie writes need the CSRF token.
      if (credentials.value.via === "cookie" && MUTATING.has(method) && !csrfExempt) {
        if (!sessions.csrfValid(claims.value.jti, csrfHeaderOf(request), csrfCookieOf(request))) {
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
      if (user.mustChangePassword && !duringPasswordChange) return yield* mustChange

      const principal: Principal = {
        kind: "user",
        id: user.id,
        name: user.username,
        role: user.role,
        permissions,
        ...(scoped.size > 0 ? { scoped } : {}),
        attributes: { sessionId: claims.value.jti, authenticatedBy: credentials.value.via, ip: clientIp }
      }
      return Option.some(principal)
    })

  return { carries: (request) => Option.isSome(credentialsOf(request)), authenticate } satisfies SchemeAuthenticator
})

/** The scheme the plugin declares: every endpoint accepts it unless it names other schemes. */
export const sessionScheme: AuthenticationScheme<Sessions | Users | AuditTrail> = {
  name: SESSION_SCHEME,
  methods: [bearerToken, sessionCookie],
  authenticator: makeSessionAuthenticator
}
