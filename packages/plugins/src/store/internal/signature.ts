/**
 * Stripe's webhook signature, checked on the raw body before anything reads
 * it: the header `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`
 * (other schemes such as `v0` are ignored), where each `v1` may be
 * `HMAC-SHA256(secret, "<t>.<raw body>")` in lower-case hex (several while
 * the provider rolls its secret: any one matching will do). The secret is
 * used as it is written (`whsec_...` included), as Stripe's libraries do.
 * Compared in constant time; the timestamp must lie within the tolerance of
 * now, either way (a signature from the future is as suspect as an old one).
 */
import { createHmac, timingSafeEqual } from "node:crypto"

/** Stripe's default: 5 minutes. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

/** The header, lower case as Node gives it. */
export const SIGNATURE_HEADER = "stripe-signature"

/** `HMAC-SHA256(secret, "<t>.<body>")` in hex: what the provider puts in `v1`. */
export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(body, "utf8").digest("hex")

/** The header value the provider would send for `body` at `timestamp` (for tests and stand-ins). */
export const signatureHeader = (secret: string, timestamp: number, body: string): string => `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`

export type SignatureCheck = { readonly ok: true; readonly timestamp: number } | { readonly ok: false; readonly message: string }

const HEX_SHA256 = /^[0-9a-f]{64}$/

const refused = (message: string): SignatureCheck => ({ ok: false, message })

export const verifySignature = (options: {
  readonly header: string | undefined
  readonly body: string
  readonly secret: string
  readonly nowSeconds: number
  readonly toleranceSeconds?: number
}): SignatureCheck => {
  const { header } = options
  if (header === undefined || header.trim() === "") return refused("Stripe-Signature: the header is missing")
  if (header.length > 4096) return refused("Stripe-Signature: the header is too long")
  let timestamp: number | undefined
  const candidates: Array<string> = []
  for (const part of header.split(",")) {
    const at = part.indexOf("=")
    if (at <= 0) return refused("Stripe-Signature: expected t=<unix seconds>,v1=<hex signature>")
    const key = part.slice(0, at).trim()
    const value = part.slice(at + 1).trim()
    if (key === "t") {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return refused("Stripe-Signature: t must be one timestamp in unix seconds")
      timestamp = Number(value)
    } else if (key === "v1") candidates.push(value.toLowerCase())
  }
  if (timestamp === undefined) return refused("Stripe-Signature: no timestamp (t=...)")
  if (candidates.length === 0) return refused("Stripe-Signature: no v1 signature")
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS
  if (Math.abs(options.nowSeconds - timestamp) > tolerance) {
    return refused(`Stripe-Signature: the timestamp is more than ${tolerance} seconds from now (a replay, or a clock that is off)`)
  }
  const expected = Buffer.from(signatureOf(options.secret, timestamp, options.body), "hex")
  // Every candidate is compared (no early exit on the first mismatch), each in constant time.
  let matched = false
  for (const candidate of candidates) {
    if (!HEX_SHA256.test(candidate)) continue
    if (timingSafeEqual(Buffer.from(candidate, "hex"), expected)) matched = true
  }
  return matched ? { ok: true, timestamp } : refused("Stripe-Signature: no v1 signature matches the body (a wrong signing secret, or an altered body)")
}
