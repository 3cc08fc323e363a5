/**
 * TOTP secrets are sealed at rest by the runtime's `SealedSecrets` (AES-256-GCM,
 * key in `<data>/secrets/accounts-mfa-key.key`), so a copy of the database
 * alone does not hand out second factors. The owning user's id is the
 * context: a ciphertext moved to another user's row does not open. Secrets
 * sealed before `SealedSecrets` existed (`v1.<iv>.<body>.<tag>`, same key)
 * still open.
 */
import type { SealingKey } from "@garrison/runtime"

/** AES-256 takes exactly 32 bytes; a new key cannot open the secrets sealed with the old one. */
export const MFA_KEY = {
  name: "accounts-mfa-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts MFA secrets (AES-256-GCM)",
    ifReplaced:
      "every enrolled MFA secret becomes unreadable: those users sign in with a recovery code, or an admin turns their MFA off, and they enrol again"
  }
} as const satisfies SealingKey
