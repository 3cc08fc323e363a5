/**
 * The PostgreSQL half of `garrison backup` and `garrison restore` (see BackupCommands.ts): the tools, and a
 * restore that refuses (nothing changed) while other sessions use the database or when the database has
 * tables the dump does not, keeps the database as it was aside (the runtime's pg_dump), then restores in one
 * transaction. The password reaches pg_restore in `PGPASSWORD` only and is never printed.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Database, describeDatabaseUrl, findPgTools, type GarrisonConfig, runPgTool, splitDatabasePassword, takePgDump } from "@garrison/runtime"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import * as NodePath from "node:path"
import { CliFailure, describeFailure } from "./CliFailure.js"

type PgTools = NonNullable<ReturnType<typeof findPgTools>>

const asCliFailure = (error: unknown) => (error instanceof CliFailure ? error : new CliFailure({ message: describeFailure(error) }))

const attempt = <A>(what: string, f: () => A) => Effect.try({ try: f, catch: (cause) => new CliFailure({ message: `${what}: ${describeFailure(cause)}` }) })

/** pg_dump and pg_restore (`PG_BIN`, else the PATH), or a refusal naming what to install. */
export const pgTools = (what: string) =>
  Effect.suspend(() => {
    const tools = findPgTools(process.env)
    return tools === undefined
      ? Effect.fail(
          new CliFailure({ message: `${what} on PostgreSQL needs pg_dump and pg_restore: install postgresql-client (the server's major version or newer), or set PG_BIN` })
        )
      : Effect.succeed(tools)
  })

/** Client sessions on the database other than this one (a controller, psql, ...): the store opened and closed again. */
const otherSessions = Effect.scoped(
  Effect.gen(function* () {
    const context = yield* Layer.build(Database.layer)
    const sql = Context.get(context, SqlClient.SqlClient)
    const rows = yield* sql<{ readonly sessions: number }>`
      SELECT count(*)::int AS sessions FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`
    return Number(rows[0]?.sessions ?? 0)
  })
)

/** The tables (`schema.name`) a `pg_restore --list` names: its lines `<id>; <oid> <oid> TABLE <schema> <name> <owner>`. */
const dumpTables = (list: string): ReadonlySet<string> =>
  new Set([...list.matchAll(/^\d+; \d+ \d+ TABLE (\S+) (\S+) /gm)].map((match) => `${match[1]}.${match[2]}`))

/** The database's own tables (not the system's) that `tables` does not name. */
const tablesNotIn = (tables: ReadonlySet<string>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const context = yield* Layer.build(Database.layer)
      const sql = Context.get(context, SqlClient.SqlClient)
      const rows = yield* sql<{ readonly name: string }>`
        SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`
      return rows.map((row) => row.name).filter((name) => !tables.has(name))
    })
  )

/** Restores `dump` into the database: one transaction, so a failure leaves the database as it was. */
const pgRestore = (tools: { readonly pgRestore: string }, url: Redacted.Redacted<string>, dump: string) => {
  const { password, url: withoutPassword } = splitDatabasePassword(url)
  return runPgTool(tools.pgRestore, ["--clean", "--if-exists", "--single-transaction", "--no-owner", `--dbname=${withoutPassword}`, dump], password)
}

/**
 * Restores `dump` (checked with `pg_restore --list`) into the database at `url`, keeping the database as it was
 * in `aside` first; the name of that dump in `aside`.
 */
export const restorePostgres = (options: {
  readonly tools: PgTools
  readonly url: Redacted.Redacted<string>
  readonly dump: string
  readonly archive: string
  readonly aside: string
}): Effect.Effect<string, CliFailure, GarrisonConfig> =>
  Effect.gen(function* () {
    const { tools, url, dump, archive, aside } = options
      const where = describeDatabaseUrl(url)
      const contents = `${dump}.list`
      yield* runPgTool(tools.pgRestore, ["--list", `--file=${contents}`, dump], undefined).pipe(
        Effect.mapError((detail) => new CliFailure({ message: `the database dump in ${archive} cannot be read by pg_restore (${detail}): nothing was changed` }))
      )
      // `--clean` drops only what the dump has: a table made since (a later migration or plugin) would survive
      // next to older migration rows, and the next start's migrations would collide with it.
      const newer = yield* tablesNotIn(dumpTables(readFileSync(contents, "utf8"))).pipe(Effect.mapError(asCliFailure))
      if (newer.length > 0) {
        return yield* new CliFailure({
          message:
            `${where} has tables the backup does not (${newer.slice(0, 5).join(", ")}${newer.length > 5 ? `, and ${newer.length - 5} more` : ""}: ` +
            "made by a later version or plugin); restore into an empty database (createdb, then point DATABASE_URL at it); nothing was changed"
        })
      }
      const sessions = yield* otherSessions.pipe(Effect.mapError(asCliFailure))
      if (sessions > 0) {
        return yield* new CliFailure({
          message:
            `${sessions} other session${sessions === 1 ? " is" : "s are"} connected to ${where}: stop the controller (and any other client of ` +
            "the database) before restoring; nothing was changed"
        })
      }
      // The database as it is goes aside first (the runtime's pg_dump, checked), as SQLite's file does.
      yield* attempt(`cannot create ${aside}`, () => mkdirSync(aside, { mode: 0o700 }))
      const before = yield* takePgDump(tools, url, aside, "before-restore").pipe(
        Effect.mapError((error) => new CliFailure({ message: `cannot keep ${where} aside before restoring (${describeFailure(error)}): nothing was changed` }))
      )
          yield* pgRestore(tools, url, dump).pipe(
        Effect.mapError(
          (detail) =>
            new CliFailure({ message: `pg_restore into ${where} failed (${detail}); it ran in one transaction, so the database is as it was; nothing was changed` })
        ),
        Effect.tapError(() => Effect.sync(() => rmSync(aside, { recursive: true, force: true })))
      )
    return NodePath.basename(before)
  })
