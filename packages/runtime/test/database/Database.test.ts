import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Fiber, LogLevel, TestClock } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { Database, scheduledBackups } from "../../src/database/index.js"
import { backupNames, captureLogs, linesAt, tempDataDir, waitUntil, withDatabase, withFile } from "./helpers.js"

const pragma = (name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(`PRAGMA ${name}`)).pipe(
    Effect.map((rows) => rows[0]?.[name])
  )

describe("Database", () => {
  it.effect("creates garrison.db and backups/ in WAL mode with the required pragmas", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const result = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          return {
            startup: db.startup,
            file: db.file,
            backupsDir: db.backupsDir,
            journal: yield* pragma("journal_mode"),
            synchronous: yield* pragma("synchronous"),
            foreignKeys: yield* pragma("foreign_keys"),
            busyTimeout: yield* pragma("busy_timeout"),
            healthy: yield* db.quickCheck
          }
        })
      )
      expect(result).toEqual({
        startup: { outcome: "created" },
        file: NodePath.join(dataDir, "garrison.db"),
        backupsDir: NodePath.join(dataDir, "backups"),
        journal: "wal",
        synchronous: 2, // FULL
        foreignKeys: 1,
        busyTimeout: 5000,
        healthy: true
      })
      expect(NodeFs.statSync(result.backupsDir).isDirectory()).toBe(true)
    }))

  it.effect("committed data survives closing and reopening", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`
          yield* sql.withTransaction(sql`INSERT INTO notes (id, body) VALUES (${1}, ${"kept"})`)
        })
      )
      const reopened = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const db = yield* Database
          return { startup: db.startup, rows: yield* sql`SELECT id, body FROM notes` }
        })
      )
      expect(reopened.startup).toEqual({ outcome: "opened" })
      expect(reopened.rows).toEqual([{ id: 1, body: "kept" }])
    }))

  it.effect("backupNow names the file from Clock with a sanitised label and copies the data", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* TestClock.setTime(Date.UTC(2024, 0, 2, 3, 4, 5, 678))
      const path = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE notes (body TEXT NOT NULL)`
          yield* sql`INSERT INTO notes (body) VALUES (${"in backup"})`
          return yield* (yield* Database).backupNow("Before Upgrade!! v2")
        })
      )
      expect(NodePath.basename(path)).toBe("garrison-20240102T030405678-before-upgrade-v2.db")
      expect(NodePath.dirname(path)).toBe(NodePath.join(dataDir, "backups"))
      expect(NodeFs.readdirSync(NodePath.dirname(path)).filter((name) => name.endsWith(".partial"))).toEqual([])
      const rows = yield* withFile(path, Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT body FROM notes`))
      expect(rows).toEqual([{ body: "in backup" }])
    }))

  it.effect("two backups in the same millisecond get distinct names", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const [a, b] = yield* withDatabase(
        dataDir,
        Effect.flatMap(Database, (db) => Effect.all([db.backupNow("same"), db.backupNow("same")]))
      )
      expect(a).not.toBe(b)
      expect(backupNames(dataDir)).toHaveLength(2)
    }))

  it.effect("pruneBackups keeps the newest backupKeep backups and leaves other files alone", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const { taken, removed } = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          NodeFs.writeFileSync(NodePath.join(db.backupsDir, "notes.txt"), "operator's file")
          const taken: Array<string> = []
          for (let i = 0; i < 5; i++) {
            taken.push(NodePath.basename(yield* db.backupNow(`b${i}`)))
            yield* TestClock.adjust("1 minute")
          }
          return { taken, removed: yield* db.pruneBackups }
        }),
        { backupKeep: 3 }
      )
      expect(removed).toBe(2)
      expect(backupNames(dataDir)).toEqual(taken.slice(2))
      expect(NodeFs.existsSync(NodePath.join(dataDir, "backups", "notes.txt"))).toBe(true)
    }))

  it.effect("scheduledBackups backs up and prunes every interval and survives a failed round", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const logs = captureLogs()
      const backupsDir = NodePath.join(dataDir, "backups")
      yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const fiber = yield* Effect.fork(scheduledBackups)
          // No backup on disk yet, so the first round runs at once.
          yield* waitUntil(() => backupNames(dataDir).length === 1)

          // Break the backups folder: the next round fails, is logged, and the loop lives on.
          NodeFs.rmSync(backupsDir, { recursive: true })
          NodeFs.writeFileSync(backupsDir, "not a folder")
          yield* TestClock.adjust("1 hour")
          yield* waitUntil(() => linesAt(logs.lines, LogLevel.Error).some((t) => t.includes("Scheduled database backup failed")))

          NodeFs.rmSync(backupsDir)
          NodeFs.mkdirSync(backupsDir)
          for (let round = 1; round <= 3; round++) {
            yield* TestClock.adjust("1 hour")
            yield* waitUntil(() => NodeFs.readdirSync(backupsDir).some((n) => n.includes(`T0${round + 1}0000000-`)))
          }
          expect(fiber.unsafePoll()).toBeNull()
          yield* Fiber.interrupt(fiber)
        }),
        { backupInterval: "1 hour" as never, backupKeep: 2 }
      ).pipe(Effect.provide(logs.layer))
      expect(backupNames(dataDir)).toEqual([
        "garrison-19700101T030000000-scheduled.db",
        "garrison-19700101T040000000-scheduled.db"
      ])
    }))
})
