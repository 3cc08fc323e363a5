/**
 * `garrison backup [--out file]` and `garrison restore <file>`: the data directory in one zip (see `Archive.ts`):
 * the database, the secret keys (`secrets/`: without them sealed values such as RCON passwords and MFA secrets
 * cannot be read again) and the server backups (`server-backups/`, when `BACKUP_DIR` is inside the data
 * directory). The manifest names the engine:
 *
 * - SQLite: a consistent copy of `garrison.db` (taken online, checked with `quick_check`);
 * - PostgreSQL (`DATABASE_URL`): `garrison.pgdump`, the runtime's own pg_dump backup (custom format, checked with
 *   `pg_restore --list`; pg_dump and pg_restore from `PG_BIN` or the PATH). The password goes to them in
 *   `PGPASSWORD`, never on a command line, and is never printed.
 *
 * A restore refuses while a controller runs on the data directory (its port answers; SQLite: a process holds the
 * file; PostgreSQL: other sessions are connected to the database), refuses an archive of the other engine
 * (`garrison move-to-postgres` is the way from SQLite to PostgreSQL), and checks the whole archive (unpacked beside
 * the data; `quick_check`, or `pg_restore --list`) before it replaces anything. What it replaces goes to
 * `<DATA_DIR>/before-restore-<time>/`: the files, and on PostgreSQL a pg_dump of the database as it was; the
 * database is restored with `pg_restore --clean --if-exists --single-transaction --no-owner`, so a failure leaves
 * it as it was.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { describeDatabaseUrl, GarrisonConfig, takePgDump } from "@garrison/runtime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { type ArchiveEngine, archiveEngine, filesUnder, FORMAT, type Manifest, unpackArchive, writeArchive } from "./Archive.js"
import { CliFailure, describeFailure } from "./CliFailure.js"
import { requireControllerDatabase } from "./LocalStore.js"
import { pgTools, restorePostgres } from "./PostgresBackup.js"
import { type CliSettings, cliSettings, controllerRunning } from "./Settings.js"
import { consistentCopy, quickCheck } from "./Sqlite.js"

const DATABASE = "garrison.db"
const PG_DUMP = "garrison.pgdump"
const SECRETS = "secrets"
const SERVER_BACKUPS = "server-backups"
const DATABASE_OF = { sqlite: DATABASE, postgres: PG_DUMP } as const

/** Any failure (the store's, the runtime's) as the command's one line. */
const asCliFailure = (error: unknown) => (error instanceof CliFailure ? error : new CliFailure({ message: describeFailure(error) }))

const stamp = () => new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")

const attempt = <A>(what: string, f: () => A) => Effect.try({ try: f, catch: (cause) => new CliFailure({ message: `${what}: ${describeFailure(cause)}` }) })

/** The server backups folder, when it is `<DATA_DIR>/server-backups` (elsewhere it is not the data directory's). */
const serverBackupsInside = (settings: CliSettings) =>
  NodePath.relative(settings.dataDir, settings.serverBackupsDir) === SERVER_BACKUPS ? settings.serverBackupsDir : undefined

/** The database into `staging` (its name in the archive: `garrison.db` or `garrison.pgdump`), checked. */
const copyDatabase = (settings: CliSettings, staging: string): Effect.Effect<string, CliFailure, GarrisonConfig> =>
  settings.databaseUrl === undefined
    ? Effect.gen(function* () {
        const copy = NodePath.join(staging, DATABASE)
        yield* attempt(`cannot copy ${settings.databaseFile}`, () => consistentCopy(settings.databaseFile, copy))
        const problem = quickCheck(copy)
        if (problem !== undefined) {
          return yield* new CliFailure({ message: `the copy of ${settings.databaseFile} fails its check (${problem}); run garrison doctor` })
        }
        return DATABASE
      })
    : Effect.gen(function* () {
        const url = settings.databaseUrl!
        const tools = yield* pgTools("garrison backup")
        yield* requireControllerDatabase.pipe(Effect.mapError(asCliFailure))
        // The runtime's backup: pg_dump to a .partial, checked with pg_restore --list, then renamed.
        const dump = yield* takePgDump(tools, url, staging, "cli").pipe(Effect.mapError(asCliFailure))
        yield* attempt(`cannot rename ${dump}`, () => renameSync(dump, NodePath.join(staging, PG_DUMP)))
        return PG_DUMP
      })

