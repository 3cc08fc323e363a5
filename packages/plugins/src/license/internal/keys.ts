/**
 * The plugin's secrets: the key that seals the stored license, and the
 * random bytes this controller's machine id (which tokens are bound to) is
 * derived from.
 */
import type { SealingKey } from "@garrison/runtime"
import { createHash } from "node:crypto"

/** Seals the stored license key and token (AES-256-GCM). */
export const LICENSE_KEY = {
  name: "license-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the stored license key and license token (AES-256-GCM)",
    ifReplaced: "the stored license becomes unreadable: activate it again"
  }
} as const satisfies SealingKey

/** The random bytes this controller's machine id is derived from (generated on first start, kept in the data directory). */
export const MACHINE_ID_SECRET = {
  name: "license-machine-id",
  spec: {
    bytes: 16,
    what: "the random value this controller's license machine id is derived from",
    ifReplaced: "the machine id changes and the license no longer matches it: activate the license again"
  }
} as const

/** `gm-` and 32 hex digits of SHA-256 over a label and the bytes: stable for a data directory, and tells nothing of the bytes. */
export const machineIdOf = (bytes: Uint8Array): string =>
  `gm-${createHash("sha256").update("garrison-machine-id\0").update(bytes).digest("hex").slice(0, 32)}`
