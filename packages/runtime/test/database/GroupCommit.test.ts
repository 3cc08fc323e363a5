/**
 * Group commit: writes queued while a batch is written share one commit
 * (counted at the driver), a write that fails is rolled back alone, each
 * answers only after its commit, and an interrupted write leaves nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { countingStatements, tempDir } from "@garrison/testkit/core"
import { Deferred, Effect, Fiber, Layer } from "effect"
import * as NodePath from "node:path"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import { GroupCommit } from "../../src/database/GroupCommit.js"

const database = () =>
  GroupCommit.layer.pipe(Layer.provideMerge(SqliteClient.layer({ filename: NodePath.join(tempDir("garrison-group-commit-"), "db.sqlite") })))

const setUp = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`
  return { sql, group: yield* GroupCommit }
})

const names = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ readonly name: string }>`SELECT name FROM things ORDER BY name`, (rows) => rows.map((row) => row.name))
)

describe("GroupCommit", () => {
  it.live("50 writes at once share a few commits, not 50; each is stored", () =>
    Effect.gen(function* () {
      const { sql, group } = yield* setUp
      const { tally } = yield* countingStatements(
        Effect.forEach(
          Array.from({ length: 50 }, (_, i) => i),
          (i) => group.transaction(sql`INSERT INTO things (name) VALUES (${`t${String(i).padStart(2, "0")}`})`),
          { concurrency: "unbounded", discard: true }
        )
      )
      expect(yield* names).toHaveLength(50)
      expect(tally.commits).toBeGreaterThanOrEqual(1)
      expect(tally.commits).toBeLessThanOrEqual(5)
    }).pipe(Effect.provide(database()))
  )

  it.live("a write that fails is rolled back alone; the batch's others are kept", () =>
    Effect.gen(function* () {
      const { sql, group } = yield* setUp
      const outcomes = yield* Effect.forEach(
        ["a", "b", "dup", "dup", "c"],
        (name) =>
          Effect.either(
            group.transaction(
              Effect.zipRight(sql`INSERT INTO things (name) VALUES (${name})`, name === "b" ? Effect.fail("b changed its mind") : Effect.void)
            )
          ),
        { concurrency: "unbounded" }
      )
      expect(outcomes.map((o) => o._tag)).toEqual(["Right", "Left", "Right", "Left", "Right"])
      expect(yield* names).toEqual(["a", "c", "dup"])
    }).pipe(Effect.provide(database()))
  )

  it.live("a batch's first write runs without a savepoint; when it fails, the writes queued behind it still commit", () =>
    Effect.gen(function* () {
      const { sql, group } = yield* setUp
      const alone = yield* countingStatements(group.transaction(sql`INSERT INTO things (name) VALUES ('alone')`))
      expect(alone.tally.sql).toEqual(["BEGIN", "INSERT INTO things (name) VALUES ('alone')", "COMMIT"])
      const outcomes = yield* Effect.forEach(
        ["bad", "x", "y"],
        (name) =>
          Effect.either(group.transaction(Effect.zipRight(sql`INSERT INTO things (name) VALUES (${name})`, name === "bad" ? Effect.fail("no") : Effect.void))),
        { concurrency: "unbounded" }
      )
      expect(outcomes.map((o) => o._tag)).toEqual(["Left", "Right", "Right"])
      expect(yield* names).toEqual(["alone", "x", "y"])
    }).pipe(Effect.provide(database()))
  )

  it.live("a write answers only after its batch's commit: another connection sees it then", () =>
    Effect.gen(function* () {
      const { sql, group } = yield* setUp
      const file = (yield* sql<{ readonly file: string }>`SELECT file FROM pragma_database_list WHERE name = 'main'`)[0]!.file
      const seen = yield* Effect.forEach(
        ["x", "y", "z"],
        (name) =>
          Effect.zipRight(
            group.transaction(sql`INSERT INTO things (name) VALUES (${name})`),
            // Read from a second connection: only committed rows are there.
            Effect.map(
              Effect.flatMap(SqlClient.SqlClient, (other) => other<{ readonly n: number }>`SELECT COUNT(*) AS n FROM things WHERE name = ${name}`).pipe(
                Effect.provide(SqliteClient.layer({ filename: file, readonly: true }))
              ),
              (rows) => Number(rows[0]!.n)
            )
          ),
        { concurrency: "unbounded" }
      )
      expect(seen).toEqual([1, 1, 1])
    }).pipe(Effect.provide(database()))
  )

  it.live("a write interrupted while it waits for its turn leaves nothing and does not stall the batch", () =>
    Effect.gen(function* () {
      const { sql, group } = yield* setUp
      const holding = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      // The first write holds the batch open, so the next ones wait for their turn.
      const first = yield* Effect.fork(
        group.transaction(Effect.zipRight(sql`INSERT INTO things (name) VALUES ('first')`, Effect.zipRight(Deferred.succeed(holding, undefined), Deferred.await(release))))
      )
      yield* Deferred.await(holding)
      const waiting = yield* Effect.fork(group.transaction(sql`INSERT INTO things (name) VALUES ('interrupted')`))
      const after = yield* Effect.fork(group.transaction(sql`INSERT INTO things (name) VALUES ('after')`))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(waiting)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(first)
      yield* Fiber.join(after)
      expect(yield* names).toEqual(["after", "first"])
    }).pipe(Effect.provide(database()))
  )

  it.live("inside a transaction already, it is a savepoint of it", () =>
    Effect.gen(function* () {
      const { sql, group } = yield* setUp
      const { tally } = yield* countingStatements(
        sql.withTransaction(
          Effect.zipRight(
            group.transaction(sql`INSERT INTO things (name) VALUES ('inner')`),
            Effect.either(group.transaction(Effect.zipRight(sql`INSERT INTO things (name) VALUES ('undone')`, Effect.fail("no"))))
          )
        )
      )
      expect(yield* names).toEqual(["inner"])
      expect(tally.commits).toBe(1)
    }).pipe(Effect.provide(database()))
  )
})
