/**
 * CSRF for cookie sessions: OWASP's signed double-submit cookie. The
 * `csrf-token` cookie holds HMAC(key, session id); a mutating request must
 * echo it in `X-CSRF-Token`. Echoing the cookie is not enough: the value
 * must also be the one bound to the session of the `auth-token` cookie, so a
 * cookie planted by another site (or a sibling subdomain) does not pass.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export const CSRF_COOKIE = "csrf-token"
export const CSRF_HEADER = "x-csrf-token"

/** The CSRF token bound to a session. */
export const csrfTokenFor = (key: Uint8Array, jti: string): string =>
  createHmac("sha256", key).update(`csrf:${jti}`).digest("base64url")

/** Constant-time string equality (length may leak; values do not). */
export const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** The header matches the cookie, and both are the token of session `jti`. */
export const csrfValid = (
  key: Uint8Array,
  jti: string,
  header: string | undefined,
  cookie: string | undefined
): boolean =>
  header !== undefined &&
  cookie !== undefined &&
  header.length > 0 &&
  safeEqual(header, cookie) &&
  safeEqual(header, csrfTokenFor(key, jti))
