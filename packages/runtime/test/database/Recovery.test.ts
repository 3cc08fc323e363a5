/**
 * Start-up recovery of a damaged `garrison.db`: moved aside, the newest good
 * backup restored. SQLite's only (a PostgreSQL server recovers itself), so
 * SQLite on every pass (`helpers.ts`' `withDatabase`).
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, LogLevel, TestClock } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { Database } from "../../src/database/index.js"
import { captureLogs, linesAt, tempDataDir, vandalise, withDatabase } from "./helpers.js"

const insert = (body: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO notes (body) VALUES (${body})`)

const bodies = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly body: string }>`SELECT body FROM notes ORDER BY body`
).pipe(Effect.map((rows) => rows.map((row) => row.body)))

/** First run: a table with "a" and "b", a backup, then "c" written after the backup. Returns the backup path. */
const seed = (dataDir: string) =>
  withDatabase(
    dataDir,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE notes (body TEXT NOT NULL)`
      yield* insert("a")
      yield* insert("b")
      const backup = yield* (yield* Database).backupNow("good")
      yield* insert("c")
      return backup
    })
  )

/** What the next start-up sees, plus the data it ends up with. */
const reopen = (dataDir: string) =>
  withDatabase(
    dataDir,
    Effect.gen(function*() {
      const db = yield* Database
      return { startup: db.startup, healthy: yield* db.quickCheck }
    })
  )

describe("start-up recovery", () => {
  it.effect("a file with a garbage header is moved aside and the newest good backup restored", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const file = NodePath.join(dataDir, "garrison.db")
      const backup = yield* seed(dataDir)
      vandalise(file)
      NodeFs.writeFileSync(`${file}-wal`, "stale wal from the crash")
      const damaged = NodeFs.readFileSync(file)
      yield* TestClock.setTime(Date.UTC(2025, 4, 6, 7, 8, 9, 10))

      const logs = captureLogs()
      const result = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          return { startup: db.startup, healthy: yield* db.quickCheck, rows: yield* bodies }
        })
      ).pipe(Effect.provide(logs.layer))

      const movedAside = `${file}.corrupt-20250506T070809010`
      expect(result).toEqual({
        // The backup was taken at TestClock's start, 0; every write after that time is lost.
        startup: { outcome: "restored-from-backup", movedAside, restoredFrom: backup, backupTakenAt: 0 },
        healthy: true,
        rows: ["a", "b"] // "c" came after the backup
      })
      // The damaged file and its WAL are kept, byte for byte, next to the new database.
      expect(NodeFs.readFileSync(movedAside)).toEqual(damaged)
      expect(NodeFs.readFileSync(`${movedAside}-wal`, "utf8")).toBe("stale wal from the crash")
      expect(NodeFs.existsSync(backup)).toBe(true)
      // The operator is told what happened, with file names.
      expect(linesAt(logs.lines, LogLevel.Error).join("\n")).toContain(movedAside)
      expect(linesAt(logs.lines, LogLevel.Warning).join("\n")).toContain(
        `from backup ${NodePath.basename(backup)}, taken 1970-01-01T00:00:00.000Z: writes made after 1970-01-01T00:00:00.000Z are lost`
      )
    }))

  it.effect("damaged pages behind a valid header are caught by quick_check", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const file = NodePath.join(dataDir, "garrison.db")
      const backup = yield* seed(dataDir)
      vandalise(file, 4096, NodeFs.statSync(file).size - 4096)
      const result = yield* reopen(dataDir)
      expect(result.startup.outcome).toBe("restored-from-backup")
      expect(result.startup.restoredFrom).toBe(backup)
      expect(result.healthy).toBe(true)
    }))

  it.effect("with no backup the database is reset to empty, keeps working, and the corrupt file is kept", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const file = NodePath.join(dataDir, "garrison.db")
      yield* withDatabase(
        dataDir,
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (body TEXT NOT NULL)`).pipe(
          Effect.zipRight(insert("lost"))
        )
      )
      vandalise(file)

      const logs = captureLogs()
      const result = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          const sql = yield* SqlClient.SqlClient
          const tables = yield* sql`SELECT name FROM sqlite_master WHERE type = 'table'`
          yield* sql`CREATE TABLE notes (body TEXT NOT NULL)`
          yield* insert("fresh")
          return { startup: db.startup, tables, rows: yield* bodies }
        })
      ).pipe(Effect.provide(logs.layer))

      expect(result.startup.outcome).toBe("reset-empty")
      expect(result.startup.restoredFrom).toBeUndefined()
      expect(result.tables).toEqual([])
      expect(result.rows).toEqual(["fresh"])
      expect(NodeFs.existsSync(result.startup.movedAside ?? "missing")).toBe(true)
      expect(linesAt(logs.lines, LogLevel.Error).join("\n")).toContain("EMPTY database")
      // And the next start-up simply opens it.
      expect((yield* reopen(dataDir)).startup).toEqual({ outcome: "opened" })
    }))

  it.effect("a corrupt newest backup is skipped in favour of an older good one", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const file = NodePath.join(dataDir, "garrison.db")
      const [older, newer] = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE notes (body TEXT NOT NULL)`
          yield* insert("old")
          const older = yield* db.backupNow("older")
          yield* TestClock.adjust("1 hour")
          yield* insert("new")
          const newer = yield* db.backupNow("newer")
          return [older, newer] as const
        })
      )
      vandalise(newer)
      vandalise(file)

      const logs = captureLogs()
      const result = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          return { startup: db.startup, rows: yield* bodies }
        })
      ).pipe(Effect.provide(logs.layer))

      expect(result.startup.outcome).toBe("restored-from-backup")
      expect(result.startup.restoredFrom).toBe(older)
      expect(result.rows).toEqual(["old"])
      expect(NodeFs.existsSync(newer)).toBe(true) // skipped, not deleted
      expect(linesAt(logs.lines, LogLevel.Warning).join("\n")).toContain(`Skipping backup ${newer}`)
    }))

  it.effect("a file that cannot be opened for other reasons stops start-up instead of being moved aside", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const file = NodePath.join(dataDir, "garrison.db")
      NodeFs.mkdirSync(file, { recursive: true }) // a folder where the database should be
      const error = yield* Effect.flip(reopen(dataDir))
      expect(error).toMatchObject({ _tag: "StartupError", reason: "database" })
      expect(error.message).toContain(file)
      expect(NodeFs.statSync(file).isDirectory()).toBe(true)
      expect(NodeFs.readdirSync(dataDir).filter((name) => name.includes("corrupt"))).toEqual([])
    }))
})
