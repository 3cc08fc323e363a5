/**
 * Per-plugin, numbered schema migrations, recorded in one table
 * `garrison_migrations`. SQL here is portable (no SQLite-only syntax) because
 * the same `SqlClient` may be PostgreSQL later.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { StartupError } from "../kernel/StartupError.js"
import type { SealedSecrets } from "../secrets/SealedSecrets.js"
import { Database } from "./Database.js"
import { describeCause } from "./internal/files.js"

export interface Migration {
  /** Positive integer, unique within the plugin; migrations run in ascending order. */
  readonly version: number
  readonly name: string
  /**
   * May use `SealedSecrets` to seal values a newer version keeps encrypted; a
   * key problem it meets is a StartupError, passed on as it is.
   */
  readonly up: Effect.Effect<void, SqlError | StartupError, SqlClient.SqlClient | SealedSecrets>
}

/** A migration's statements, given the client: run in order, their results ignored. */
export type MigrationStatements = (sql: SqlClient.SqlClient) => ReadonlyArray<Effect.Effect<unknown, SqlError>>

/**
 * One numbered migration, as plugins write them:
 *
 *   migration(1, "create bans", (sql) => [sql`CREATE TABLE bans (...)`, sql`CREATE INDEX ...`])
 *
 * The statements run in order, inside the transaction that records the
 * migration. A migration that reads before it writes (sealing values stored
 * in clear, say) passes its own Effect instead of the statements.
 */
export const migration = (version: number, name: string, up: MigrationStatements | Migration["up"]): Migration => ({
  version,
  name,
  up: typeof up === "function" ? Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.all(up(sql), { discard: true })) : up
})

export interface MigrationSet {
  readonly pluginId: string
  readonly migrations: ReadonlyArray<Migration>
}

export interface AppliedMigration {
  readonly pluginId: string
  readonly version: number
  readonly name: string
}

export interface MigrationReport {
  /** What this run applied, in order. */
  readonly applied: Array<AppliedMigration>
  /** The "pre-migration" backup, when one was taken. */
  readonly backup?: string
}

interface Row {
  readonly plugin_id: string
  readonly version: number | string
  readonly name: string
}

const failure = (message: string) => new StartupError({ reason: "database", message })

const sqlDetail = (error: SqlError): string => `${error.message}: ${describeCause(error.cause)}`

/** Rejects sets a plugin author got wrong; returns each set sorted by version. */
const validate = (sets: ReadonlyArray<MigrationSet>): Effect.Effect<ReadonlyArray<MigrationSet>, StartupError> =>
  Effect.gen(function*() {
    const seenPlugins = new Set<string>()
    const sorted: Array<MigrationSet> = []
    for (const set of sets) {
      if (set.pluginId.trim().length === 0) return yield* failure("A migration set has an empty plugin id")
      if (seenPlugins.has(set.pluginId)) {
        return yield* new StartupError({
          reason: "duplicate-plugin",
          message: `Plugin "${set.pluginId}" supplies migrations twice`
        })
      }
      seenPlugins.add(set.pluginId)
      const versions = new Set<number>()
      for (const m of set.migrations) {
        if (!Number.isSafeInteger(m.version) || m.version < 1) {
          return yield* failure(
            `Plugin "${set.pluginId}" migration "${m.name}" has version ${m.version}; versions must be positive integers`
          )
        }
        if (versions.has(m.version)) {
          return yield* failure(`Plugin "${set.pluginId}" has two migrations with version ${m.version}`)
        }
        versions.add(m.version)
      }
      sorted.push({ pluginId: set.pluginId, migrations: [...set.migrations].sort((a, b) => a.version - b.version) })
    }
    return sorted
  })

const createTable = (sql: SqlClient.SqlClient) =>
  sql`CREATE TABLE IF NOT EXISTS garrison_migrations (
    plugin_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (plugin_id, version)
  )`

const key = (pluginId: string, version: number) => `${pluginId}\u0000${version}`

/**
 * Recorded migrations the code no longer has: worth a warning, not a
 * refusal to start. A plugin that is not loaded gets one line, however
 * many migrations it recorded.
 */
