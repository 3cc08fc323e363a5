/**
 * Appending one row to the chain, in one statement: the row carries the
 * position and the hash this process expects the chain to end with, and
 * the INSERT takes place only where `audit_head` still says so (a trigger,
 * migration 2, moves the head in the same statement). Inside a caller's
 * transaction that is one more statement of it (no savepoint); outside one
 * it is one autocommit, one fsync.
 *
 * The expected end is kept in memory and claimed under a semaphore that
 * guards only that (never the connection: a caller in a transaction holds
 * the connection, and a recorder waiting for it must not hold anything the
 * caller needs). When the database says otherwise (a caller's transaction
 * rolled back a row, another controller appended, the statements ran out
 * of order), the INSERT changes nothing or meets the primary key, and the
 * append reads the head again and retries: the chain never forks, however
 * the rows fare. On PostgreSQL, where transactions run side by side and a
 * failed statement aborts the caller's transaction, each append first takes
 * an advisory lock held to the end of the caller's transaction (see
 * `pgAppend`). Every text is put in its stored form (canonical.ts) before
 * it is hashed, so the row read back is the row that was hashed. New rows
 * are hashed with the current `HASH_VERSION` (chain.ts), which they store.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { AuditEntry } from "@garrison/runtime"
import type { AuditRow } from "../contract/Api.js"
import { AuditStoreError, storeError } from "../errors.js"
import { canonicalDetails, clampField } from "./canonical.js"
import { HASH_VERSION, rowHash } from "./chain.js"
import { chainedFields, toAuditRow } from "./rows.js"

interface Head {
  readonly seq: number
  readonly hash: string
}

/** A claimed position: the row as stored (but its hash), its hash, and the head it goes after. */
interface Claimed {
  readonly row: Omit<Parameters<typeof toAuditRow>[0], "hash">
  readonly hash: string
  readonly after: Head
}

/** How many times an append re-reads the head before it gives up: each retry means another writer moved it meanwhile. */
const ATTEMPTS = 8

export const makeAppend = (sql: SqlClient.SqlClient, lock: Effect.Semaphore) => {
  /** The end of the chain as this process expects it after the appends it has claimed; undefined: read it. */
  let expected: Head | undefined

  const readHead = Effect.flatMap(
    sql<{ readonly seq: number | string; readonly hash: string }>`SELECT seq, hash FROM audit_head WHERE id = 1`,
    ([head]) =>
      head === undefined
        ? Effect.fail(new AuditStoreError({ message: "the audit_head row is missing; GET /api/audit/verify for details" }))
        : Effect.succeed<Head>({ seq: Number(head.seq), hash: head.hash })
  )

  /** Claims the next position: the row to insert, chained to the end this process expects. */
  const claim = (entry: AuditEntry, details: string | null, fresh: boolean): Effect.Effect<Claimed, AuditStoreError | SqlError> =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        const head = fresh || expected === undefined ? yield* readHead : expected
        const row = {
          seq: head.seq + 1,
          at: new Date(yield* Clock.currentTimeMillis).toISOString(),
          actor: clampField(entry.actor),
          actor_name: clampField(entry.actorName ?? null),
          ip: clampField(entry.ip),
          action: clampField(entry.action) ?? "",
          target: clampField(entry.target),
          result: clampField(entry.result) ?? "",
          details,
          hash_version: HASH_VERSION,
          prev_hash: head.hash
        }
        const hash = rowHash(chainedFields(row))
        expected = { seq: row.seq, hash }
        return { row, hash, after: head }
      })
    )

  /** Inserts the row where the head is still `after`; answers whether it did. */
  const insert = (row: Claimed) =>
    sql<{ readonly seq: number | string }>`INSERT INTO audit_log
        (seq, at, actor, actor_name, ip, action, target, result, details, hash_version, prev_hash, hash)
      SELECT ${row.row.seq}, ${row.row.at}, ${row.row.actor}, ${row.row.actor_name}, ${row.row.ip}, ${row.row.action}, ${row.row.target},
        ${row.row.result}, ${row.row.details}, ${row.row.hash_version}, ${row.row.prev_hash}, ${row.hash}
      WHERE EXISTS (SELECT 1 FROM audit_head WHERE id = 1 AND seq = ${row.after.seq} AND hash = ${row.after.hash})
      RETURNING seq`.pipe(
      Effect.map((rows) => rows.length === 1),
      // The position was taken meanwhile (another controller): as good as a moved head.
      Effect.catchIf(isPositionTaken, () => Effect.succeed(false))
    )

  /** Claims and inserts until the head is where the claim expected it; `fresh`: read the head before the first claim too. */
  const appendClaimed = (entry: AuditEntry, details: string | null, fresh: boolean) =>
    Effect.gen(function* () {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const claimed = yield* claim(entry, details, fresh || attempt > 0)
        // Not inserted: the head is not where this process expected it; the next attempt reads it again.
        if (yield* insert(claimed)) return toAuditRow({ ...claimed.row, hash: claimed.hash })
      }
      yield* lock.withPermits(1)(Effect.sync(() => void (expected = undefined)))
      return yield* new AuditStoreError({ message: `the audit chain kept moving under ${ATTEMPTS} attempts to append; GET /api/audit/verify for details` })
    })

  /**
   * PostgreSQL runs transactions side by side on a pool of connections (and
   * several controllers may share the database), and a statement that fails
   * there aborts the caller's whole transaction: two appends must never race
   * to the same position. So each takes the chain's advisory lock first, held
   * until the caller's transaction ends (its own, when there is none), reads
   * the head under it and inserts after it. In a savepoint, so a failure
   * still leaves the caller's transaction usable.
   */
  const pgAppend = (entry: AuditEntry, details: string | null) =>
    sql.withTransaction(Effect.zipRight(sql`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK}::bigint)`, appendClaimed(entry, details, true)))

  return (entry: AuditEntry): Effect.Effect<AuditRow, AuditStoreError> =>
    Effect.gen(function* () {
      const details = yield* Effect.try({
        try: () => canonicalDetails(entry.details),
        catch: (cause) => new AuditStoreError({ message: `details cannot be encoded: ${String(cause)}` })
      })
      return yield* sql.onDialectOrElse({ pg: () => pgAppend(entry, details), orElse: () => appendClaimed(entry, details, false) })
    }).pipe(Effect.catchTag("SqlError", (error) => Effect.fail(storeError("cannot append an audit row")(error))))
}

/** The advisory lock key every controller's audit appends share on PostgreSQL: "garrison" as 8 bytes. */
export const AUDIT_CHAIN_LOCK = "7449361094368522094"

/** A primary-key clash on `audit_log.seq`: SQLite's `SQLITE_CONSTRAINT_PRIMARYKEY`, PostgreSQL's unique violation. */
const isPositionTaken = (error: SqlError): boolean => {
  const cause = error.cause as { readonly code?: unknown } | undefined
  return cause?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" || cause?.code === "23505"
}
