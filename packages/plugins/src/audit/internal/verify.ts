/**
 * Walking the chain from the first row: positions must run 1, 2, 3, ...
 * without gaps, each row must name the previous row's hash, each hash must
 * match its row as its `hash_version` lays it out (chain.ts; read as text,
 * or as WTF-8 bytes for rows written before text was made well-formed: see
 * legacy.ts), and the last row must agree with `audit_head`. Reads in
 * batches, up to the head as it was when the walk began, so rows appended
 * meanwhile neither slow it down nor confuse it.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type VerifyFailure, VerifyReport } from "../contract/Api.js"
import { type AuditStoreError, storeError } from "../errors.js"
import { GENESIS_HASH, hashMatches, isHashVersion } from "./chain.js"
import { wtf8Fields } from "./legacy.js"
import { chainedFields, COLUMNS, type StoredRow } from "./rows.js"

const BATCH = 1000

const broken = (checked: number, id: number, reason: VerifyFailure, message: string) =>
  new VerifyReport({ ok: false, checked, firstBrokenId: String(id), reason, message })

export const makeVerify = (sql: SqlClient.SqlClient): Effect.Effect<VerifyReport, AuditStoreError> => {
  const readHead = sql<{ readonly seq: number | string; readonly hash: string }>`
    SELECT seq, hash FROM audit_head WHERE id = 1`

  /** A row written before text was made well-formed: intact if its bytes, read as WTF-8, match its hash. */
  const intactAsWtf8 = (seq: number, hash: string) =>
    Effect.map(wtf8Fields(sql, seq), Option.exists((fields) => hashMatches(fields, hash)))

  const walk = Effect.gen(function* () {
    const [head] = yield* readHead
    if (head === undefined) {
      return new VerifyReport({
        ok: false,
        checked: 0,
        firstBrokenId: "1",
        reason: "head-mismatch",
        message: "the audit_head row is missing, so the end of the log cannot be checked"
      })
    }
    const last = Number(head.seq)
    let expected = 1
    let prev = GENESIS_HASH
    while (expected <= last) {
      const rows = yield* sql<StoredRow>`SELECT ${sql.literal(COLUMNS)} FROM audit_log
        WHERE seq >= ${expected} AND seq <= ${last} ORDER BY seq LIMIT ${BATCH}`
      if (rows.length === 0) break
      for (const row of rows) {
        const seq = Number(row.seq)
        const checked = expected - 1
        if (seq !== expected) {
          const gap = seq - 1 > expected ? `rows ${expected} to ${seq - 1} are` : `row ${expected} is`
          return broken(checked, seq, "missing-row", `${gap} missing before row ${seq}`)
        }
        if (row.prev_hash !== prev) {
          return broken(checked, seq, "broken-link", `row ${seq} does not name the hash of row ${seq - 1} as its predecessor`)
        }
        const fields = chainedFields(row)
        if (!hashMatches(fields, row.hash) && !(yield* intactAsWtf8(seq, row.hash))) {
          return broken(
            checked,
            seq,
            "altered-row",
            isHashVersion(fields.version)
              ? `row ${seq} does not match its own hash: it was changed after it was written`
              : `row ${seq} has a hash version this controller does not know (${String(row.hash_version)}): it was changed after it was written, or written by a newer controller`
          )
        }
        prev = row.hash
        expected++
      }
      yield* Effect.yieldNow()
    }
    const checked = expected - 1
    if (expected <= last) {
      return broken(checked, expected, "truncated", `the log ends at row ${checked} but the head records ${last} rows`)
    }
    if (prev !== head.hash) {
      return broken(checked, Math.max(last, 1), "head-mismatch", `the last row's hash does not match the one recorded in audit_head`)
    }
    // Rows past the head (compared in one statement, so an append cannot slip in between) mean it was wound back.
    const [beyond] = yield* sql<{ readonly first_seq: number | string | null }>`SELECT MIN(seq) AS first_seq FROM audit_log
      WHERE seq > (SELECT seq FROM audit_head WHERE id = 1)`
    if (beyond !== undefined && beyond.first_seq !== null) {
      const first = Number(beyond.first_seq)
      return broken(checked, first, "head-mismatch", `row ${first} and later lie beyond the end recorded in audit_head`)
    }
    return new VerifyReport({ ok: true, checked })
  })

  return walk.pipe(Effect.mapError(storeError("cannot verify the audit log")))
}
