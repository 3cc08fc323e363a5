/**
 * `migration(version, name, statements)`: how plugins write their numbered
 * migrations. SQLite on every pass (`helpers.ts`' `withDatabase`): it reads
 * rowid order and `sqlite_master`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { migration, runMigrations } from "../../src/database/index.js"
import { tempDataDir, withDatabase } from "./helpers.js"

const notes = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly note: string }>`SELECT note FROM notes ORDER BY rowid`)

describe("migration", () => {
  it.effect("runs the statements in order, and an Effect given instead as it is", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const report = yield* withDatabase(
        dataDir,
        runMigrations([
          {
            pluginId: "notes",
            migrations: [
              migration(1, "create notes", (sql) => [
                sql`CREATE TABLE notes (note TEXT NOT NULL)`,
                sql`INSERT INTO notes (note) VALUES (${"first"})`,
                sql`INSERT INTO notes (note) VALUES (${"second"})`
              ]),
              migration(2, "add a note", Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO notes (note) VALUES (${"third"})`))
            ]
          }
        ])
      )
      expect(report.applied.map((m) => [m.version, m.name])).toEqual([[1, "create notes"], [2, "add a note"]])
      expect((yield* withDatabase(dataDir, notes)).map((row) => row.note)).toEqual(["first", "second", "third"])
    }))

  it.effect("a failing statement undoes the ones before it (one transaction with the bookkeeping row)", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const error = yield* withDatabase(
        dataDir,
        Effect.flip(
          runMigrations([
            {
              pluginId: "notes",
              migrations: [
                migration(1, "create notes", (sql) => [sql`CREATE TABLE notes (note TEXT NOT NULL)`, sql`INSERT INTO nowhere (x) VALUES (1)`])
              ]
            }
          ])
        )
      )
      expect(error.message).toContain("notes v1 \"create notes\"")
      const tables = yield* withDatabase(
        dataDir,
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly name: string }>`SELECT name FROM sqlite_master WHERE name = 'notes'`)
      )
      expect(tables).toEqual([])
    }))
})
