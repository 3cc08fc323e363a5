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
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as NodeFs from "node:fs"
import { GarrisonConfig } from "../config/GarrisonConfig.js"
import { StartupError } from "../kernel/StartupError.js"
import { DatabaseError } from "./DatabaseError.js"
import { pruneBackups, takeBackup } from "./internal/backups.js"
import { attempt, backupTime, databasePaths, describeCause, listBackups } from "./internal/files.js"
import { recover, type StartupRecovery } from "./internal/recovery.js"

export { DatabaseError } from "./DatabaseError.js"
export type { StartupRecovery } from "./internal/recovery.js"

export interface DatabaseShape {
  /** Absolute path of `garrison.db`. */
  readonly file: string
  /** Absolute path of the backups folder. */
  readonly backupsDir: string
  /** What the start-up check found and did. */
  readonly startup: StartupRecovery
  /** Online backup to `backups/garrison-<YYYYMMDDTHHMMSSmmm>-<label>.db`; returns its path. */
  readonly backupNow: (label: string) => Effect.Effect<string, DatabaseError>
  /** Keeps the newest `backupKeep` backups; returns how many were removed. Never fails (problems are logged). */
  readonly pruneBackups: Effect.Effect<number>
  /** `PRAGMA quick_check` on the open database. */
  readonly quickCheck: Effect.Effect<boolean, DatabaseError>
}

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
  yield* attempt(() => NodeFs.mkdirSync(paths.backupsDir, { recursive: true })).pipe(
    Effect.mapError((cause) =>
      new StartupError({ reason: "data-dir", message: `Cannot create ${paths.backupsDir}: ${describeCause(cause)}` })
    )
  )
  const startup = yield* recover(paths)

  // The client constructor throws (a defect) on e.g. permission errors; turn that into a start-up failure.
  const client = yield* SqliteClient.make({ filename: paths.file }).pipe(
    Effect.catchAllDefect((defect) => Effect.fail(databaseError(`Cannot open ${paths.file}: ${describeCause(defect)}`)))
  )
  yield* configure(client, paths.file)
  // One backup at a time: concurrent ones (scheduled + pre-migration) could pick the same file name.
  const backupLock = yield* Effect.makeSemaphore(1)

  const database: DatabaseShape = {
    file: paths.file,
    backupsDir: paths.backupsDir,
    startup,
    backupNow: (label) => backupLock.withPermits(1)(takeBackup(client, paths.backupsDir, label)),
    pruneBackups: pruneBackups(paths.backupsDir, config.backupKeep),
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

/**
 * Time until the next scheduled backup: one interval after the newest backup
 * on disk, so frequent restarts neither skip backups nor take extra ones.
 */
const firstDelay = (backupsDir: string, interval: Duration.Duration): Effect.Effect<Duration.Duration> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const newest = yield* listBackups(backupsDir).pipe(
      Effect.map((paths) => paths[0] === undefined ? undefined : backupTime(paths[0])),
      Effect.orElseSucceed(() => undefined)
    )
    if (newest === undefined) return Duration.zero
    const wait = Duration.millis(Math.max(0, newest + Duration.toMillis(interval) - now))
    return Duration.min(wait, interval)
  })

/**
 * Backs up (label "scheduled") and prunes every `backupInterval`, forever.
 * A failed round is logged and the loop carries on. The host forks this.
 */
export const scheduledBackups: Effect.Effect<never, never, Database | GarrisonConfig> = Effect.gen(function*() {
  const database = yield* Database
  const config = yield* GarrisonConfig
  if (Duration.lessThanOrEqualTo(config.backupInterval, Duration.zero)) {
    // A zero interval would back up in a tight loop; treat it as "off".
    yield* Effect.logWarning("Database backup interval is not positive; scheduled backups are disabled")
    return yield* Effect.never
  }
  const round = database.backupNow("scheduled").pipe(
    Effect.zipRight(database.pruneBackups),
    Effect.catchAllCause((cause) => Effect.logError("Scheduled database backup failed; will retry next interval", cause))
  )
  yield* Effect.sleep(yield* firstDelay(database.backupsDir, config.backupInterval))
  return yield* round.pipe(Effect.repeat(Schedule.spaced(config.backupInterval)), Effect.zipRight(Effect.never))
})
