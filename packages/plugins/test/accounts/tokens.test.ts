/**
 * The session token verifier: it remembers tokens whose signature checked
 * out, but never lets a remembered token outlive its expiry, and never
 * accepts a token it did not verify.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { importSigningKey, makeTokenVerifier, signToken } from "../../src/accounts/sessions/Tokens.js"

const HOUR = 3_600_000

describe("session token verifier", () => {
  it.effect("accepts its own tokens until they expire, also when remembered", () =>
    Effect.gen(function* () {
      const key = yield* importSigningKey(randomBytes(32))
      const verify = makeTokenVerifier(key)
      const token = yield* signToken(key, { jti: "j1", sub: "u1", issuedAtMs: 0, expiresAtMs: HOUR })
      expect(yield* verify(token, 1_000)).toEqual(Option.some({ jti: "j1", sub: "u1", expiresAtMs: HOUR }))
      // Remembered now; still refused once the hour is over.
      expect(yield* verify(token, 2_000)).toEqual(Option.some({ jti: "j1", sub: "u1", expiresAtMs: HOUR }))
      expect(yield* verify(token, HOUR)).toEqual(Option.none())
      expect(yield* verify(token, HOUR + 1_000)).toEqual(Option.none())
    })
  )

  it.effect("refuses a token signed with another key or altered, even after its twin was remembered", () =>
    Effect.gen(function* () {
      const key = yield* importSigningKey(randomBytes(32))
      const other = yield* importSigningKey(randomBytes(32))
      const verify = makeTokenVerifier(key)
      const good = yield* signToken(key, { jti: "j1", sub: "u1", issuedAtMs: 0, expiresAtMs: HOUR })
      expect(Option.isSome(yield* verify(good, 1_000))).toBe(true)
      const forged = yield* signToken(other, { jti: "j1", sub: "u1", issuedAtMs: 0, expiresAtMs: HOUR })
      expect(yield* verify(forged, 1_000)).toEqual(Option.none())
      const [header, , signature] = good.split(".")
      const payload = Buffer.from(JSON.stringify({ jti: "j1", sub: "admin", iss: "garrison", aud: "garrison-session", exp: 3600 })).toString("base64url")
      expect(yield* verify(`${header}.${payload}.${signature}`, 1_000)).toEqual(Option.none())
    })
  )

  it.effect("forgets the oldest token past its capacity, and verifies it again when it comes back", () =>
    Effect.gen(function* () {
      const key = yield* importSigningKey(randomBytes(32))
      const verify = makeTokenVerifier(key, 2)
      const tokens = yield* Effect.forEach(["a", "b", "c"], (jti) =>
        signToken(key, { jti, sub: "u", issuedAtMs: 0, expiresAtMs: HOUR })
      )
      for (const token of tokens) expect(Option.isSome(yield* verify(token, 1_000))).toBe(true)
      expect(yield* verify(tokens[0]!, 1_000)).toEqual(Option.some({ jti: "a", sub: "u", expiresAtMs: HOUR }))
    })
  )
})
