/**
 * The controller's one database, on one of two engines: SQLite in
 * `<dataDir>/garrison.db` (the embedded default), or the PostgreSQL
 * database `DATABASE_URL` names. Plugins see only the portable
 * `SqlClient` (see docs/database.md for the rules that keep their SQL
 * working on both) and this service: backups, what start-up found.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { GarrisonConfig } from "../config/GarrisonConfig.js"
import type { StartupError } from "../kernel/StartupError.js"
import type { DatabaseError } from "./DatabaseError.js"
import type { StartupRecovery } from "./internal/recovery.js"
import { makeSqliteStore } from "./internal/sqliteStore.js"

export { DatabaseError } from "./DatabaseError.js"
export type { StartupRecovery } from "./internal/recovery.js"

export interface DatabaseShape {
  /** Which engine holds the data: SQLite in the data directory, or the PostgreSQL server `DATABASE_URL` names. */
  readonly engine: "sqlite" | "postgres"
  /** SQLite: absolute path of `garrison.db`. PostgreSQL: the URL without its password. */
  readonly file: string
  /** Absolute path of the backups folder. */
  readonly backupsDir: string
  /**
   * Who keeps the backups: `files`, this layer (`backupNow` writes them);
   * `server`, the PostgreSQL server's own backups, as no pg_dump is
   * installed (`backupNow` fails saying so; scheduled and pre-migration
   * backups are skipped).
   */
  readonly backups: "files" | "server"
  /** What the start-up check found and did. */
  readonly startup: StartupRecovery
  /**
   * Online backup to `backups/garrison-<YYYYMMDDTHHMMSSmmm>-<label>.db`
   * (PostgreSQL: `.pgdump`, pg_dump's custom format), verified before it
   * gets that name (`quick_check`; `pg_restore --list`); returns its path.
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
  /** `PRAGMA quick_check` on the open database (PostgreSQL: it answers). */
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

export class Database extends Context.Tag("@garrison/runtime/Database")<Database, DatabaseShape>() {
  /**
   * The store the configuration names (`DATABASE_URL`, else SQLite in the
   * data directory), checked and opened; closed when the layer's scope closes.
   */
  static readonly layer: Layer.Layer<Database | SqlClient.SqlClient, StartupError, GarrisonConfig> = Layer.scopedContext(
    Effect.gen(function*() {
      const config = yield* GarrisonConfig
      const url = config.databaseUrl
      // Loaded only for PostgreSQL: the driver is not evaluated at start-up on the embedded default.
      const { client, database } = url === undefined
        ? yield* makeSqliteStore
        : yield* Effect.flatMap(Effect.promise(() => import("./internal/postgresStore.js")), (store) => store.makePostgresStore(url))
      return Context.make(Database, database).pipe(Context.add(SqlClient.SqlClient, client))
    })
  ).pipe(Layer.provide(Reactivity.layer))
}
