/**
 * Lists and exports at the cost of the data. Rows read back from our own
 * database were checked on their way in, so a list does not decode them
 * into classes and encode them again, field by field, for every request:
 * the database writes each row's JSON (`jsonSql`: SQLite's `json_object`,
 * on PostgreSQL the same text put together from `to_json` pieces), and the
 * response is those texts joined. A page is one string
 * (`jsonPageResponse`); an export streams chunk by chunk (`jsonArrayResponse`
 * over `keysetChunks`), each chunk one keyset query, so a large export
 * neither builds one huge string nor holds the event loop while it is sent:
 * between chunks it lets every other request go first.
 *
 * The endpoint still declares its schema (the OpenAPI document and typed
 * clients read it); the list's tests hold the JSON to it and to the decoded
 * rows, on both engines. What each engine writes, and what differs from
 * JavaScript's `JSON.stringify` (numbers that are not integers, NUL, lone
 * surrogates), is `jsonSql`'s to say: see below and docs/database.md.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import { createHash } from "node:crypto"
import { Readable } from "node:stream"
import type { PageOf } from "./Page.js"

/** A row as the list reads it: its JSON text (alias `json` in the query), plus whatever the sort key needs. */
export interface JsonRow {
  readonly json: string
}

/** Which SQL a `JsonSql` writes: SQLite's JSON functions, or PostgreSQL's. */
export type JsonDialect = "sqlite" | "pg"

/**
 * A SQL expression whose value is JSON, made by a `JsonSql`: on SQLite a
 * value of its JSON functions (`json_object` takes it in as JSON, not as a
 * string), on PostgreSQL JSON text. Only a `JsonSql` of the same dialect
 * takes it in.
 */
export interface JsonSqlValue {
  readonly _tag: "JsonSqlValue"
  readonly dialect: JsonDialect
  readonly sql: string
  /** Whether the expression may be SQL NULL (then it is written `null`). */
  readonly nullable: boolean
}

/**
 * JSON written by the database, in one dialect. Field names and SQL
 * expressions come from code, never from input: they are written into the
 * SQL as they are (names must be plain identifiers).
 *
 * A field's value is a `JsonSqlValue`, or a SQL expression (a string) of a
 * column's type: text (a JSON string, escaped as `JSON.stringify` does:
 * `\"`, `\\`, `\b \f \n \r \t`, `\u00xx` for the other control characters,
 * everything else as it is), an integer (digits: keep it within 2^53, as
 * JavaScript reads it), or NULL (`null`). Not for other types:
 * a boolean stored as INTEGER 0/1 is written 0/1 (use `boolean`), and a
 * REAL/DOUBLE is not written as JavaScript writes it (PostgreSQL: `1e-07`,
 * `-0`, `"NaN"`; SQLite: 15 significant digits, `1.0e+21`, `0.0`), so keep
 * those out of JSON built in SQL.
 *
 * On PostgreSQL an object is `'{"name":' || to_json(x)::text || ...`, not
 * `json_build_object` (which writes `{"name" : x, ...}`, with spaces) nor
 * `jsonb` (which sorts the keys and rewrites numbers): the same bytes as
 * SQLite's `json_object` and JavaScript's `JSON.stringify`, in the fields'
 * order.
 */
export interface JsonSql {
  readonly dialect: JsonDialect
  /** `{"name": value, ...}` in the fields' order. */
  readonly object: (fields: Readonly<Record<string, string | JsonSqlValue>>) => JsonSqlValue
  /** `true` or `false` from a SQL condition (never `null`). */
  readonly boolean: (condition: string) => JsonSqlValue
  /** A constant JSON string, as a field's value (or a branch of a `raw` CASE): `'all'` on SQLite, `'"all"'` on PostgreSQL. */
  readonly string: (value: string) => JsonSqlValue
  /** `null`, as a field's value. */
  readonly null: JsonSqlValue
  /**
   * Text that is JSON already, taken in as it is (SQLite: `json(expr)`,
   * which minifies; PostgreSQL: the text, byte for byte). Only for text
   * checked to be JSON in the same query: on PostgreSQL invalid text would
   * make invalid output.
   */
  readonly parse: (expression: string) => JsonSqlValue
  /**
   * A SQL expression whose values are JSON of this dialect (a CASE over
   * `object`s and `string`s, say), as a field's value; `nullable` when it
   * may be SQL NULL.
   */
  readonly raw: (expression: string, options?: { readonly nullable?: boolean }) => JsonSqlValue
  /** The SQL of a value, to put inside a `raw` expression of the same dialect. */
  readonly sqlOf: (value: JsonSqlValue) => string
  /** The value as the text a query selects (`... AS json`). */
  readonly text: (value: JsonSqlValue) => string
}

const checkName = (name: string): string => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`jsonSql: "${name}" is not a plain field name`)
  return name
}

