/** Rows as stored, and their API form. */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { AuditRow } from "../contract/Api.js"
import type { ChainedFields } from "./chain.js"

export interface StoredRow {
  readonly seq: number | string
  readonly at: string
  readonly actor: string | null
  readonly ip: string | null
  readonly action: string
  readonly target: string | null
  readonly result: string
  readonly details: string | null
  readonly prev_hash: string
  readonly hash: string
}

export const COLUMNS = "seq, at, actor, ip, action, target, result, details, prev_hash, hash"

export const chainedFields = (row: StoredRow): ChainedFields => ({
  prevHash: row.prev_hash,
  at: row.at,
  actor: row.actor,
  ip: row.ip,
  action: row.action,
  target: row.target,
  result: row.result,
  details: row.details
})

const decodeDetails = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
)

/** Total: a row edited into nonsense is still listed (verify reports it), never a 500. */
export const toAuditRow = (row: StoredRow): AuditRow =>
  new AuditRow({
    id: String(row.seq),
    at: row.at,
    actor: row.actor,
    ip: row.ip,
    action: row.action,
    target: row.target,
    result: row.result,
    details: row.details === null
      ? null
      : Option.getOrElse(decodeDetails(row.details), () => ({ unreadable: row.details })),
    prevHash: row.prev_hash,
    hash: row.hash
  })
