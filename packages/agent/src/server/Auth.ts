/**
 * The agent key check: `Authorization: Bearer <key>`, compared in constant
 * time. Both sides are hashed to 32 bytes first, so neither the key's
 * length nor where a wrong key first differs shows in the time it takes.
 */
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

/** A check of the `Authorization` header; without a key (development, loopback only) every request passes. */
export const makeKeyCheck = (key: Redacted.Redacted<string> | undefined): ((authorization: string | undefined) => boolean) => {
  if (key === undefined) return () => true
  const expected = digest(Redacted.value(key))
  return (authorization) => {
    const match = authorization === undefined ? null : /^Bearer[ \t]+(.*)$/i.exec(authorization)
    // A missing or malformed header still costs one hash and one comparison.
    const given = digest(match === null ? "\u0000no-token" : match[1]!.trim())
    const equal = timingSafeEqual(given, expected)
    return match !== null && equal
  }
}
