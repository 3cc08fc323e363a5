/**
 * The backup at a clean shutdown: taken after every plugin has stopped
 * (their last writes are in it) and before the database closes, bounded in
 * time, and logged whatever happens.
 *
 * SQLite on every pass (`GarrisonConfig.layerWith`, not the testkit's
 * `testGarrisonConfig`): it reads the shutdown backup as a `.db` file
 * (rowid order); PostgreSQL's pg_dump backups are `Postgres.test.ts`'s.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Context, Duration, Effect, Exit, Fiber, Layer, LogLevel, Scope, TestClock } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { GarrisonConfig } from "../../src/config/GarrisonConfig.js"
import { Database, DatabaseError, type DatabaseShape, shutdownBackup } from "../../src/database/index.js"
import * as Plugin from "../../src/kernel/Plugin.js"
import * as Runtime from "../../src/kernel/Runtime.js"
import { backupNames, captureLogs, linesAt, tempDataDir, waitForSleeper, waitUntil, withFile } from "./helpers.js"

const notes = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly body: string }>`SELECT body FROM notes ORDER BY rowid`
).pipe(Effect.map((rows) => rows.map((row) => row.body)))

/** Writes one note when its layer closes: the last write of a plugin that is stopping. */
const lastWordsPlugin = Plugin.make({
  id: "last-words",
  migrations: [
    {
      version: 1,
      name: "create notes",
      up: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (body TEXT NOT NULL)`)
    }
  ],
  layer: Layer.scopedDiscard(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.addFinalizer(() => Effect.orDie(sql`INSERT INTO notes (body) VALUES (${"written while stopping"})`))
    )
  )
})

/** One controller run on `dataDir`: start, `during`, then close the scope as a SIGTERM would. */
const run = <A>(
  dataDir: string,
  during: Effect.Effect<A, unknown, SqlClient.SqlClient>,
  options: Runtime.RuntimeOptions = {}
) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      Runtime.layer([lastWordsPlugin], options).pipe(Layer.provide(GarrisonConfig.layerWith({ dataDir }))),
      scope
    )
    const result = yield* Effect.provide(during, context)
    yield* Scope.close(scope, Exit.void)
    return result
  })

/** A database whose backups the test scripts, for the time limit and failure paths. */
const fakeDatabase = (backupsDir: string, backupNow: DatabaseShape["backupNow"]) =>
  Context.make(Database, {
    engine: "sqlite",
    file: NodePath.join(backupsDir, "..", "garrison.db"),
    backupsDir,
    backups: "files",
    startup: { outcome: "opened" },
    backupNow,
    requestBackup: () => Effect.void,
    pruneBackups: Effect.succeed(0),
    quickCheck: Effect.succeed(true)
  })

describe("shutdown backup", () => {
  it.effect("a clean shutdown leaves a fresh, verified backup holding every write, the plugins' last ones included", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const logs = captureLogs()
      yield* run(
        dataDir,
        Effect.gen(function*() {
          // The first scheduled backup is on disk and the loop sleeps for an hour.
          yield* waitUntil(() => backupNames(dataDir).length === 1)
          yield* waitForSleeper
          yield* TestClock.setTime(Date.UTC(2025, 0, 2, 3, 4, 5, 6))
          const sql = yield* SqlClient.SqlClient
          for (const body of ["one", "two", "three"]) yield* sql`INSERT INTO notes (body) VALUES (${body})`
        })
      ).pipe(Effect.provide(logs.layer))

      expect(backupNames(dataDir)).toEqual([
        "garrison-19700101T000000000-scheduled.db",
        "garrison-20250102T030405006-shutdown.db"
      ])
      const backup = NodePath.join(dataDir, "backups", "garrison-20250102T030405006-shutdown.db")
      expect(yield* withFile(backup, notes)).toEqual(["one", "two", "three", "written while stopping"])
      expect(linesAt(logs.lines, LogLevel.Info).join("\n")).toContain("Shutdown backup done in")
    }))

  it.effect("without the host's backups (short-lived tools) a shutdown takes none", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* run(dataDir, Effect.void, { scheduledBackups: false })
      expect(backupNames(dataDir)).toEqual([])
    }))

  it.effect("a backup that outlasts the time limit is abandoned, so the shutdown goes on, and the log names the newest backup", () =>
    Effect.gen(function*() {
      const backupsDir = NodePath.join(tempDataDir(), "backups")
      NodeFs.mkdirSync(backupsDir, { recursive: true })
      NodeFs.writeFileSync(NodePath.join(backupsDir, "garrison-20250101T120000000-scheduled.db"), "")
      const logs = captureLogs()
      // Finalizers run uninterruptibly: the limit must hold there too.
      const fiber = yield* shutdownBackup(Duration.seconds(5)).pipe(
        Effect.uninterruptible,
        Effect.provide(fakeDatabase(backupsDir, () => Effect.never)),
        Effect.provide(logs.layer),
        Effect.fork
      )
      yield* waitForSleeper
      yield* TestClock.adjust("4999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      const warning = linesAt(logs.lines, LogLevel.Warning).join("\n")
      expect(warning).toContain("Shutdown backup did not finish within 5s")
      expect(warning).toContain("the newest backup is garrison-20250101T120000000-scheduled.db, taken 2025-01-01T12:00:00.000Z")
    }))

  it.effect("a failed shutdown backup is logged as an error and does not stop the shutdown", () =>
    Effect.gen(function*() {
      const backupsDir = NodePath.join(tempDataDir(), "backups")
      NodeFs.mkdirSync(backupsDir, { recursive: true })
      const logs = captureLogs()
      yield* shutdownBackup().pipe(
        Effect.provide(
          fakeDatabase(backupsDir, () => Effect.fail(new DatabaseError({ operation: "backup", message: "disk full" })))
        ),
        Effect.provide(logs.layer)
      )
      expect(linesAt(logs.lines, LogLevel.Error).join("\n")).toContain("Shutdown backup failed (there is no backup)")
    }))
})
