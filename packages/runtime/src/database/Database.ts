/**
 * The controller's one SQLite database (`<dataDir>/garrison.db`) and its
 * backups (`<dataDir>/backups/`). The layer checks and, if needed, recovers
 * the file before the Effect client opens it, then provides the client as
 * both `SqlClient` (what plugins use, portable to PostgreSQL later) and
 * `SqliteClient` (for SQLite-only needs such as online backups).
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { GarrisonConfig } from "../config/GarrisonConfig.js"
import { StartupError } from "../kernel/StartupError.js"
import { DatabaseError } from "./DatabaseError.js"
import { pruneBackups, removePartials, takeBackup } from "./internal/backups.js"
import { createPrivateFile, makePrivateDir, PRIVATE_FILE_MODE, tightenMode } from "../files/PrivateModes.js"
import {
  attempt,
  databasePaths,
  type DatabasePaths,
  describeCause,
  listBackups,
  SIDECARS
} from "./internal/files.js"
import { recover, type StartupRecovery } from "./internal/recovery.js"
import { makeBackupRequests } from "./internal/requests.js"
import { DAILY_BACKUP_DAYS } from "./internal/retention.js"

export { DatabaseError } from "./DatabaseError.js"
export type { StartupRecovery } from "./internal/recovery.js"

export interface DatabaseShape {
  /** Absolute path of `garrison.db`. */
  readonly file: string
  /** Absolute path of the backups folder. */
  readonly backupsDir: string
  /** What the start-up check found and did. */
  readonly startup: StartupRecovery
  /**
   * Online backup to `backups/garrison-<YYYYMMDDTHHMMSSmmm>-<label>.db`,
   * verified with `quick_check` before it gets that name; returns its path.
   */
  readonly backupNow: (label: string) => Effect.Effect<string, DatabaseError>
  /**
   * Asks for a backup soon (label from `reason`, e.g. "bans-import"), after a
   * bulk write worth more than the hour a scheduled backup may lag (see
   * `BULK_WRITE_BACKUP_ROWS`). Returns at once and never fails: bursts are
   * coalesced into one or two backups by a worker of this layer.
   */
  readonly requestBackup: (reason: string) => Effect.Effect<void>
  /**
   * Removes the backups the retention policy does not keep: the newest
   * `backupKeep`, the newest of each of the last `backupKeep` backup
   * intervals and of each of the last 7 UTC days stay. Returns how many were
   * removed; never fails (problems are logged).
   */
  readonly pruneBackups: Effect.Effect<number>
  /** `PRAGMA quick_check` on the open database. */
  readonly quickCheck: Effect.Effect<boolean, DatabaseError>
}

/**
 * An import (or any bulk write) that adds at least this many rows asks for a
 * backup with `requestBackup`. Scheduled backups alone may lag a whole
 * interval (an hour by default); a hand-kept ban list gains a few rows in
 * that time, which an operator can re-enter after a restore, while an
 * import of a hundred or more is a batch nobody wants to find missing. Smaller
 * imports wait for the next scheduled backup, like any other write.
 */
export const BULK_WRITE_BACKUP_ROWS = 100

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

const make = Effect.gen(function*() {
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
  const prune = pruneBackups(paths.backupsDir, {
    keep: config.backupKeep,
    intervalMs: Duration.toMillis(config.backupInterval),
    days: DAILY_BACKUP_DAYS
  })
  // Requested backups are served for as long as the database is open (before it closes,
  // this fiber is interrupted; an unfinished copy is removed, never renamed).
  const requests = yield* makeBackupRequests()
  yield* Effect.forkScoped(requests.serve((label) =>
    backupNow(label).pipe(
      Effect.zipRight(prune),
      Effect.asVoid,
      Effect.catchAllCause((cause) => Effect.logError(`Requested database backup (${label}) failed`, cause))
    )
  ))

  const database: DatabaseShape = {
    file: paths.file,
    backupsDir: paths.backupsDir,
    startup,
    backupNow,
    requestBackup: requests.request,
    pruneBackups: prune,
    quickCheck: client.unsafe<{ readonly quick_check: string }>("PRAGMA quick_check").pipe(
      Effect.map((rows) => rows.length === 1 && rows[0]?.quick_check === "ok"),
      Effect.mapError((error) =>
        new DatabaseError({ operation: "quick-check", message: `${error.message} ${describeCause(error.cause)}` })
      )
    )
  }
  return Context.make(Database, database).pipe(
    Context.add(SqlClient.SqlClient, client),
    Context.add(SqliteClient.SqliteClient, client)
  )
})

export class Database extends Context.Tag("@garrison/runtime/Database")<Database, DatabaseShape>() {
  /** Checks/recovers, opens and configures `<dataDir>/garrison.db`; closed when the layer's scope closes. */
  static readonly layer: Layer.Layer<
    Database | SqlClient.SqlClient | SqliteClient.SqliteClient,
    StartupError,
    GarrisonConfig
  > = Layer.scopedContext(make).pipe(Layer.provide(Reactivity.layer))
}
