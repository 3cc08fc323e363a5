/**
 * `runMigrations`: in order, once, each in a transaction with its bookkeeping,
 * a pre-migration backup of a database that has migrations. SQLite on every
 * pass (`helpers.ts`' `withDatabase`): it lists tables from `sqlite_master`
 * and finds `.db` backups; on PostgreSQL migrations are `Postgres.test.ts`'s.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, LogLevel } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { type Migration, type MigrationSet, runMigrations } from "../../src/database/index.js"
import { captureLogs, linesAt, tempDataDir, withDatabase } from "./helpers.js"

const migration = (version: number, name: string, statement: string): Migration => ({
  version,
  name,
  up: Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement))
})

const servers = (...extra: ReadonlyArray<Migration>): MigrationSet => ({
  pluginId: "servers",
  // Given out of order on purpose: they must run ascending.
  migrations: [
    migration(2, "add-map", "ALTER TABLE servers ADD COLUMN map TEXT"),
    migration(1, "create-servers", "CREATE TABLE servers (id TEXT PRIMARY KEY, name TEXT NOT NULL)"),
    ...extra
  ]
})

const bans: MigrationSet = {
  pluginId: "bans",
  migrations: [migration(1, "create-bans", "CREATE TABLE bans (id TEXT PRIMARY KEY, reason TEXT)")]
}

const recorded = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ readonly plugin_id: string; readonly version: number; readonly name: string }>`
      SELECT plugin_id, version, name FROM garrison_migrations ORDER BY plugin_id, version`
)

const tableNames = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
).pipe(Effect.map((rows) => rows.map((row) => row.name)))

describe("runMigrations", () => {
  it.effect("applies pending migrations once, in ascending order per plugin, and nothing the second time", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const first = yield* withDatabase(dataDir, runMigrations([servers(), bans]))
      expect(first).toEqual({
        applied: [
          { pluginId: "servers", version: 1, name: "create-servers" },
          { pluginId: "servers", version: 2, name: "add-map" },
          { pluginId: "bans", version: 1, name: "create-bans" }
        ]
      })
      const second = yield* withDatabase(
        dataDir,
        Effect.all({ report: runMigrations([servers(), bans]), rows: recorded, tables: tableNames })
      )
      expect(second.report).toEqual({ applied: [] })
      expect(second.rows).toEqual([
        { plugin_id: "bans", version: 1, name: "create-bans" },
        { plugin_id: "servers", version: 1, name: "create-servers" },
        { plugin_id: "servers", version: 2, name: "add-map" }
      ])
      expect(second.tables).toEqual(["bans", "garrison_migrations", "servers"])
      // A fresh database needs no safety copy.
      expect(NodeFs.readdirSync(NodePath.join(dataDir, "backups"))).toEqual([])
    }))

  it.effect("takes a pre-migration backup before changing a database that already has migrations", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* withDatabase(dataDir, runMigrations([servers()]))
      const report = yield* withDatabase(
        dataDir,
        runMigrations([servers(migration(3, "add-port", "ALTER TABLE servers ADD COLUMN port INTEGER"))])
      )
      expect(report.applied).toEqual([{ pluginId: "servers", version: 3, name: "add-port" }])
      expect(report.backup).toMatch(/garrison-\d{8}T\d{9}-pre-migration\.db$/)
      expect(NodeFs.existsSync(report.backup ?? "missing")).toBe(true)
    }))

  it.effect("a failing migration rolls back with its bookkeeping and stops start-up naming plugin, version and name", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const broken: Migration = {
        version: 2,
        name: "add-notes",
        up: Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE ban_notes (ban_id TEXT NOT NULL, note TEXT NOT NULL)`
          yield* sql`INSERT INTO no_such_table (x) VALUES (${1})`
        })
      }
      const error = yield* withDatabase(
        dataDir,
        Effect.flip(runMigrations([{ pluginId: "bans", migrations: [...bans.migrations, broken] }]))
      )
      expect(error._tag).toBe("StartupError")
      expect(error.reason).toBe("database")
      expect(error.message).toContain("bans")
      expect(error.message).toContain("v2")
      expect(error.message).toContain("add-notes")
      expect(error.message).toContain("no_such_table")

      const after = yield* withDatabase(dataDir, Effect.all({ rows: recorded, tables: tableNames }))
      expect(after.rows).toEqual([{ plugin_id: "bans", version: 1, name: "create-bans" }])
      expect(after.tables).toEqual(["bans", "garrison_migrations"]) // no ban_notes: rolled back

      // Once fixed, the next start-up applies it.
      const fixed = migration(2, "add-notes", "CREATE TABLE ban_notes (ban_id TEXT NOT NULL, note TEXT NOT NULL)")
      const report = yield* withDatabase(
        dataDir,
        runMigrations([{ pluginId: "bans", migrations: [...bans.migrations, fixed] }])
      )
      expect(report.applied).toEqual([{ pluginId: "bans", version: 2, name: "add-notes" }])
    }))

  it.effect("a migration that dies is reported like one that fails", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const dying: Migration = { version: 1, name: "explodes", up: Effect.dieMessage("boom") }
      const error = yield* withDatabase(dataDir, Effect.flip(runMigrations([{ pluginId: "audit", migrations: [dying] }])))
      expect(error.message).toContain("audit v1 \"explodes\"")
      expect(error.message).toContain("boom")
    }))

  it.effect("rejects invalid sets before touching the database", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const cases: ReadonlyArray<readonly [ReadonlyArray<MigrationSet>, string]> = [
        [[{ pluginId: "x", migrations: [migration(0, "zero", "SELECT 1")] }], "positive integers"],
        [[{ pluginId: "x", migrations: [migration(1.5, "half", "SELECT 1")] }], "positive integers"],
        [[{ pluginId: "x", migrations: [migration(1, "a", "SELECT 1"), migration(1, "b", "SELECT 1")] }], "two migrations with version 1"],
        [[bans, bans], "supplies migrations twice"]
      ]
      for (const [sets, expected] of cases) {
        const error = yield* withDatabase(dataDir, Effect.flip(runMigrations(sets)))
        expect(error.message).toContain(expected)
      }
      expect(yield* withDatabase(dataDir, tableNames)).toEqual([])
    }))

  it.effect("a version recorded in the database but missing from the code only logs a warning", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* withDatabase(dataDir, runMigrations([servers(), bans]))
      const logs = captureLogs()
      const onlyFirst: MigrationSet = {
        pluginId: "servers",
        migrations: [migration(1, "create-servers", "CREATE TABLE servers (id TEXT PRIMARY KEY, name TEXT NOT NULL)")]
      }
      const report = yield* withDatabase(dataDir, runMigrations([onlyFirst])).pipe(Effect.provide(logs.layer))
      expect(report).toEqual({ applied: [] })
      const warnings = linesAt(logs.lines, LogLevel.Warning).join("\n")
      expect(warnings).toContain("servers v2 \"add-map\"")
      expect(warnings).toContain("Database has migrations v1 of plugin \"bans\", which is not loaded")
    }))
})