const backup = Command.make(
  "backup",
  {
    out: Options.file("out").pipe(
      Options.withDescription("The zip to write (default: garrison-backup-<time>.zip in the current folder); refused if it exists"),
      Options.optional
    )
  },
  ({ out }) =>
    Effect.gen(function* () {
      const settings = yield* cliSettings
      if (settings.databaseUrl === undefined && !existsSync(settings.databaseFile)) {
        return yield* new CliFailure({ message: `no controller database at ${settings.databaseFile}: set DATA_DIR to the controller's data directory` })
      }
      const target = NodePath.resolve(Option.getOrElse(out, () => `garrison-backup-${stamp()}.zip`))
      if (existsSync(target)) return yield* new CliFailure({ message: `${target} exists already: name another --out` })
      const staging = mkdtempSync(NodePath.join(tmpdir(), "garrison-backup-"))
      return yield* Effect.gen(function* () {
        const database = yield* copyDatabase(settings, staging)
        const files: Array<readonly [string, string]> = [[database, NodePath.join(staging, database)]]
        const items = [database]
        const folders = [[SECRETS, NodePath.join(settings.dataDir, SECRETS)], [SERVER_BACKUPS, serverBackupsInside(settings)]] as const
        for (const [name, dir] of folders) {
          if (dir === undefined || !existsSync(dir)) continue
          items.push(name)
          for (const file of yield* attempt(`cannot read ${dir}`, () => filesUnder(dir))) files.push([`${name}/${file}`, NodePath.join(dir, file)])
        }
        const config = yield* GarrisonConfig
        const manifest: Manifest = {
          format: FORMAT,
          version: 1,
          takenAt: new Date().toISOString(),
          garrisonVersion: config.version,
          dataDir: settings.dataDir,
          ...(settings.databaseUrl === undefined
            ? { engine: "sqlite" as const }
            : { engine: "postgres" as const, database: describeDatabaseUrl(settings.databaseUrl) }),
          items
        }
        const partial = `${target}.partial`
        yield* writeArchive(partial, manifest, files).pipe(Effect.tapError(() => Effect.sync(() => rmSync(partial, { force: true }))))
        yield* attempt(`cannot rename ${partial}`, () => renameSync(partial, target))
        yield* Console.log(
          `backup written to ${target} (${items.join(", ")}; ${files.length} files, ${statSync(target).size} bytes); ` +
            "it holds the secret keys: keep it as private as the data directory"
        )
      }).pipe(Effect.ensuring(Effect.sync(() => rmSync(staging, { recursive: true, force: true }))))
    })
).pipe(
  Command.withDescription(
    "Back up the data directory into one zip: the database (SQLite: taken online and checked; PostgreSQL: pg_dump, checked), the secret keys and the server backups"
  )
)

/** An archive of the other engine: refused, saying where it can go. */
const otherEngine = (archive: string, engine: ArchiveEngine) =>
  new CliFailure({
    message:
      engine === "sqlite"
        ? `${archive} is a SQLite backup (garrison.db) and the store here is PostgreSQL (DATABASE_URL): restore it with DATABASE_URL unset, ` +
          "then copy it into PostgreSQL with garrison move-to-postgres; nothing was changed"
        : `${archive} is a PostgreSQL backup (garrison.pgdump) and the store here is SQLite (DATABASE_URL unset): set DATABASE_URL to the ` +
          "PostgreSQL database to restore it into (garrison move-to-postgres goes from SQLite to PostgreSQL only); nothing was changed"
  })