const makeJsonSql = (
  dialect: JsonDialect,
  write: {
    readonly object: (members: ReadonlyArray<readonly [string, string | JsonSqlValue]>, sqlOf: (value: JsonSqlValue) => string) => string
    readonly boolean: (condition: string) => string
    readonly string: (value: string) => string
    readonly null: string
    readonly parse: (expression: string) => string
  }
): JsonSql => {
  const value = (sql: string, nullable: boolean): JsonSqlValue => ({ _tag: "JsonSqlValue", dialect, sql, nullable })
  const sqlOf = (json: JsonSqlValue): string => {
    if (json.dialect !== dialect) throw new Error(`jsonSql: a ${json.dialect} value in ${dialect} SQL`)
    return json.sql
  }
  return {
    dialect,
    object: (fields) => value(write.object(Object.entries(fields).map(([name, field]) => [checkName(name), field] as const), sqlOf), false),
    boolean: (condition) => value(write.boolean(condition), false),
    string: (text) => value(write.string(text), false),
    null: value(write.null, false),
    parse: (expression) => value(write.parse(expression), true),
    raw: (expression, options) => value(expression, options?.nullable ?? false),
    sqlOf,
    text: sqlOf
  }
}

/** A SQL string literal of `text` (standard: quotes doubled, backslashes as they are). */
const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`

/** SQLite: `json_object('id', id, ...)`, as the lists have always been written. */
const sqliteJson = makeJsonSql("sqlite", {
  object: (members, sqlOf) =>
    `json_object(${members.map(([name, field]) => `'${name}', ${typeof field === "string" ? field : sqlOf(field)}`).join(", ")})`,
  boolean: (condition) => `CASE WHEN ${condition} THEN json('true') ELSE json('false') END`,
  string: literal,
  null: "NULL",
  parse: (expression) => `json(${expression})`
})

/**
 * PostgreSQL: the object's text put together. `to_json(text)` escapes as
 * `JSON.stringify` does (and as SQLite does), `to_json(integer)` is its
 * digits, and SQL NULL becomes `null`; JSON values go in as they are.
 */
const pgJson = makeJsonSql("pg", {
  object: (members, sqlOf) => {
    if (members.length === 0) return "'{}'"
    const parts = members.map(([name, field], i) => {
      const key = literal(`${i === 0 ? "{" : ","}${JSON.stringify(name)}:`)
      const json = typeof field === "string"
        ? `COALESCE(to_json(${field})::text, 'null')`
        : field.nullable
          ? `COALESCE(${sqlOf(field)}, 'null')`
          : `(${sqlOf(field)})`
      return `${key} || ${json}`
    })
    return `(${parts.join(" || ")} || '}')`
  },
  boolean: (condition) => `CASE WHEN ${condition} THEN 'true' ELSE 'false' END`,
  string: (text) => literal(JSON.stringify(text)),
  null: "'null'",
  parse: (expression) => expression
})

/** The JSON builder of `sql`'s dialect: PostgreSQL's for `@effect/sql-pg`, SQLite's otherwise. */
export const jsonSql = (sql: SqlClient.SqlClient): JsonSql => sql.onDialectOrElse({ pg: () => pgJson, orElse: () => sqliteJson })

/**
 * `build` once per dialect: what a module wrote as a constant when SQLite
 * was the only engine (a list's column list, say), now made for the client
 * it is asked for (`columns(sql)`), and kept.
 */
export const perDialect = <A>(build: (json: JsonSql) => A): ((sql: SqlClient.SqlClient) => A) => {
  const made = new Map<JsonDialect, { readonly value: A }>()
  return (sql) => {
    const json = jsonSql(sql)
    let kept = made.get(json.dialect)
    if (kept === undefined) {
      kept = { value: build(json) }
      made.set(json.dialect, kept)
    }
    return kept.value
  }
}

/**
 * The row's JSON text for `fields` (JSON field name to SQL expression or
 * `JsonSqlValue`) in `sql`'s dialect: `jsonSql(sql).object(fields)` as the
 * column a query selects.
 */
export const jsonObjectSql = (sql: SqlClient.SqlClient, fields: Readonly<Record<string, string | JsonSqlValue>>): string => {
  const json = jsonSql(sql)
  return json.text(json.object(fields))
}

const joined = (rows: ReadonlyArray<JsonRow>): string => {
  let text = ""
  for (let i = 0; i < rows.length; i++) text += i === 0 ? rows[i]!.json : "," + rows[i]!.json
  return text
}

/**
 * The list envelope `{"items": [...], "nextCursor": ...}` (and `extra`
 * fields, `total` say) as a 200 response, from a page of JSON rows.
 */
export const jsonPageResponse = (page: PageOf<JsonRow>, extra: Readonly<Record<string, unknown>> = {}): HttpServerResponse.HttpServerResponse => {
  let text = `{"items":[${joined(page.items)}],"nextCursor":${JSON.stringify(page.nextCursor)}`
  for (const [name, value] of Object.entries(extra)) text += `,${JSON.stringify(name)}:${JSON.stringify(value)}`
  return HttpServerResponse.text(text + "}", { contentType: "application/json" })
}

const encoder = new TextEncoder()

/** Waits for the event loop to turn once: pending I/O (a ping, another client's request) runs first. */
const eventLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * A table chunk by chunk: each call starts a pass, and each run of the
 * effect it returns answers the pass's next chunk, or `null` once there is
 * none.
 */
export type JsonChunks<E, R> = () => Effect.Effect<ReadonlyArray<JsonRow> | null, E, R>

/**
 * Chunks of a table in a keyset's order, one query each: `read(after, size)`
 * answers up to `size` rows after the position (from the start when
 * undefined); the next chunk starts after the last row's position, and a
 * short chunk is the last.
 */
export const keysetChunks = <Row extends JsonRow, Position, E, R>(options: {
  readonly size: number
  readonly read: (after: Position | undefined, size: number) => Effect.Effect<ReadonlyArray<Row>, E, R>
  readonly positionOf: (row: Row) => Position
}): JsonChunks<E, R> =>
() => {
  let after: Position | undefined
  let done = false
  return Effect.suspend(() =>
    done
      ? Effect.succeed(null)
      : Effect.map(options.read(after, options.size), (rows) => {
        const last = rows[rows.length - 1]
        if (rows.length < options.size || last === undefined) done = true
        else after = options.positionOf(last)
        return rows
      })
  )
}

/** What a streamed array's texts are handed to once the last is sent; `accept` false stops collecting. */
interface Collector {
  readonly accept: (text: string) => boolean
  readonly complete: () => void
}

/**
 * A JSON array streamed from chunks of JSON rows, as a 200 response with
 * `headers` (a `content-disposition` for a download, say). Written straight
 * to the socket through a Node stream: the next chunk is read only when the
 * client has taken the last (backpressure), and only after the event loop
 * has turned once, so concurrent exports take turns with each other and
 * with every other request instead of holding the loop for their whole
 * length (Effect's own yields go through microtasks, which run before any
 * I/O). A failure after the first bytes is logged and ends the connection
 * (the status is sent by then), so the client sees a truncated download,
 * never a well-formed partial one. A client that leaves stops the reading.
 */
export const jsonArrayResponse = <E, R>(
  chunks: JsonChunks<E, R>,
  headers: Readonly<Record<string, string>> = {}
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> => streamed(chunks, headers, undefined)

const streamed = <E, R>(
  chunks: JsonChunks<E, R>,
  headers: Readonly<Record<string, string>>,
  collector: Collector | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
  Effect.map(Effect.runtime<R>(), (runtime) => {
    const run = Runtime.runPromiseExit(runtime)
    let collecting = collector !== undefined
    const sent = (text: string) => {
      if (collecting) collecting = collector!.accept(text)
      return text
    }
    async function* body() {
      const pull = chunks()
      yield sent("[")
      for (let first = true; ;) {
        const exit = await run(pull)
        if (Exit.isFailure(exit)) {
          await run(Effect.logError("a streamed JSON array failed after it began; the client gets a truncated body", Cause.pretty(exit.cause)))
          throw new Error("the streamed JSON array failed; see the log")
        }
        if (exit.value === null) break
        if (exit.value.length > 0) {
          yield sent(first ? joined(exit.value) : "," + joined(exit.value))
          first = false
        }
        await eventLoopTurn()
      }
      yield sent("]")
      if (collecting) collector!.complete()
    }
    return HttpServerResponse.raw(Readable.from(body()), { contentType: "application/json", headers })
  })

/** `W/"<hash>"` of a body: what conditional GETs compare. */
export const etagOf = (body: Uint8Array): string => `W/"${createHash("sha1").update(body).digest("base64url")}"`

/**
 * A JSON array kept in memory while its table is unchanged: `respond`
 * answers from memory when `version` (a count the table's writes move on)
 * is the one the kept array was read at, and otherwise streams it as
 * `jsonArrayResponse` does, keeping what it sent when it was no larger than
 * `maxChars` and the version did not move while it was read (chunks are
 * separate queries, so only then is it one state of the table). A kept
 * array is sent with its ETag, worked out once.
 */
export interface JsonArrayCache {
  readonly respond: <E, R>(
    version: () => number,
    chunks: JsonChunks<E, R>,
    headers?: Readonly<Record<string, string>>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, R>
}

export const makeJsonArrayCache = (options: { readonly maxChars: number }): JsonArrayCache => {
  let kept: { readonly version: number; readonly body: Uint8Array; readonly etag: string } | undefined
  return {
    respond: (version, chunks, headers = {}) =>
      Effect.suspend(() => {
        const at = version()
        if (kept !== undefined && kept.version === at) {
          return Effect.succeed(
            HttpServerResponse.uint8Array(kept.body, { contentType: "application/json", headers: { ...headers, etag: kept.etag } })
          )
        }
        const texts: Array<string> = []
        let chars = 0
        return streamed(chunks, headers, {
          accept: (text) => {
            chars += text.length
            texts.push(text)
            if (chars <= options.maxChars && version() === at) return true
            texts.length = 0
            return false
          },
          complete: () => {
            if (version() !== at) return
            const body = encoder.encode(texts.join(""))
            kept = { version: at, body, etag: etagOf(body) }
          }
        })
      })
  }
}
