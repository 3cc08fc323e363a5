/**
 * TOTP secrets are encrypted at rest (AES-256-GCM, key in the data
 * directory's secrets), so a copy of the database alone does not hand out
 * second factors. The owning user's id is authenticated data: a ciphertext
 * moved to another user's row does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import * as Option from "effect/Option"
import type { SecretSpec } from "@garrison/runtime"

export const MFA_KEY_NAME = "accounts-mfa-key"

/** AES-256 takes exactly 32 bytes; a new key cannot open the secrets sealed with the old one. */
export const MFA_KEY_SPEC: SecretSpec = {
  bytes: 32,
  exact: true,
  what: "the key that encrypts MFA secrets (AES-256-GCM)",
  ifReplaced:
    "every enrolled MFA secret becomes unreadable: those users sign in with a recovery code, or an admin turns their MFA off, and they enrol again"
}
const VERSION = "v1"

export const seal = (key: Uint8Array, plaintext: string, owner: string): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(Buffer.from(owner))
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return [VERSION, iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".")
}

/** None when the value was not sealed with this key for this owner. */
export const open = (key: Uint8Array, sealed: string, owner: string): Option.Option<string> => {
  const [version, iv, body, tag] = sealed.split(".")
  if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) return Option.none()
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
    decipher.setAAD(Buffer.from(owner))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Option.some(Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8"))
  } catch {
    return Option.none()
  }
}
