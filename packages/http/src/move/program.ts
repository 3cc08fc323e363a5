/**
 * The move from start to end, in the order that keeps it safe to run again:
 * everything that can be refused without touching PostgreSQL is refused
 * first (arguments, settings, the source, its migrations against this
 * code's); then one PostgreSQL transaction migrates, copies and checks, and
 * any failure inside it rolls all of it back, so the target is as empty as
 * it was. The source's snapshot ends only once PostgreSQL has committed.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { defaultPlugins } from "@garrison/plugins"
import {
  Database,
  DataDir,
  errorMessage,
  GarrisonConfig,
  type MigrationSet,
  planPlugins,
  runMigrations,
  SealedSecrets,
  Secrets,
  type StartupError
} from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NodePath from "node:path"
import { loadPlugins } from "../PluginLoader.js"
import { refuseIfCountsDiffer, refuseIfMigrationsDiffer, verifyAuditChain } from "./checks.js"
import { copyTables } from "./copy.js"
import { copyOrder, readSource, refuseIfInUse, type Source, type SourceTable } from "./source.js"
import type { Summary } from "./summary.js"
import { readTargetTables, refuseIfNotEmpty } from "./target.js"
import { listed, migrationKey, refuse, sqlProblem } from "./text.js"

/** The move, up to the source's snapshot's end: what was moved and checked, or a refusal. */
export const program: Effect.Effect<Summary, StartupError, GarrisonConfig> = Effect.gen(function* () {
  // Files SQLite creates beside the database (an empty -wal/-shm) are the owner's only, like the data directory's.
  process.umask(0o077)
  if (process.argv.length > 2) {
    // Not echoed: a URL given here may hold a password.
    return yield* refuse("config", "move-to-postgres takes no arguments: set DATA_DIR and DATABASE_URL (and PLUGINS, as the controller has it) in the environment")
  }
  const config = yield* GarrisonConfig
  if (config.databaseUrl === undefined) {
    return yield* refuse(
      "config",
      "DATABASE_URL is not set: set it to the empty PostgreSQL database to move to (postgres://user:password@host:5432/garrison)"
    )
  }
  const source = yield* readSource(NodePath.join(config.dataDir, "garrison.db"))
  const file = source.file

  // The controller's plugin list and its migrations: the source must be at exactly these versions.
  const plan = yield* planPlugins([...defaultPlugins, ...(yield* loadPlugins(config.plugins))])
  const sets: ReadonlyArray<MigrationSet> = plan.ordered.map((p) => ({ pluginId: p.id, migrations: p.migrations }))
  const expected = new Set(sets.flatMap((set) => set.migrations.map((m) => migrationKey(set.pluginId, m.version))))
  const have = new Set(source.migrations)
  const behind = [...expected].filter((key) => !have.has(key))
  const ahead = [...have].filter((key) => !expected.has(key))
  if (ahead.length > 0) {
    return yield* refuse(
      "database",
      `${file} has migrations this code does not (${listed(ahead)}): run this with the Garrison version and PLUGINS of the controller that last ran on it`
    )
  }
  if (behind.length > 0) {
    return yield* refuse(
      "database",
      `${file} lacks migrations of this version (${listed(behind)}): start the controller once on SQLite (DATABASE_URL unset) to migrate it, stop it, then run this again`
    )
  }
  const order = yield* copyOrder(source.tables)

  const summary = yield* moveInto(source, sets, order)
  yield* Effect.sync(() => source.db.exec("COMMIT"))
  return summary
}).pipe(Effect.scoped)

/** Into the database `DATABASE_URL` names, through the runtime's own store: refused unless empty, then one transaction. */
const moveInto = (source: Source, sets: ReadonlyArray<MigrationSet>, order: ReadonlyArray<SourceTable>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const database = yield* Database
    const target = database.file
    yield* refuseIfNotEmpty(sql, target)

    const moved = Effect.gen(function* () {
      // A second run against the same database waits here, then finds it not empty.
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('garrison move-to-postgres'))`
      yield* refuseIfNotEmpty(sql, target)
      yield* runMigrations(sets)
      const migrations = yield* refuseIfMigrationsDiffer(sql, source.migrations)
      const targetOf = yield* readTargetTables(sql, order)
      const copied = yield* copyTables(sql, source, order, targetOf)
      // The checks, before COMMIT: a mismatch rolls everything back.
      yield* refuseIfCountsDiffer(sql, order, targetOf)
      const audit = yield* verifyAuditChain(sql, source, targetOf)
      yield* refuseIfInUse(source.file, "during")
      return { copied, migrations: migrations.length, auditRows: audit?.rows, auditHash: audit?.lastHash }
    }).pipe(
      sql.withTransaction,
      Effect.catchTag("SqlError", (error) => Effect.fail(refuse("database", `PostgreSQL failed: ${sqlProblem(error)}`))),
      Effect.mapError((error) =>
        refuse(
          "database",
          `${error._tag === "StartupError" ? error.message : errorMessage(error)}; rolled back: nothing was written to ${target}`
        )
      )
    )
    const result = yield* moved
    const [version] = yield* sql<{ readonly server_version: string }>`SHOW server_version`
    return { source: source.file, target, serverVersion: version?.server_version.split(" ")[0] ?? "?", ...result } satisfies Summary
  }).pipe(
    Effect.catchTag("SqlError", (error) => Effect.fail(refuse("database", `PostgreSQL failed: ${sqlProblem(error)}`))),
    // The runtime's own store (start-up checks, the pool) and what runMigrations needs besides.
    Effect.provide(Layer.merge(Database.layer, SealedSecrets.layer.pipe(Layer.provide(Secrets.layer), Layer.provide(DataDir.layer))))
  )
