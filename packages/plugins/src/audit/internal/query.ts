/** Filtered, keyset-paginated reads, newest first: decoded (`query`), or as the database's JSON (`queryJson`). */
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import { effectiveLimit, type InvalidCursor, type JsonRow, type PageOf } from "@garrison/runtime"
import { type AuditResult, AuditPage, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../contract/Api.js"
import { type AuditStoreError, storeError } from "../errors.js"
import { auditPaging } from "./cursor.js"
import { wellFormed } from "./text.js"
import { type AuditJsonRow, type AuditPgJsonRow, COLUMNS, decodedJson, jsonColumns, pgRowJson, type StoredRow, toAuditRow } from "./rows.js"

export interface AuditFilter {
  /** Exact actor id or actor name. */
  readonly actor?: string | undefined
  /** Exact action, or a prefix when it ends with `.` or `*`. */
  readonly action?: string | undefined
  /** At or after. */
  readonly from?: Date | undefined
  /** Strictly before. */
  readonly to?: Date | undefined
  readonly result?: AuditResult | undefined
  /** 1 to 500; 50 when absent. */
  readonly limit?: number | undefined
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
}

const actionCondition = (sql: SqlClient.SqlClient, action: string): Statement.Fragment | undefined => {
  const prefix = action.endsWith("*") ? action.slice(0, -1) : action.endsWith(".") ? action : undefined
  if (prefix === undefined) return sql`action = ${action}`
  if (prefix.length === 0) return undefined
  // substr, not LIKE: LIKE is case-insensitive on SQLite and treats % and _ as wildcards.
  return sql`substr(action, 1, ${[...prefix].length}) = ${prefix}`
}

/**
 * Rows whose actor id or name is `actor`, under `conditions`: the newest
 * `count` by id and the newest `count` by name, each read down its own
 * index, hold the newest `count` by either. (`actor = ? OR actor_name = ?`
 * reads and sorts every row of the actor for each page.)
 */
const byActor = (sql: SqlClient.SqlClient, actor: string, conditions: ReadonlyArray<Statement.Fragment>, count: number) => {
  const newest = (column: "actor" | "actor_name") =>
    sql`SELECT seq FROM audit_log WHERE ${sql.and([sql`${sql.literal(column)} = ${actor}`, ...conditions])}
      ORDER BY ${sql.literal(auditPaging.orderBy)} LIMIT ${count}`
  return sql`seq IN (SELECT seq FROM (${newest("actor")}) AS by_id UNION SELECT seq FROM (${newest("actor_name")}) AS by_name)`
}

/** One page of `columns` under the filter, its cursor and its limit: what `query` and `queryJson` share. */
const readPage = <Row extends { readonly seq: number | string }>(sql: SqlClient.SqlClient, columns: string, filter: AuditFilter) =>
  Effect.gen(function* () {
    const limit = effectiveLimit(filter.limit, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE })
    const conditions: Array<Statement.Fragment> = []
    const after = yield* auditPaging.decode(filter.cursor)
    if (after !== undefined) conditions.push(auditPaging.after(sql, after))
    // Filters take the stored form too, so a value with a lone surrogate finds its rows.
    if (filter.action !== undefined) {
      const condition = actionCondition(sql, wellFormed(filter.action))
      if (condition !== undefined) conditions.push(condition)
    }
    if (filter.from !== undefined) conditions.push(sql`at >= ${filter.from.toISOString()}`)
    if (filter.to !== undefined) conditions.push(sql`at < ${filter.to.toISOString()}`)
    if (filter.result !== undefined) conditions.push(sql`result = ${filter.result}`)

    const matching = filter.actor === undefined ? sql.and(conditions) : byActor(sql, wellFormed(filter.actor), conditions, limit + 1)
    // One row more than asked says whether another page exists.
    const rows = yield* sql<Row>`SELECT ${sql.literal(columns)} FROM audit_log
      WHERE ${matching} ORDER BY ${sql.literal(auditPaging.orderBy)} LIMIT ${limit + 1}`.pipe(
      Effect.mapError(storeError("cannot read the audit log"))
    )
    return auditPaging.page(rows, limit)
  })

export const makeQuery = (sql: SqlClient.SqlClient) =>
  (filter: AuditFilter): Effect.Effect<AuditPage, AuditStoreError | InvalidCursor> =>
    Effect.map(
      readPage<StoredRow>(sql, COLUMNS, filter),
      (page) => new AuditPage({ items: page.items.map(toAuditRow), nextCursor: page.nextCursor })
    )

export const makeQueryJson = (sql: SqlClient.SqlClient): (filter: AuditFilter) => Effect.Effect<PageOf<JsonRow>, AuditStoreError | InvalidCursor> =>
  sql.onDialectOrElse({
    // The JSON around `details` from the database, `details` written here (see jsonColumns): one statement.
    pg: () => (filter) =>
      Effect.map(readPage<AuditPgJsonRow>(sql, jsonColumns(sql), filter), (page) => ({
        items: page.items.map((row) => ({ json: pgRowJson(row) })),
        nextCursor: page.nextCursor
      })),
    orElse: () => (filter) =>
      Effect.gen(function* () {
        const page = yield* readPage<AuditJsonRow>(sql, jsonColumns(sql), filter)
        const odd = page.items.flatMap((row) => (row.json === null ? [Number(row.seq)] : []))
        // No null left: every row's JSON is the database's.
        if (odd.length === 0) return page as PageOf<JsonRow>
        // Details the database and JavaScript may read apart (see jsonColumns; rare), read again as `query` reads them.
        const decoded = decodedJson(
          yield* sql<StoredRow>`SELECT ${sql.literal(COLUMNS)} FROM audit_log WHERE ${sql.in("seq", odd)}`.pipe(
            Effect.mapError(storeError("cannot read the audit log"))
          )
        )
        // A row deleted between the two reads is left out, as a read after the deletion would.
        const items = page.items.flatMap((row) => {
          const json = row.json ?? decoded.get(Number(row.seq))
          return json === undefined ? [] : [{ json }]
        })
        return { items, nextCursor: page.nextCursor }
      })
  })
