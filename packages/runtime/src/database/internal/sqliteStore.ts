/**
 * The SQLite store: `<dataDir>/garrison.db`, checked and, if needed,
 * recovered before the Effect client opens it, and its file backups
 * (`<dataDir>/backups/`). The embedded default (no `DATABASE_URL`).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import { GarrisonConfig } from "../../config/GarrisonConfig.js"
import { createPrivateFile, makePrivateDir, PRIVATE_FILE_MODE, tightenMode } from "../../files/PrivateModes.js"
import { StartupError } from "../../kernel/StartupError.js"
import { DatabaseError } from "../DatabaseError.js"
import type { DatabaseShape } from "../Database.js"
import { backupHousekeeping, removePartials, takeBackup } from "./backups.js"
import { attempt, databasePaths, type DatabasePaths, describeCause, listBackups, SIDECARS } from "./files.js"
import { recover } from "./recovery.js"

/** The database, its -wal/-shm and every backup (with theirs), tightened to 0600 where looser. */
const tightenPrivateFiles = (paths: DatabasePaths): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const backups = yield* listBackups(paths.backupsDir)
    for (const file of [paths.file, ...backups]) {
      for (const suffix of ["", ...SIDECARS]) yield* tightenMode(file + suffix, PRIVATE_FILE_MODE)
    }
  })

const databaseError = (message: string) => new StartupError({ reason: "database", message })

/** Pragmas every connection needs; WAL is the client's default and is verified, not assumed. */
const configure = (client: SqliteClient.SqliteClient, file: string): Effect.Effect<void, StartupError> =>
  Effect.gen(function*() {
    const [mode] = yield* client.unsafe<{ readonly journal_mode: string }>("PRAGMA journal_mode")
    if (mode?.journal_mode.toLowerCase() !== "wal") {
      return yield* databaseError(
        `${file} did not switch to WAL journal mode (got "${mode?.journal_mode}"); is the data directory on a network filesystem?`
      )
    }
    // FULL: a commit the API acknowledged survives a power cut, not only a crash.
    yield* client.unsafe("PRAGMA synchronous = FULL")
    yield* client.unsafe("PRAGMA foreign_keys = ON")
    yield* client.unsafe("PRAGMA busy_timeout = 5000")
  }).pipe(
    Effect.catchTag("SqlError", (error) =>
      Effect.fail(databaseError(`Cannot configure ${file}: ${error.message} ${describeCause(error.cause)}`)))
  )

export const makeSqliteStore = Effect.gen(function*() {
  const config = yield* GarrisonConfig
  const paths = databasePaths(config.dataDir)
  yield* makePrivateDir(paths.backupsDir).pipe(
    Effect.mapError((cause) =>
      new StartupError({ reason: "data-dir", message: `Cannot create ${paths.backupsDir}: ${describeCause(cause)}` })
    )
  )
  // Owner read/write only, whatever the umask: looser existing files are tightened before anything opens them
  // (SQLite gives a new -wal/-shm the database file's mode), and a new file is created 0600 before SQLite opens it.
  yield* tightenPrivateFiles(paths).pipe(
    Effect.mapError((cause) => databaseError(`Cannot make ${paths.file} private: ${describeCause(cause)}`))
  )
  const startup = yield* recover(paths)
  yield* removePartials(paths.backupsDir)
  yield* attempt(() => createPrivateFile(paths.file)).pipe(
    Effect.mapError((cause) => databaseError(`Cannot create ${paths.file}: ${describeCause(cause)}`))
  )

  // The client constructor throws (a defect) on e.g. permission errors; turn that into a start-up failure.
  const client = yield* SqliteClient.make({ filename: paths.file }).pipe(
    Effect.catchAllDefect((defect) => Effect.fail(databaseError(`Cannot open ${paths.file}: ${describeCause(defect)}`)))
  )
  yield* configure(client, paths.file)
  // The -wal/-shm exist now (WAL mode): checked once more, as SQLite may have met them from an older run.
  yield* Effect.forEach(SIDECARS, (suffix) => tightenMode(paths.file + suffix, PRIVATE_FILE_MODE)).pipe(
    Effect.mapError((cause) => databaseError(`Cannot make ${paths.file}'s -wal/-shm private: ${describeCause(cause)}`))
  )
  // One backup at a time: concurrent ones (scheduled + pre-migration) could pick the same file name.
  const backupLock = yield* Effect.makeSemaphore(1)
  const backupNow = (label: string) => backupLock.withPermits(1)(takeBackup(client, paths.backupsDir, label))
  const { prune, requestBackup } = yield* backupHousekeeping(paths.backupsDir, config, backupNow)

  const database: DatabaseShape = {
    engine: "sqlite",
    file: paths.file,
    backupsDir: paths.backupsDir,
    backups: "files",
    startup,
    backupNow,
    requestBackup,
    pruneBackups: prune,
    quickCheck: client.unsafe<{ readonly quick_check: string }>("PRAGMA quick_check").pipe(
      Effect.map((rows) => rows.length === 1 && rows[0]?.quick_check === "ok"),
      Effect.mapError((error) =>
        new DatabaseError({ operation: "quick-check", message: `${error.message} ${describeCause(error.cause)}` })
      )
    )
  }
  return { database, client: client as SqlClient.SqlClient }
})

