/**
 * Sessions: issuing tokens, checking them against the `accounts_sessions`
 * table, and revoking them. Every issued token has a row until it expires
 * (the cleanup job deletes expired rows); logout, disabling or deleting a
 * user and password changes set `revoked_at`, after which the token is
 * refused on every route.
 */
import { AccountChanges } from "../authenticator/AccountChanges.js"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Secrets, SESSION_SIGNING_KEY } from "@garrison/runtime"
import { hkdfSync, randomUUID } from "node:crypto"
import { AccountsConfig } from "../config.js"
import { type AccountStoreError, storeError } from "../errors.js"
import { csrfTokenFor, csrfValid } from "./Csrf.js"
import { importSigningKey, makeTokenVerifier, signToken, type VerifiedClaims } from "./Tokens.js"

export interface IssuedSession {
  readonly token: string
  readonly jti: string
  readonly csrfToken: string
  readonly expiresAt: number
  readonly maxAgeSeconds: number
}

/** Every method that reads or writes the sessions table fails with `AccountStoreError` when the database does. */
export interface SessionsShape {
  readonly issue: (userId: string) => Effect.Effect<IssuedSession, AccountStoreError>
  /** The session of a token whose signature, expiry and row are all good, with when it ends. */
  readonly verify: (token: string) => Effect.Effect<Option.Option<VerifiedClaims>, AccountStoreError>
  readonly revoke: (jti: string) => Effect.Effect<void, AccountStoreError>
  /** Revokes every active session of a user, but `except` (the caller's own); returns how many. */
  readonly revokeAllFor: (userId: string, except?: string) => Effect.Effect<number, AccountStoreError>
  readonly csrfTokenFor: (jti: string) => string
  /** `X-CSRF-Token` equals the `csrf-token` cookie and is the token bound to session `jti`. */
  readonly csrfValid: (jti: string, header: string | undefined, cookie: string | undefined) => boolean
  /** Deletes rows of expired tokens; returns how many. */
  readonly cleanup: Effect.Effect<number, AccountStoreError>
}

export class Sessions extends Context.Tag("@garrison/plugins/accounts/Sessions")<Sessions, SessionsShape>() {
  static readonly make = Effect.gen(function* () {
    const changes = yield* AccountChanges
    const sql = yield* SqlClient.SqlClient
    const { sessionTtl } = yield* AccountsConfig
    // Checked before the port opens: a bad key file is a one-line start-up error naming it.
    const signingKey = yield* (yield* Secrets).require(SESSION_SIGNING_KEY.name, SESSION_SIGNING_KEY.spec)
    // A separate key for CSRF tokens, derived so that no HMAC here can double as a JWT signature.
    const csrfKey = new Uint8Array(hkdfSync("sha256", signingKey, new Uint8Array(0), "garrison csrf v1", 32))
    const ttlMs = Duration.toMillis(sessionTtl)
    const jwtKey = yield* importSigningKey(signingKey)
    const verifyToken = makeTokenVerifier(jwtKey)

    const issue: SessionsShape["issue"] = (userId) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const jti = randomUUID()
        // Whole seconds, as the JWT carries them.
        const expiresAt = Math.floor((now + ttlMs) / 1000) * 1000
        const token = yield* signToken(jwtKey, { jti, sub: userId, issuedAtMs: now, expiresAtMs: expiresAt })
        yield* sql`INSERT INTO accounts_sessions (jti, user_id, issued_at, expires_at, revoked_at)
          VALUES (${jti}, ${userId}, ${now}, ${expiresAt}, NULL)`
        return {
          token,
          jti,
          csrfToken: csrfTokenFor(csrfKey, jti),
          expiresAt,
          maxAgeSeconds: Math.max(0, Math.floor((expiresAt - now) / 1000))
        }
      }).pipe(Effect.mapError(storeError("store a new session")))

    const verify: SessionsShape["verify"] = (token) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const claims = yield* verifyToken(token, now)
        if (Option.isNone(claims)) return claims
        const rows = yield* sql<{ readonly user_id: string; readonly expires_at: number; readonly revoked_at: number | null }>`
          SELECT user_id, expires_at, revoked_at FROM accounts_sessions WHERE jti = ${claims.value.jti}`
        const row = rows[0]
        const active =
          row !== undefined && row.revoked_at === null && Number(row.expires_at) > now && row.user_id === claims.value.sub
        return active ? Option.some({ ...claims.value, expiresAtMs: Math.min(claims.value.expiresAtMs, Number(row.expires_at)) }) : Option.none()
      }).pipe(Effect.mapError(storeError("read a session")))

    const revoke: SessionsShape["revoke"] = (jti) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sql`UPDATE accounts_sessions SET revoked_at = ${now} WHERE jti = ${jti} AND revoked_at IS NULL`
      ).pipe(Effect.asVoid, Effect.mapError(storeError("revoke a session")))

    const revokeAllFor: SessionsShape["revokeAllFor"] = (userId, except) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        sql<{ readonly jti: string }>`UPDATE accounts_sessions SET revoked_at = ${now}
          WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now} AND jti <> ${except ?? ""}
          RETURNING jti`
      ).pipe(
        Effect.map((rows) => rows.length),
        Effect.mapError(storeError("revoke a user's sessions"))
      )

    const cleanup: SessionsShape["cleanup"] = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      sql<{ readonly jti: string }>`DELETE FROM accounts_sessions WHERE expires_at <= ${now} RETURNING jti`
    ).pipe(
      Effect.map((rows) => rows.length),
      Effect.mapError(storeError("delete expired sessions"))
    )

    return Sessions.of({
      issue,
      verify,
      revoke: (jti) => changes.counted(revoke(jti)),
      revokeAllFor: (userId, except) => changes.counted(revokeAllFor(userId, except)),
      csrfTokenFor: (jti) => csrfTokenFor(csrfKey, jti),
      csrfValid: (jti, header, cookie) => csrfValid(csrfKey, jti, header, cookie),
      cleanup
    })
  })

  static readonly layer = Layer.effect(Sessions, Sessions.make)
}
