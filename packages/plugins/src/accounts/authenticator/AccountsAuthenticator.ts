/**
 * The `session` scheme: what the accounts plugin's sign-in gives. Token from
 * the `auth-token` cookie, else `Authorization: Bearer <JWT>`; signature,
 * expiry and revocation checked; the user and their role's permissions
 * read from the database, then remembered until any account, role or
 * session changes (so a role change or a disabled account still takes
 * effect on the next request); CSRF for cookie-authenticated writes unless the endpoint
 * is `CsrfExempt`; and the forced password change, unless the endpoint is
 * allowed `DuringPasswordChange`.
 */
import {
  AuditTrail,
  AuthenticationFailed,
  type AuthenticationScheme,
  type Principal,
  type SchemeAuthenticator,
  SESSION_SCHEME,
  storeDefect
} from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { credentialsOf, csrfCookieOf, csrfHeaderOf } from "../http/request.js"
import { Sessions } from "../sessions/Sessions.js"
import { type UserRecord, Users } from "../users/Users.js"
import { AccountChanges } from "./AccountChanges.js"
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

/**
 * How long a remembered caller stands without reading the database again.
 * Writes made here move `AccountChanges` on and take effect at once; this
 * bounds writes this process does not see (`npm run reset-admin` while the
 * controller runs).
 */
export const CALLER_RECHECK_MS = 1_000

/** Callers remembered at most; past it the longest-remembered is forgotten. */
const CALLER_CAPACITY = 10_000

/** What the database said about a session token, and when. */
interface KnownCaller {
  readonly jti: string
  readonly user: UserRecord
  readonly permissions: ReadonlySet<string>
  readonly scoped: ReadonlyMap<string, ReadonlySet<string>>
  readonly expiresAtMs: number
  /** `AccountChanges` when it was read: any change since and it is read again. */
  readonly version: number
  readonly readAtMs: number
}

export const makeSessionAuthenticator = Effect.gen(function* () {
  const sessions = yield* Sessions
  const users = yield* Users
  const audit = yield* AuditTrail
  const changes = yield* AccountChanges
  // A signed-in panel sends the same token with every request: reading its session, user and role each time was
  // most of the cost of a request. Only good sessions are remembered; see KnownCaller for when they are read again.
  const callers = new Map<string, KnownCaller>()

  const lookUp = (token: string, now: number): Effect.Effect<Option.Option<KnownCaller>> => {
    const known = callers.get(token)
    if (known !== undefined) {
      if (known.version === changes.current() && now < known.expiresAtMs && now - known.readAtMs < CALLER_RECHECK_MS) {
        return Effect.succeed(Option.some(known))
      }
      callers.delete(token)
    }
    // Taken before reading: a change landing while we read leaves this entry already stale.
    const version = changes.current()
    return Effect.gen(function* () {
      const claims = yield* sessions.verify(token)
      if (Option.isNone(claims)) return Option.none()
      const found = yield* users.principal(claims.value.sub)
      if (Option.isNone(found) || found.value.user.disabled) return Option.none()
      const caller: KnownCaller = { jti: claims.value.jti, ...found.value, expiresAtMs: claims.value.expiresAtMs, version, readAtMs: now }
      if (callers.size >= CALLER_CAPACITY) callers.delete(callers.keys().next().value!)
      callers.set(token, caller)
      return Option.some(caller)
    }).pipe(
      // The host's authenticator answers a caller or AuthenticationFailed, nothing else: a store failure
      // is a fault here as in the routes, a 500 with a request id, the database's message in the log only.
      Effect.catchTag("AccountStoreError", storeDefect)
    )
  }

  const authenticate: SchemeAuthenticator["authenticate"] = (request, { path, method, clientIp, csrfExempt, duringPasswordChange }) => {
    const credentials = credentialsOf(request)
    if (Option.isNone(credentials)) return Effect.succeed(Option.none())
    const { token, via } = credentials.value
    return Clock.currentTimeMillis.pipe(
      Effect.flatMap((now) => lookUp(token, now)),
      Effect.flatMap((found): Effect.Effect<Option.Option<Principal>, AuthenticationFailed> => {
        if (Option.isNone(found)) return invalidSession
        const { jti, user, permissions, scoped } = found.value
        // Cookies ride along on cross-site requests; bearer tokens do not, so only cookie writes need the CSRF token.
        if (via === "cookie" && MUTATING.has(method) && !csrfExempt && !sessions.csrfValid(jti, csrfHeaderOf(request), csrfCookieOf(request))) {
          return Effect.zipRight(
            audit.record({
              // Named here: the caller is refused before the request has one to name the row after.
              actor: user.id,
              actorName: user.username,
              ip: clientIp,
              action: "auth.csrf-mismatch",
              target: `${method} ${path}`,
              result: "denied",
              details: { header: csrfHeaderOf(request) === undefined ? "missing" : "wrong" }
            }),
            csrfMismatch
          )
        }
        if (user.mustChangePassword && !duringPasswordChange) return mustChange
        return Effect.succeed(
          Option.some({
            kind: "user",
            id: user.id,
            name: user.username,
            role: user.role,
            permissions,
            ...(scoped.size > 0 ? { scoped } : {}),
            attributes: { sessionId: jti, authenticatedBy: via, ip: clientIp }
          })
        )
      })
    )
  }

  return { carries: (request) => Option.isSome(credentialsOf(request)), authenticate } satisfies SchemeAuthenticator
})

/** The scheme the plugin declares: every endpoint accepts it unless it names other schemes. */
export const sessionScheme: AuthenticationScheme<Sessions | Users | AuditTrail | AccountChanges> = {
  name: SESSION_SCHEME,
  methods: [bearerToken, sessionCookie],
  authenticator: makeSessionAuthenticator
}
