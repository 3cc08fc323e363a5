/**
 * The SQLite store: `garrison.db` in WAL mode with its pragmas, durability
 * across reopening and a crashed writer, `.db` backups and their schedule.
 * SQLite on every pass (`helpers.ts`' `withDatabase`); the PostgreSQL store
 * is `Postgres.test.ts`'s.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Duration, Effect, Fiber, LogLevel, TestClock } from "effect"
import * as ChildProcess from "node:child_process"
import * as NodeFs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { GarrisonConfig } from "../../src/config/GarrisonConfig.js"
import { Database, scheduledBackups } from "../../src/database/index.js"
import {
  backupNames,
  captureLogs,
  linesAt,
  tempDataDir,
  waitForSleeper,
  waitUntil,
  withDatabase,
  withFile
} from "./helpers.js"

const require = createRequire(import.meta.url)

/** First column of `PRAGMA <name>` (busy_timeout's column is called "timeout"). */
const pragma = (name: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(`PRAGMA ${name}`)).pipe(
    Effect.map((rows) => Object.values(rows[0] ?? {})[0])
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

  it.effect("commits left only in the WAL by a crashed process survive the start-up check", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* withDatabase(
        dataDir,
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (body TEXT NOT NULL)`)
      )
      // Another process commits and dies without closing: the rows exist only in garrison.db-wal.
      const file = NodePath.join(dataDir, "garrison.db")
      const script = `
        const Sqlite = require(${JSON.stringify(require.resolve("better-sqlite3"))})
        const db = new Sqlite(${JSON.stringify(file)})
        db.pragma("wal_autocheckpoint = 0")
        db.prepare("INSERT INTO notes (body) VALUES (?)").run("from the crashed run")
        process.exit(0)`
      ChildProcess.execFileSync(process.execPath, ["-e", script])
      expect(NodeFs.statSync(`${file}-wal`).size).toBeGreaterThan(0)

      const reopened = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return { startup: (yield* Database).startup, rows: yield* sql`SELECT body FROM notes` }
        })
      )
      expect(reopened).toEqual({ startup: { outcome: "opened" }, rows: [{ body: "from the crashed run" }] })
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
        Effect.flatMap(
          Database,
          (db) => Effect.all([db.backupNow("same"), db.backupNow("same")], { concurrency: "unbounded" })
        )
      )
      expect(a).not.toBe(b)
      expect(backupNames(dataDir)).toHaveLength(2)
    }))

  it.effect("pruneBackups keeps the newest backupKeep backups taken within one interval and leaves other files alone", () =>
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
          yield* waitForSleeper

          // Break the backups folder: the next round fails, is logged, and the loop lives on.
          NodeFs.rmSync(backupsDir, { recursive: true })
          NodeFs.writeFileSync(backupsDir, "not a folder")
          yield* TestClock.adjust("1 hour")
          yield* waitUntil(() =>
            linesAt(logs.lines, LogLevel.Error).some((text) => text.includes("Scheduled database backup failed"))
          )
          yield* waitForSleeper

          NodeFs.rmSync(backupsDir)
          NodeFs.mkdirSync(backupsDir)
          const expected = [
            ["garrison-19700101T020000000-scheduled.db"],
            ["garrison-19700101T020000000-scheduled.db", "garrison-19700101T030000000-scheduled.db"],
            ["garrison-19700101T030000000-scheduled.db", "garrison-19700101T040000000-scheduled.db"]
          ]
          for (const names of expected) {
            yield* TestClock.adjust("1 hour")
            yield* waitUntil(() => JSON.stringify(backupNames(dataDir)) === JSON.stringify(names))
            yield* waitForSleeper
          }
          expect(fiber.unsafePoll()).toBeNull()
          yield* Fiber.interrupt(fiber)
        }),
        { backupInterval: Duration.hours(1), backupKeep: 2 }
      ).pipe(Effect.provide(logs.layer))
      expect(backupNames(dataDir)).toEqual([
        "garrison-19700101T030000000-scheduled.db",
        "garrison-19700101T040000000-scheduled.db"
      ])
    }))

  it.effect("scheduled backups run hourly by default", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          expect(Duration.toMillis((yield* GarrisonConfig).backupInterval)).toBe(60 * 60 * 1000)
          const fiber = yield* Effect.fork(scheduledBackups)
          yield* waitUntil(() => backupNames(dataDir).length === 1)
          for (const hour of [1, 2, 3]) {
            yield* waitForSleeper
            yield* TestClock.adjust("59 minutes")
            expect(backupNames(dataDir)).toHaveLength(hour)
            yield* TestClock.adjust("1 minute")
            yield* waitUntil(() => backupNames(dataDir).includes(`garrison-19700101T0${hour}0000000-scheduled.db`))
          }
          yield* Fiber.interrupt(fiber)
        })
      )
    }))

  it.effect("scheduledBackups waits one interval after the newest backup already on disk", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          yield* db.backupNow("manual")
          yield* TestClock.adjust("20 minutes")
          const fiber = yield* Effect.fork(scheduledBackups)
          yield* waitForSleeper
          yield* TestClock.adjust("39 minutes")
          expect(backupNames(dataDir)).toEqual(["garrison-19700101T000000000-manual.db"])
          yield* TestClock.adjust("1 minute")
          yield* waitUntil(() => backupNames(dataDir).includes("garrison-19700101T010000000-scheduled.db"))
          yield* Fiber.interrupt(fiber)
        }),
        { backupInterval: Duration.hours(1) }
      )
    }))
})