const warnAboutDrift = (sets: ReadonlyArray<MigrationSet>, rows: ReadonlyArray<Row>) =>
  Effect.gen(function*() {
    const notLoaded = new Map<string, Array<number>>()
    for (const row of rows) {
      const set = sets.find((s) => s.pluginId === row.plugin_id)
      const version = Number(row.version)
      if (set === undefined) {
        notLoaded.set(row.plugin_id, [...(notLoaded.get(row.plugin_id) ?? []), version])
        continue
      }
      const code = set.migrations.find((m) => m.version === version)
      if (code === undefined) {
        yield* Effect.logWarning(
          `Database has migration ${row.plugin_id} v${version} "${row.name}" that the plugin's code no longer contains`
        )
      } else if (code.name !== row.name) {
        yield* Effect.logWarning(
          `Migration ${row.plugin_id} v${version} was applied as "${row.name}" but the code now calls it "${code.name}"`
        )
      }
    }
    for (const [pluginId, versions] of notLoaded) {
      const span = versions.length === 1 ? `v${versions[0]}` : `v${Math.min(...versions)} to v${Math.max(...versions)}`
      yield* Effect.logWarning(
        `Database has migrations ${span} of plugin "${pluginId}", which is not loaded: its tables are kept as they are`
      )
    }
  })

/** One migration and its bookkeeping row, committed together or not at all. */
const apply = (sql: SqlClient.SqlClient, pluginId: string, migration: Migration) =>
  Effect.gen(function*() {
    const appliedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    yield* migration.up
    yield* sql`INSERT INTO garrison_migrations (plugin_id, version, name, applied_at)
      VALUES (${pluginId}, ${migration.version}, ${migration.name}, ${appliedAt})`
  }).pipe(
    sql.withTransaction,
    Effect.mapError((error) =>
      error._tag === "StartupError"
        ? error
        : failure(`Migration ${pluginId} v${migration.version} "${migration.name}" failed: ${sqlDetail(error)}`)
    ),
    Effect.catchAllDefect((defect) =>
      Effect.fail(
        failure(`Migration ${pluginId} v${migration.version} "${migration.name}" crashed: ${describeCause(defect)}`)
      )
    )
  )

/**
 * Applies every pending migration, plugin by plugin in the order given, each
 * in its own transaction. If the database already had migrations, a
 * "pre-migration" backup is taken first so a bad upgrade can be undone.
 */
export const runMigrations = (
  sets: ReadonlyArray<MigrationSet>
): Effect.Effect<MigrationReport, StartupError, SqlClient.SqlClient | Database | SealedSecrets> =>
  Effect.gen(function*() {
    const valid = yield* validate(sets)
    const sql = yield* SqlClient.SqlClient
    const rows = yield* createTable(sql).pipe(
      Effect.zipRight(sql<Row>`SELECT plugin_id, version, name FROM garrison_migrations`),
      Effect.mapError((error) => failure(`Cannot read garrison_migrations: ${sqlDetail(error)}`))
    )
    yield* warnAboutDrift(valid, rows)

    const done = new Set(rows.map((row) => key(row.plugin_id, Number(row.version))))
    const pending = valid.map((set) => ({
      pluginId: set.pluginId,
      migrations: set.migrations.filter((m) => !done.has(key(set.pluginId, m.version)))
    }))
    if (pending.every((set) => set.migrations.length === 0)) return { applied: [] }

    let backup: string | undefined
    if (rows.length > 0) {
      const database = yield* Database
      if (database.backups === "server") {
        yield* Effect.logWarning("Migrating without a pre-migration backup: no pg_dump here, so the PostgreSQL server's own backups apply")
      } else {
        backup = yield* database.backupNow("pre-migration").pipe(
          Effect.mapError((error) => failure(`Not migrating: the pre-migration backup failed: ${error.message}`))
        )
      }
    }

    const applied: Array<AppliedMigration> = []
    for (const set of pending) {
      for (const migration of set.migrations) {
        yield* apply(sql, set.pluginId, migration)
        applied.push({ pluginId: set.pluginId, version: migration.version, name: migration.name })
        yield* Effect.logInfo(`Applied migration ${set.pluginId} v${migration.version} "${migration.name}"`)
      }
    }
    return backup === undefined ? { applied } : { applied, backup }
  })
