/**
 * Signing secrets and signatures of HTTP deliveries, the scheme payment
 * providers use: `X-Garrison-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "${t}.${body}" keyed with the secret>`. `t` is the time of
 * the attempt, so a retry carries a fresh one and a receiver can refuse
 * old ones (5 minutes is usual); the body is the same on every attempt.
 */
import { createHmac, randomBytes } from "node:crypto"

/** A new secret: `whsec_` and 32 random bytes, base64url. The whole string is the HMAC key. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString("base64url")}`

export const signature = (secret: string, unixSeconds: number, body: string): string =>
  createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex")

/** The header's value. */
export const signatureHeader = (secret: string, unixSeconds: number, body: string): string =>
  `t=${unixSeconds},v1=${signature(secret, unixSeconds, body)}`
