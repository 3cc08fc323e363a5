/**
 * The PostgreSQL store, chosen by `DATABASE_URL`: a pool of connections
 * through `@effect/sql-pg`, checked at start-up (it answers, it is
 * PostgreSQL 15 or newer, the database can be written), and backups as
 * pg_dump files in `<dataDir>/backups/` when pg_dump is installed. Without
 * pg_dump the database server's own backups apply (`backups: "server"`):
 * the scheduled and pre-migration backups are skipped, saying so once.
 * No SQLite file logic: corruption recovery is the server's business.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { describeDatabaseUrl, GarrisonConfig } from "../../config/GarrisonConfig.js"
import { makePrivateDir } from "../../files/PrivateModes.js"
import { StartupError } from "../../kernel/StartupError.js"
import type { DatabaseShape } from "../Database.js"
import { DatabaseError } from "../DatabaseError.js"
import { backupHousekeeping, removePartials } from "./backups.js"
import { databasePaths, describeCause } from "./files.js"
import { findPgTools, takePgDump } from "./pgDump.js"

/** The oldest server the controller runs on: the one its tests run against. */
export const MINIMUM_SERVER_VERSION = 150000

/** Connections in the pool: a request holds one only for a statement or a transaction. */
const MAX_CONNECTIONS = 10

const startupError = (where: string, message: string) => new StartupError({ reason: "database", message: `PostgreSQL at ${where}: ${message}` })

/** The driver's own words for a failure (connection refused, password authentication failed, ...), never the URL. */
const sqlDetail = (error: { readonly message: string; readonly cause?: unknown }): string => {
  const cause = error.cause as { readonly message?: unknown; readonly code?: unknown } | undefined
  const detail = typeof cause?.message === "string" && cause.message !== "" ? cause.message : describeCause(error.cause ?? error.message)
  return typeof cause?.code === "string" ? `${detail} (${cause.code})` : detail
}

export const makePostgresStore = (url: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const config = yield* GarrisonConfig
    const where = describeDatabaseUrl(url)
    const paths = databasePaths(config.dataDir)
    const client = yield* PgClient.make({
      url,
      maxConnections: MAX_CONNECTIONS,
      connectTimeout: Duration.seconds(10),
      applicationName: "garrison"
    }).pipe(
      Effect.mapError((error) => startupError(where, `cannot connect: ${sqlDetail(error)}`)),
      Effect.catchAllDefect((defect) => Effect.fail(startupError(where, `cannot connect: ${describeCause(defect)}`)))
    )
    const [version] = yield* client<{ readonly server_version_num: string; readonly read_only: string }>`
      SELECT current_setting('server_version_num') AS server_version_num, current_setting('transaction_read_only') AS read_only`.pipe(
      Effect.mapError((error) => startupError(where, `cannot read the server version: ${sqlDetail(error)}`))
    )
    const versionNumber = Number(version?.server_version_num)
    if (!(versionNumber >= MINIMUM_SERVER_VERSION)) {
      return yield* startupError(where, `version ${formatVersion(versionNumber)} is too old; Garrison needs PostgreSQL 15 or newer`)
    }
    if (version?.read_only === "on") {
      return yield* startupError(where, "the connection is read-only (a standby?); point DATABASE_URL at the primary")
    }
    // A database without Garrison's tables is a new store (SQLite: no garrison.db yet), whatever else it holds.
    const startup = (yield* hasGarrisonTables(client).pipe(
      Effect.mapError((error) => startupError(where, `cannot read its tables: ${sqlDetail(error)}`))
    ))
      ? ({ outcome: "opened" } as const)
      : ({ outcome: "created" } as const)
    if (startup.outcome === "created") yield* Effect.logInfo(`No Garrison tables in ${where} yet: a new store`)

    // Read through Config, like every setting, so a test can hide pg_dump.
    const tools = findPgTools({
      PG_BIN: yield* Config.string("PG_BIN").pipe(Config.withDefault(""), Effect.orElseSucceed(() => "")),
      PATH: yield* Config.string("PATH").pipe(Config.withDefault(""), Effect.orElseSucceed(() => ""))
    })
    yield* makePrivateDir(paths.backupsDir).pipe(
      Effect.mapError((cause) => new StartupError({ reason: "data-dir", message: `Cannot create ${paths.backupsDir}: ${describeCause(cause)}` }))
    )
    yield* removePartials(paths.backupsDir)
    const backupLock = yield* Effect.makeSemaphore(1)
    const backupNow = (label: string): Effect.Effect<string, DatabaseError> =>
      tools === undefined
        ? Effect.fail(
            new DatabaseError({
              operation: "backup",
              message: "pg_dump is not installed (install postgresql-client, or set PG_BIN); the PostgreSQL server's own backups apply"
            })
          )
        : backupLock.withPermits(1)(takePgDump(tools, url, paths.backupsDir, label))
    const { prune, requestBackup } = yield* backupHousekeeping(paths.backupsDir, config, backupNow)
    const database: DatabaseShape = {
      engine: "postgres",
      file: where,
      backupsDir: paths.backupsDir,
      backups: tools === undefined ? "server" : "files",
      startup,
      backupNow,
      requestBackup: tools === undefined ? () => Effect.void : requestBackup,
      pruneBackups: prune,
      quickCheck: client`SELECT 1 AS ok`.pipe(
        Effect.map((rows) => rows.length === 1),
        Effect.mapError((error) => new DatabaseError({ operation: "quick-check", message: sqlDetail(error) }))
      )
    }
    yield* Effect.logInfo(
      `Database: PostgreSQL ${formatVersion(versionNumber)} at ${where}; ${
        tools === undefined ? "no pg_dump here, so the server's own backups apply" : `backups with ${tools.pgDump} into ${paths.backupsDir}`
      }`
    )
    return { database, client: client as SqlClient.SqlClient }
  })

/**
 * Whether the database has Garrison's tables: `garrison_migrations`, the first table the migrations make, where the
 * controller's statements find it (the connection's search path).
 */
export const hasGarrisonTables = (client: SqlClient.SqlClient) =>
  Effect.map(
    client<{ readonly migrations: string | null }>`SELECT to_regclass('garrison_migrations')::text AS migrations`,
    (rows) => rows[0]?.migrations !== null && rows[0]?.migrations !== undefined
  )

/** `150004` as `15.4`; `170000` as `17.0`. */
const formatVersion = (num: number): string =>
  Number.isFinite(num) ? `${Math.floor(num / 10000)}.${num % 10000}` : "unknown"
