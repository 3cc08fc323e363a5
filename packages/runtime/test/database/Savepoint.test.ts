/**
 * `inSavepoint` on both engines (SQLite in a file, and a real PostgreSQL 15
 * the file starts): inside a transaction a failing write is rolled back
 * alone and the transaction goes on and commits (on PostgreSQL a failed
 * statement would otherwise abort the whole transaction); a write that
 * succeeds commits with it; outside a transaction `outside` runs instead.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { tempDir } from "@garrison/testkit/core"
import { usePostgres } from "@garrison/testkit/filePostgres"
import { Effect, Either, Layer, Redacted } from "effect"
import * as NodePath from "node:path"
import { inSavepoint } from "../../src/database/Savepoint.js"

const postgres = usePostgres()

const scenario = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE things (id TEXT PRIMARY KEY, label TEXT NOT NULL)`
  const insert = (id: string) => sql`INSERT INTO things (id, label) VALUES (${id}, ${"x"})`
  const notOutside = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.zipRight(Effect.dieMessage("ran outside a transaction"), effect)

  // In a transaction: the duplicate key fails in its savepoint; the writes around it commit.
  const failed = yield* Effect.gen(function* () {
    yield* insert("a")
    const duplicate = yield* Effect.either(inSavepoint(sql, "things_write", insert("a"), notOutside))
    yield* inSavepoint(sql, "things_write", insert("b"), notOutside)
    yield* insert("c")
    return duplicate
  }).pipe(sql.withTransaction)
  expect(Either.isLeft(failed)).toBe(true)

  // A transaction that fails after the savepoint's write takes it back too.
  const rolledBack = yield* Effect.either(
    Effect.gen(function* () {
      yield* inSavepoint(sql, "things_write", insert("d"), notOutside)
      return yield* Effect.fail("the publisher's change failed")
    }).pipe(sql.withTransaction)
  )
  expect(rolledBack).toEqual(Either.left("the publisher's change failed"))

  // Outside a transaction: `outside` runs, here in a transaction of its own.
  let ranOutside = false
  yield* inSavepoint(sql, "things_write", insert("e"), (effect) => Effect.zipLeft(sql.withTransaction(effect), Effect.sync(() => (ranOutside = true))))
  expect(ranOutside).toBe(true)

  const rows = yield* sql<{ readonly id: string }>`SELECT id FROM things ORDER BY id`
  return rows.map((row) => row.id)
})

describe("inSavepoint", () => {
  it.effect("SQLite: a failure is rolled back alone; the rest commits; outside a transaction `outside` runs", () =>
    Effect.gen(function* () {
      expect(yield* scenario).toEqual(["a", "b", "c", "e"])
    }).pipe(Effect.provide(SqliteClient.layer({ filename: NodePath.join(tempDir("garrison-savepoint-"), "db.sqlite") })), Effect.orDie)
  )

  it.effect(
    "PostgreSQL: the same (a failed statement does not abort the publisher's transaction)",
    () =>
      Effect.gen(function* () {
        const url = yield* postgres.freshDatabaseUrl
        expect(yield* Effect.provide(scenario, PgClient.layer({ url: Redacted.make(url) }))).toEqual(["a", "b", "c", "e"])
      }).pipe(Effect.scoped, Effect.orDie),
    120_000
  )

  it.effect("a name that is not a plain identifier is refused (it is written into the SQL)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const exit = yield* Effect.exit(inSavepoint(sql, "x; DROP TABLE things", Effect.void, (effect) => effect))
      expect(exit._tag).toBe("Failure")
    }).pipe(Effect.provide(Layer.orDie(SqliteClient.layer({ filename: ":memory:" }))))
  )
})
