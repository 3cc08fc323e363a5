/**
 * Keyset paging for one list, from its cursor codec and its sort key. Every
 * list repeats the same three steps, and here they come from one
 * description so they cannot disagree: the request's `cursor` decoded (or
 * the one `InvalidCursor`), the condition "after this position" in
 * portable SQL (or the same test in memory, for lists read whole), and the
 * page with the next cursor (`pageOfRows`).
 *
 *   const banPaging = Keyset.make({
 *     cursor: banCursor,
 *     key: [
 *       { column: "banned_at", direction: "desc", value: (p) => p.bannedAt },
 *       { column: "id", direction: "desc", value: (p) => p.id }
 *     ],
 *     positionOf: (ban: Ban) => ({ bannedAt: ban.bannedAt, id: ban.id })
 *   })
 *   const after = yield* banPaging.decode(params.cursor)
 *   if (after !== undefined) clauses.push(banPaging.after(sql, after))
 *   const rows = yield* sql`SELECT ... WHERE ${sql.and(clauses)}
 *     ORDER BY ${sql.literal(banPaging.orderBy)} LIMIT ${limit + 1}`
 *   return banPaging.page(rows, limit)
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import type * as Effect from "effect/Effect"
import { type CursorCodec, decodeCursor, type InvalidCursor, type PageOf, pageOfRows } from "./Page.js"

/** What a sort column holds in a position: text or a number (a flag as 0/1, as it is stored). */
export type KeyValue = string | number

export interface KeyPart<Position> {
  /**
   * The column as the query sorts by it (`seq`, `n.seq`, `banned_at`). It is
   * written into the SQL as it is, so it comes from code, never from input.
   */
  readonly column: string
  readonly direction: "asc" | "desc"
  /** The column's value in a position. */
  readonly value: (position: Position) => KeyValue
}

/** The sort key, most significant column first; a position is unique in it (end with an id). */
export type SortKey<Position> = readonly [KeyPart<Position>, ...Array<KeyPart<Position>>]

export interface KeysetPaging<Position, Row> {
  readonly cursor: CursorCodec<Position>
  readonly key: SortKey<Position>
  /** A row's position: what its cursor holds. */
  readonly positionOf: (row: Row) => Position
  /** The key as an `ORDER BY` list, `banned_at DESC, id DESC`: `ORDER BY ${sql.literal(paging.orderBy)}`. */
  readonly orderBy: string
  /** The request's cursor: undefined for the first page, `InvalidCursor` for one this list did not issue. */
  readonly decode: (cursor: string | undefined) => Effect.Effect<Position | undefined, InvalidCursor>
  /**
   * "Strictly after `position` in the key's order", as portable SQL (SQLite
   * and PostgreSQL, any mix of directions): `seq < ?` for one column,
   * `(a < ? OR (a = ? AND b < ?))` for two, and so on.
   */
  readonly after: (sql: SqlClient.SqlClient, position: Position) => Statement.Fragment
  /** The same test in memory: whether `position` comes strictly after `other` in the key's order. */
  readonly follows: (position: Position, other: Position) => boolean
  /** The page in `rows` read with `LIMIT limit + 1` (see `pageOfRows`), its cursor the last row's position. */
  readonly page: <R extends Row>(rows: ReadonlyArray<R>, limit: number) => PageOf<R>
  /** For a list read whole and sorted by the key: the page after `after` (from the start when undefined). */
  readonly pageOf: <R extends Row>(sorted: ReadonlyArray<R>, limit: number, after: Position | undefined) => PageOf<R>
}

export interface KeysetOptions<Position, Row> {
  /** The list's cursors (`cursorCodec`): their format is the list's contract, so it stays as released. */
  readonly cursor: CursorCodec<Position>
  readonly key: SortKey<Position>
  /** A row's position, what its cursor holds (rows with more columns than it reads page too). */
  readonly positionOf: (row: Row) => Position
}

export const make = <Position, Row>({ cursor, key, positionOf }: KeysetOptions<Position, Row>): KeysetPaging<Position, Row> => {
  const after = (sql: SqlClient.SqlClient, position: Position): Statement.Fragment => {
    const from = (index: number): Statement.Fragment => {
      const { column, direction, value } = key[index]!
      const name = sql.literal(column)
      const at = value(position)
      const beyond = direction === "asc" ? sql`${name} > ${at}` : sql`${name} < ${at}`
      return index === key.length - 1 ? beyond : sql`(${beyond} OR (${name} = ${at} AND ${from(index + 1)}))`
    }
    return from(0)
  }

  const follows = (position: Position, other: Position): boolean => {
    for (const { direction, value } of key) {
      const mine = value(position)
      const theirs = value(other)
      if (mine !== theirs) return direction === "asc" ? mine > theirs : mine < theirs
    }
    return false
  }

  const page = <R extends Row>(rows: ReadonlyArray<R>, limit: number) => pageOfRows(rows, limit, (last) => cursor.encode(positionOf(last)))

  return {
    cursor,
    key,
    positionOf,
    orderBy: key.map(({ column, direction }) => `${column} ${direction.toUpperCase()}`).join(", "),
    decode: (text) => decodeCursor(cursor, text),
    after,
    follows,
    page,
    pageOf: (sorted, limit, from) =>
      page((from === undefined ? sorted : sorted.filter((row) => follows(positionOf(row), from))).slice(0, limit + 1), limit)
  }
}
