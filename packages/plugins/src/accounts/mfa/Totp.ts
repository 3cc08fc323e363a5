/**
 * TOTP (RFC 6238) over `otpauth`: 6 digits, 30 s steps, HMAC-SHA1 (what
 * authenticator apps support). A code is accepted for the current step or
 * one step either side, and only for a step later than the last one used,
 * so the same code never works twice.
 */
import { HOTP, Secret, TOTP } from "otpauth"
import * as Option from "effect/Option"
import { safeEqual } from "../sessions/Csrf.js"

export const TOTP_ISSUER = "Garrison"
export const TOTP_PERIOD_SECONDS = 30
export const TOTP_DIGITS = 6
export const TOTP_ALGORITHM = "SHA1"
/** Steps accepted either side of now. */
export const TOTP_WINDOW = 1

export interface TotpParameters {
  readonly digits?: number
  readonly algorithm?: "SHA1" | "SHA256" | "SHA512"
  readonly periodSeconds?: number
}

/** A new random 160-bit secret, base32 (what authenticator apps take). */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32

/** The `otpauth://` URI for a QR code. */
export const otpauthUri = (secretBase32: string, account: string): string =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label: account,
    secret: Secret.fromBase32(secretBase32),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS
  }).toString()

export const stepAt = (timestampMs: number, periodSeconds = TOTP_PERIOD_SECONDS): number =>
  Math.floor(timestampMs / 1000 / periodSeconds)

/** The code of a time step. */
export const codeForStep = (secret: Secret, step: number, parameters: TotpParameters = {}): string =>
  HOTP.generate({
    secret,
    counter: step,
    digits: parameters.digits ?? TOTP_DIGITS,
    algorithm: parameters.algorithm ?? TOTP_ALGORITHM
  })

/** The code at a moment (RFC 6238's `TOTP(K, T)`). */
export const codeAt = (secret: Secret, timestampMs: number, parameters: TotpParameters = {}): string =>
  codeForStep(secret, stepAt(timestampMs, parameters.periodSeconds), parameters)

/**
 * The step `code` belongs to, within the window around `nowMs` and later
 * than `lastUsedStep`; None when there is no such step.
 */
export const matchStep = (
  secretBase32: string,
  code: string,
  nowMs: number,
  lastUsedStep: number | null
): Option.Option<number> => {
  const candidate = code.replace(/\s+/g, "")
  if (!/^\d+$/.test(candidate) || candidate.length !== TOTP_DIGITS) return Option.none()
  const secret = Secret.fromBase32(secretBase32)
  const now = stepAt(nowMs)
  for (let step = Math.max(0, now - TOTP_WINDOW); step <= now + TOTP_WINDOW; step++) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue
    if (safeEqual(codeForStep(secret, step), candidate)) return Option.some(step)
  }
  return Option.none()
}
