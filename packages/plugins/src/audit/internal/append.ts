/**
 * Appending one row to the chain. The transaction is the outer layer and the
 * semaphore the inner one, so a caller already inside a transaction (holding
 * the connection) can record without deadlocking against another recorder
 * that holds the semaphore and waits for the connection. Every text is put
 * in its stored form (canonical.ts) before it is hashed, so the row read
 * back is the row that was hashed.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { AuditEntry } from "@garrison/runtime"
import type { AuditRow } from "../contract/Api.js"
import { AuditStoreError, storeError } from "../errors.js"
import { canonicalDetails, clampField } from "./canonical.js"
import { rowHash } from "./chain.js"
import { toAuditRow } from "./rows.js"

export const makeAppend = (sql: SqlClient.SqlClient, lock: Effect.Semaphore) =>
  (entry: AuditEntry): Effect.Effect<AuditRow, AuditStoreError> =>
    Effect.gen(function* () {
      const details = yield* Effect.try({
        try: () => canonicalDetails(entry.details),
        catch: (cause) => new AuditStoreError({ message: `details cannot be encoded: ${String(cause)}` })
      })
      // Claim the next position first: on PostgreSQL this locks the head row until commit,
      // so even several controllers cannot fork the chain.
      yield* sql`UPDATE audit_head SET seq = seq + 1 WHERE id = 1`
      const [head] = yield* sql<{ readonly seq: number | string; readonly hash: string }>`
        SELECT seq, hash FROM audit_head WHERE id = 1`
      if (head === undefined) {
        return yield* new AuditStoreError({ message: "the audit_head row is missing; GET /api/audit/verify for details" })
      }
      const at = new Date(yield* Clock.currentTimeMillis).toISOString()
      const row = {
        seq: Number(head.seq),
        at,
        actor: clampField(entry.actor),
        ip: clampField(entry.ip),
        action: clampField(entry.action) ?? "",
        target: clampField(entry.target),
        result: clampField(entry.result) ?? "",
        details,
        prev_hash: head.hash
      }
      const hash = rowHash({ ...row, prevHash: row.prev_hash })
      yield* sql`INSERT INTO audit_log (seq, at, actor, ip, action, target, result, details, prev_hash, hash)
        VALUES (${row.seq}, ${row.at}, ${row.actor}, ${row.ip}, ${row.action}, ${row.target}, ${row.result},
          ${row.details}, ${row.prev_hash}, ${hash})`
      yield* sql`UPDATE audit_head SET hash = ${hash} WHERE id = 1`
      return toAuditRow({ ...row, hash })
    }).pipe(
      lock.withPermits(1),
      sql.withTransaction,
      Effect.catchTag("SqlError", (error) => Effect.fail(storeError("cannot append an audit row")(error)))
    )
