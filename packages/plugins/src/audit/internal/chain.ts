/**
 * The hash chain, in plain functions so anyone can re-check an exported
 * trail: each row's hash is SHA-256 over a JSON array of its fields, hashed
 * as UTF-8 bytes, laid out by the row's `hashVersion`:
 *
 * - version 1 (rows written before rows named their actor):
 *   `[prevHash, at, actor, ip, action, target, result, details]`
 * - version 2: `[2, prevHash, at, actor, actorName, ip, action, target, result, details]`
 *
 * `details` is the stored canonical JSON text (or null). JSON array
 * encoding escapes every value, so two different rows never encode alike;
 * the version leads the array, so a row cannot be passed off as another
 * version. The fields are stored well-formed (see text.ts), so those bytes
 * are exactly what the database holds and gives back.
 */
import { createHash } from "node:crypto"

/** The `prevHash` of the first row. */
export const GENESIS_HASH = "0".repeat(64)

/** The version new rows are hashed with. */
export const HASH_VERSION = 2

export interface ChainedFields {
  /** How the row was hashed: 1 or 2 (`hash_version`). */
  readonly version: number
  readonly prevHash: string
  readonly at: string
  readonly actor: string | null
  /** Hashed from version 2 on; a version 1 row has none. */
  readonly actorName: string | null
  readonly ip: string | null
  readonly action: string
  readonly target: string | null
  readonly result: string
  readonly details: string | null
}

/** Whether this code knows how rows of `version` are hashed. */
export const isHashVersion = (version: number): boolean => version === 1 || version === 2

const encode = (row: ChainedFields): string => {
  switch (row.version) {
    case 1:
      return JSON.stringify([row.prevHash, row.at, row.actor, row.ip, row.action, row.target, row.result, row.details])
    case 2:
      return JSON.stringify([2, row.prevHash, row.at, row.actor, row.actorName, row.ip, row.action, row.target, row.result, row.details])
    default:
      throw new RangeError(`unknown audit hash version ${row.version}`)
  }
}

/** The row's hash, by its version; throws on a version `isHashVersion` refuses. */
export const rowHash = (row: ChainedFields): string => createHash("sha256").update(encode(row), "utf8").digest("hex")

/**
 * Whether `hash` is the hash of `row`. A version 1 hash cannot cover a name,
 * and such rows were all written before names were stored: one with a name
 * was edited.
 */
export const hashMatches = (row: ChainedFields, hash: string): boolean =>
  isHashVersion(row.version) && (row.version !== 1 || row.actorName === null) && rowHash(row) === hash
