/**
 * The hash chain, in plain functions so anyone can re-check an exported
 * trail: each row's hash is SHA-256 over the JSON array
 * `[prevHash, at, actor, ip, action, target, result, details]`, where
 * `details` is the stored canonical JSON text (or null), hashed as UTF-8
 * bytes. JSON array encoding escapes every value, so two different rows
 * never encode alike. The fields are stored well-formed (see text.ts), so
 * those bytes are exactly what the database holds and gives back.
 */
import { createHash } from "node:crypto"

/** The `prevHash` of the first row. */
export const GENESIS_HASH = "0".repeat(64)

export interface ChainedFields {
  readonly prevHash: string
  readonly at: string
  readonly actor: string | null
  readonly ip: string | null
  readonly action: string
  readonly target: string | null
  readonly result: string
  readonly details: string | null
}

export const rowHash = (row: ChainedFields): string =>
  createHash("sha256")
    .update(
      JSON.stringify([row.prevHash, row.at, row.actor, row.ip, row.action, row.target, row.result, row.details]),
      "utf8"
    )
    .digest("hex")
