/**
 * Session tokens: HS256 JWTs (jose) carrying only `jti`, `sub`, `iat` and
 * `exp`. Permissions are never in the token; they are read per request.
 * Issuer and audience pin the token to this use, so another JWT signed with
 * the same key for some other purpose is not a session.
 */
import { errors, jwtVerify, SignJWT } from "jose"
import { webcrypto } from "node:crypto"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

const ISSUER = "garrison"

/**
 * The HMAC key, imported once. Given raw bytes, jose imports a `CryptoKey` on
 * every sign and verify, which was most of the cost of authenticating a request.
 */
export const importSigningKey = (raw: Uint8Array): Effect.Effect<webcrypto.CryptoKey> =>
  Effect.promise(() =>
    webcrypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"])
  )
const AUDIENCE = "garrison-session"

export interface TokenClaims {
  readonly jti: string
  readonly sub: string
}

/** A verified token's claims and when it expires. */
export interface VerifiedClaims extends TokenClaims {
  readonly expiresAtMs: number
}

export const signToken = (
  key: webcrypto.CryptoKey,
  claims: TokenClaims & { readonly issuedAtMs: number; readonly expiresAtMs: number }
): Effect.Effect<string> =>
  Effect.promise(() =>
    new SignJWT({})
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setJti(claims.jti)
      .setSubject(claims.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(claims.issuedAtMs / 1000))
      .setExpirationTime(Math.floor(claims.expiresAtMs / 1000))
      .sign(key)
  )

/** The claims (and expiry) of a well-signed, unexpired session token at `nowMs`; None for anything else. */
const verifyClaims = (
  key: webcrypto.CryptoKey,
  token: string,
  nowMs: number
): Effect.Effect<Option.Option<TokenClaims & { readonly expiresAtMs: number }>> =>
  Effect.tryPromise({
    try: () =>
      jwtVerify(token, key, {
        algorithms: ["HS256"],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ["jti", "sub", "exp"],
        currentDate: new Date(nowMs)
      }),
    catch: (error) => error
  }).pipe(
    Effect.map(({ payload }) =>
      typeof payload.jti === "string" && typeof payload.sub === "string" && typeof payload.exp === "number"
        ? Option.some({ jti: payload.jti, sub: payload.sub, expiresAtMs: payload.exp * 1000 })
        : Option.none()
    ),
    // Every jose error means "not a valid session token"; anything else is a fault.
    Effect.catchAll((error) => (error instanceof errors.JOSEError ? Effect.succeed(Option.none()) : Effect.die(error)))
  )

/**
 * Verifies session tokens, remembering those whose signature checked out:
 * a signed-in panel sends the same token with every request, and checking an
 * HMAC through WebCrypto costs more than the rest of authenticating it. Only
 * the signature result is remembered; expiry is checked on every call (and the
 * caller still checks the session row, which is where revocation lives).
 * Bounded: past `capacity` tokens the oldest is forgotten.
 */
export const makeTokenVerifier = (key: webcrypto.CryptoKey, capacity = 10_000) => {
  const verified = new Map<string, VerifiedClaims>()
  return (token: string, nowMs: number): Effect.Effect<Option.Option<VerifiedClaims>> =>
    Effect.suspend(() => {
      const known = verified.get(token)
      if (known !== undefined) return Effect.succeed(known.expiresAtMs > nowMs ? Option.some(known) : Option.none())
      return Effect.tap(verifyClaims(key, token, nowMs), (claims) => {
        if (Option.isNone(claims)) return
        if (verified.size >= capacity) verified.delete(verified.keys().next().value!)
        verified.set(token, claims.value)
      })
    })
}