const restore = Command.make(
  "restore",
  { archive: Args.file({ name: "file", exists: "yes" }).pipe(Args.withDescription("A zip written by garrison backup")) },
  ({ archive }) =>
    Effect.gen(function* () {
      const settings = yield* cliSettings
      const url = settings.databaseUrl
      const running = yield* controllerRunning(settings)
      if (running !== undefined) {
        return yield* new CliFailure({ message: `${running}: stop the controller on ${settings.dataDir} before restoring` })
      }
      const tools = url === undefined ? undefined : yield* pgTools("garrison restore")
      yield* attempt(`cannot create ${settings.dataDir}`, () => mkdirSync(settings.dataDir, { recursive: true, mode: 0o700 }))
      const when = stamp()
      const staging = NodePath.join(settings.dataDir, `.restoring-${when}`)
      yield* attempt(`cannot create ${staging}`, () => mkdirSync(staging, { mode: 0o700 }))
      return yield* Effect.gen(function* () {
        const manifest = yield* unpackArchive(NodePath.resolve(archive), staging)
        const engine = archiveEngine(manifest)
        if (engine !== (url === undefined ? "sqlite" : "postgres")) return yield* otherEngine(archive, engine)
        const database = DATABASE_OF[engine]
        if (!manifest.items.includes(database) || !existsSync(NodePath.join(staging, database))) {
          return yield* new CliFailure({ message: `${archive} holds no ${database}: nothing was changed` })
        }
        const aside = NodePath.join(settings.dataDir, `before-restore-${when}`)
        const replaced: Array<string> = []
        if (tools === undefined || url === undefined) {
          const problem = quickCheck(NodePath.join(staging, DATABASE))
          if (problem !== undefined) return yield* new CliFailure({ message: `the database in ${archive} fails its check (${problem}): nothing was changed` })
        } else {
          replaced.push(yield* restorePostgres({ tools, url, dump: NodePath.join(staging, PG_DUMP), archive, aside }))
        }
        // Checked (and on PostgreSQL restored): now move what is there aside and put the archive's in its place.
        const places: ReadonlyArray<readonly [string, string | undefined]> = [
          [DATABASE, url === undefined ? settings.databaseFile : undefined],
          [SECRETS, NodePath.join(settings.dataDir, SECRETS)],
          [SERVER_BACKUPS, serverBackupsInside(settings)]
        ]
        yield* attempt("cannot move the old data aside", () => {
          mkdirSync(aside, { recursive: true, mode: 0o700 })
          for (const [name, place] of places) {
            if (place === undefined || !manifest.items.includes(name)) continue
            const olds = name === DATABASE ? [place, `${place}-wal`, `${place}-shm`] : [place]
            for (const old of olds) {
              if (!existsSync(old)) continue
              renameSync(old, NodePath.join(aside, NodePath.basename(old)))
              replaced.push(NodePath.basename(old))
            }
            renameSync(NodePath.join(staging, name), place)
          }
        })
        const into = url === undefined ? settings.dataDir : `${describeDatabaseUrl(url)} and ${settings.dataDir}`
        yield* Console.log(
          `restored ${manifest.items.join(", ")} from ${archive} (taken ${manifest.takenAt}) into ${into}; ` +
            (replaced.length > 0 ? `what was there (${replaced.join(", ")}) is in ${aside}` : `nothing was there to replace`) +
            "; start the controller when ready"
        )
        if (replaced.length === 0) rmSync(aside, { recursive: true, force: true })
      }).pipe(Effect.ensuring(Effect.sync(() => rmSync(staging, { recursive: true, force: true }))))
    })
).pipe(
  Command.withDescription(
    "Restore a garrison backup zip into the data directory and its database (the controller must be stopped); what it replaces is kept aside"
  )
)

export const backupCommand = backup
export const restoreCommand = restore
