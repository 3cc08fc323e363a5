/**
 * The SQL behind the priority queue: `priority_entries` reads and writes.
 * Every failure is a `PriorityStoreError` naming the operation.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { storeError } from "../errors.js"
import { decodeRows, type EntryJsonRow, type EntryRow, jsonColumns as jsonColumnsOf, priorityPaging, SELECT_COLUMNS } from "./rows.js"

/** Rows per multi-row INSERT: well under every database's bound-parameter limit. */
const INSERT_CHUNK = 500

/**
 * The advisory lock writers of `priority_entries` take on PostgreSQL, held to
 * the end of their transaction: "priority" as 8 bytes. Each write reads
 * `MAX(seq)` and the player's entry before it writes, and pooled transactions
 * would otherwise read the same ones side by side (a clash on `seq` or on
 * `platform_id` aborts the later one). SQLite writes one at a time anyway.
 */
export const PRIORITY_WRITE_LOCK = "8102654606974743673"

export interface PageQuery {
  readonly role?: string
  readonly active?: boolean
  /** Rows after this `seq`. */
  readonly after?: number
  readonly limit: number
  readonly nowIso: string
}

export const makeStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(SELECT_COLUMNS)
  const read = (operation: string) => <E extends { readonly message: string }, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    query.pipe(Effect.flatMap(decodeRows), Effect.mapError(storeError(operation)))

  const jsonColumns = sql.literal(jsonColumnsOf(sql))
  // Rows read back as JSON were checked on their way in: no decoding (see the runtime's JsonRows).
  const readJson = (operation: string) => <E extends { readonly message: string }, R>(query: Effect.Effect<ReadonlyArray<EntryJsonRow>, E, R>) =>
    Effect.mapError(query, storeError(operation))

  /** A page's rows in `selected`: the filters, cursor, order and limit that `page` and `pageJson` share. */
  const pageOf = <A extends object>(selected: typeof columns, query: PageQuery) => {
    const clauses = [
      ...(query.role === undefined ? [] : [sql`role = ${query.role}`]),
      ...(query.active === undefined
        ? []
        : query.active
          ? [sql`(expires_at IS NULL OR expires_at > ${query.nowIso})`]
          : [sql`(expires_at IS NOT NULL AND expires_at <= ${query.nowIso})`]),
      ...(query.after === undefined ? [] : [priorityPaging.after(sql, query.after)])
    ]
    return sql<A>`SELECT ${selected} FROM priority_entries WHERE ${sql.and(clauses)} ORDER BY ${sql.literal(priorityPaging.orderBy)} LIMIT ${query.limit}`
  }

  const page = (query: PageQuery) => read("list priority entries")(pageOf(columns, query))
  const pageJson = (query: PageQuery) => readJson("list priority entries")(pageOf<EntryJsonRow>(jsonColumns, query))

  const first = (rows: ReadonlyArray<EntryRow>) => Option.fromNullable(rows[0])

  const insertRows = (rows: ReadonlyArray<EntryRow>) =>
    Effect.forEach(
      Array.from({ length: Math.ceil(rows.length / INSERT_CHUNK) }, (_, i) => rows.slice(i * INSERT_CHUNK, (i + 1) * INSERT_CHUNK)),
      (chunk) =>
        sql`INSERT INTO priority_entries ${sql.insert(
          chunk.map((row) => ({
            id: row.id,
            seq: row.seq,
            platform_id: row.platformId,
            name: row.name,
            role: row.role,
            expires_at: row.expiresAt,
            added_by: row.addedBy,
            added_at: row.addedAt,
            source: row.source
          }))
        )}`,
      { discard: true }
    ).pipe(Effect.mapError(storeError("insert priority entries")))

  return {
    sql,
    /** Call first inside a writing transaction (see `PRIORITY_WRITE_LOCK`). */
    writeLock: sql
      .onDialectOrElse({
        pg: () => Effect.asVoid(sql`SELECT pg_advisory_xact_lock(${PRIORITY_WRITE_LOCK}::bigint)`),
        orElse: () => Effect.void
      })
      .pipe(Effect.mapError(storeError("lock the priority queue"))),
    page,
    pageJson,
    byId: (id: string) =>
      read("read a priority entry")(sql`SELECT ${columns} FROM priority_entries WHERE id = ${id}`).pipe(Effect.map(first)),
    byPlatformId: (platformId: string) =>
      read("read a priority entry")(sql`SELECT ${columns} FROM priority_entries WHERE platform_id = ${platformId}`).pipe(
        Effect.map(first)
      ),
    all: read("read priority entries")(sql`SELECT ${columns} FROM priority_entries ORDER BY seq`),
    /** Up to `size` entries' JSON after `seq` `after` (from the first when undefined), in `all`'s order: a chunk of the export. */
    chunkJson: (after: number | undefined, size: number) =>
      readJson("read priority entries")(
        sql<EntryJsonRow>`SELECT ${jsonColumns} FROM priority_entries
          WHERE ${after === undefined ? sql.literal("1=1") : priorityPaging.after(sql, after)}
          ORDER BY ${sql.literal(priorityPaging.orderBy)} LIMIT ${size}`
      ),
    platformIds: sql<{ platformId: string }>`SELECT platform_id AS "platformId" FROM priority_entries`.pipe(
      Effect.map((rows) => new Set(rows.map((r) => r.platformId))),
      Effect.mapError(storeError("read priority players"))
    ),
    activePlatformIds: (nowIso: string) =>
      sql<{ platformId: string }>`SELECT platform_id AS "platformId" FROM priority_entries
        WHERE expires_at IS NULL OR expires_at > ${nowIso} ORDER BY seq`.pipe(
        Effect.map((rows) => rows.map((r) => r.platformId)),
        Effect.mapError(storeError("read active priority players"))
      ),
    /** The earliest expiry after `nowIso` (epoch ms), when `priority.txt` next changes by itself. */
    nextExpiry: (nowIso: string) =>
      sql<{ next: string | null }>`SELECT MIN(expires_at) AS "next" FROM priority_entries WHERE expires_at > ${nowIso}`.pipe(
        Effect.map((rows) => Option.filter(Option.map(Option.fromNullable(rows[0]?.next), Date.parse), Number.isFinite)),
        Effect.mapError(storeError("read the next priority expiry"))
      ),
    expired: (nowIso: string) =>
      read("read expired priority entries")(
        sql`SELECT ${columns} FROM priority_entries WHERE expires_at IS NOT NULL AND expires_at <= ${nowIso} ORDER BY seq`
      ),
    /** The `seq` for the next row (call inside the inserting transaction). */
    nextSeq: sql<{ n: number | string | null }>`SELECT MAX(seq) AS n FROM priority_entries`.pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0) + 1),
      Effect.mapError(storeError("read the next priority position"))
    ),
    count: sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM priority_entries`.pipe(
      Effect.map((rows) => Number(rows[0]?.n ?? 0)),
      Effect.mapError(storeError("count priority entries"))
    ),
    insertRows,
    update: (row: EntryRow) =>
      sql`UPDATE priority_entries SET name = ${row.name}, role = ${row.role}, expires_at = ${row.expiresAt}, source = ${row.source}
        WHERE id = ${row.id}`.pipe(
        Effect.asVoid,
        Effect.mapError(storeError("update a priority entry"))
      ),
    remove: (id: string) =>
      sql`DELETE FROM priority_entries WHERE id = ${id}`.pipe(Effect.asVoid, Effect.mapError(storeError("delete a priority entry"))),
    removeExpired: (nowIso: string) =>
      sql`DELETE FROM priority_entries WHERE expires_at IS NOT NULL AND expires_at <= ${nowIso}`.pipe(
        Effect.asVoid,
        Effect.mapError(storeError("delete expired priority entries"))
      )
  }
})

export type PriorityStore = Effect.Effect.Success<typeof makeStore>
