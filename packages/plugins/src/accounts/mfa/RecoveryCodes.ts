/**
 * One-time recovery codes: ten random 80-bit codes shown once when MFA is
 * turned on, stored as SHA-256 hashes (a slow hash adds nothing at 80 bits
 * of entropy, and login would pay for ten of them).
 */
import { createHash, randomInt } from "node:crypto"

export const RECOVERY_CODE_COUNT = 10
// Crockford-style base32 without look-alikes.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"

/** `xxxx-xxxx-xxxx-xxxx`, 16 characters of a 31-letter alphabet (~79 bits). */
export const newRecoveryCode = (): string => {
  const groups: Array<string> = []
  for (let g = 0; g < 4; g++) {
    let group = ""
    for (let i = 0; i < 4; i++) group += ALPHABET[randomInt(ALPHABET.length)]
    groups.push(group)
  }
  return groups.join("-")
}

/** Case, spaces and dashes do not matter when a person types one back. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, "")

export const looksLikeRecoveryCode = (code: string): boolean => /^[a-z0-9]{16}$/.test(normalizeRecoveryCode(code))

export const hashRecoveryCode = (code: string): string =>
  createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex")
