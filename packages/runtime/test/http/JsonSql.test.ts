/**
 * `jsonSql`, the JSON the database writes for lists and exports, on both
 * engines (SQLite in memory, and a real PostgreSQL 15 the file starts):
 * objects in the fields' order, text escaped as `JSON.stringify` escapes
 * it (quotes, backslashes, every control character, DEL, line separators,
 * emoji, non-Latin scripts), integers, NULLs, booleans from conditions,
 * nested objects and constant strings in a CASE, and JSON text taken in as
 * it is: each row's text is `JSON.stringify` of the same values, byte for
 * byte.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { usePostgres } from "@garrison/testkit/filePostgres"
import { Effect, Layer, Redacted } from "effect"
import { jsonObjectSql, jsonSql, perDialect } from "../../src/http/JsonRows.js"

const postgres = usePostgres()

interface Row {
  readonly id: number
  readonly name: string | null
  readonly n: number | null
  readonly flag: number
  readonly doc: string | null
}

const CONTROL = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join("")
const NAMES: ReadonlyArray<string | null> = [
  'Quote " and \\ backslash',
  CONTROL,
  "DEL \u007f, separators \u2028 \u2029, noncharacters \ufffe\uffff",
  "Emoji 🎯 😀 👨‍👩‍👧 and 𝔘𝔫𝔦",
  "Кириллица 漢字 عربى é",
  "</script><b>&amp; \\u0041 is not A",
  "",
  null
]
const DOCS: ReadonlyArray<string | null> = ['{"a":[1,2.5,-3,true,null,"x\\n"],"b":{"c":{}}}', "[]", '"text"', "42", null]

const ROWS: ReadonlyArray<Row> = NAMES.map((name, i) => ({
  id: i + 1,
  name,
  n: i % 3 === 0 ? null : [0, -1, 2147483647, 9007199254740991, 7][i % 5]!,
  flag: i % 2,
  doc: DOCS[i % DOCS.length]!
}))

/** What JavaScript writes for the row, as the query below should. */
const expected = (row: Row) =>
  JSON.stringify({
    id: row.id,
    name: row.name,
    n: row.n,
    flag: row.flag !== 0,
    kind: row.n !== null && row.n > 0 ? { positive: row.n, label: "more" } : 'not "positive"',
    doc: row.doc === null ? null : JSON.parse(row.doc),
    none: null,
    empty: {}
  })

const columns = perDialect((json) =>
  `${
    json.text(json.object({
      id: "id",
      name: "name",
      n: "n",
      flag: json.boolean("flag <> 0"),
      kind: json.raw(`CASE WHEN n > 0 THEN ${json.sqlOf(json.object({ positive: "n", label: json.string("more") }))} ELSE ${json.sqlOf(json.string('not "positive"'))} END`),
      doc: json.parse("doc"),
      none: json.null,
      empty: json.object({})
    }))
  } AS json, id`
)

/** Makes the table, fills it, and reads each row's JSON. */
const roundTrip = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n BIGINT, flag INTEGER NOT NULL, doc TEXT)`
  yield* sql`INSERT INTO t ${sql.insert(ROWS.map((row) => ({ ...row })))}`
  const read = yield* sql<{ readonly json: string; readonly id: number }>`SELECT ${sql.literal(columns(sql))} FROM t ORDER BY id`
  expect(read.map((row) => row.json)).toEqual(ROWS.map(expected))
  // The plain form: one object of columns.
  const plain = yield* sql<{ readonly json: string }>`SELECT ${sql.literal(jsonObjectSql(sql, { id: "id", name: "name" }))} AS json FROM t ORDER BY id`
  expect(plain.map((row) => row.json)).toEqual(ROWS.map((row) => JSON.stringify({ id: row.id, name: row.name })))
  return jsonSql(sql).dialect
})

describe("jsonSql", () => {
  it.effect("SQLite: each row is JSON.stringify of its values, byte for byte", () =>
    Effect.gen(function* () {
      expect(yield* roundTrip).toBe("sqlite")
    }).pipe(Effect.provide(SqliteClient.layer({ filename: ":memory:" })), Effect.orDie))

  it.effect(
    "PostgreSQL: the same text, not json_build_object's",
    () =>
      Effect.gen(function* () {
        const url = yield* postgres.freshDatabaseUrl
        const layer = PgClient.layer({ url: Redacted.make(url) })
        expect(yield* Effect.provide(roundTrip, layer)).toBe("pg")
        // What the SQL looks like there: pieces of to_json, keys in order.
        const sql = yield* Effect.provide(SqlClient.SqlClient, layer)
        expect(jsonObjectSql(sql, { id: "id", name: "name" })).toBe(
          `('{"id":' || COALESCE(to_json(id)::text, 'null') || ',"name":' || COALESCE(to_json(name)::text, 'null') || '}')`
        )
      }).pipe(Effect.scoped, Effect.orDie),
    120_000
  )

  it.effect("field names are plain identifiers; a value of one dialect is refused in the other", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const json = jsonSql(sql)
      expect(() => json.object({ "bad'name": "x" })).toThrow(/not a plain field name/)
      const foreign = { _tag: "JsonSqlValue", dialect: "pg", sql: "'null'", nullable: false } as const
      expect(() => json.object({ a: foreign })).toThrow(/a pg value in sqlite SQL/)
      expect(json.text(json.object({ a: "x", b: json.boolean("1 = 1") }))).toBe("json_object('a', x, 'b', CASE WHEN 1 = 1 THEN json('true') ELSE json('false') END)")
    }).pipe(Effect.provide(Layer.orDie(SqliteClient.layer({ filename: ":memory:" })))))
})
