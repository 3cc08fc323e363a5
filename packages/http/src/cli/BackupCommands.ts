/**
 * `garrison backup [--out file]` and `garrison restore <file>`: the data directory in one zip (see `Archive.ts`):
 * a consistent copy of `garrison.db` (taken online, checked with `quick_check`), the secret keys (`secrets/`:
 * without them sealed values such as RCON passwords and MFA secrets cannot be read again) and the server backups
 * (`server-backups/`, when `BACKUP_DIR` is inside the data directory). SQLite only: on PostgreSQL both refuse,
 * naming pg_dump. A restore refuses while a controller runs on the data directory, checks the whole archive
 * (unpacked beside the data, the database's `quick_check`) before it replaces anything, and moves what it
 * replaces to `<DATA_DIR>/before-restore-<time>/`.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { GarrisonConfig } from "@garrison/runtime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { filesUnder, FORMAT, type Manifest, unpackArchive, writeArchive } from "./Archive.js"
import { CliFailure, describeFailure } from "./CliFailure.js"
import { type CliSettings, cliSettings, controllerRunning } from "./Settings.js"
import { consistentCopy, quickCheck } from "./Sqlite.js"

const DATABASE = "garrison.db"
const SECRETS = "secrets"
const SERVER_BACKUPS = "server-backups"

const stamp = () => new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")

const refusePostgres = (settings: CliSettings, what: string) =>
  settings.databaseUrl === undefined
    ? Effect.void
    : Effect.fail(
        new CliFailure({
          message:
            `the store is PostgreSQL (DATABASE_URL): ${what} covers SQLite data directories only; use pg_dump --format=custom ` +
            `(and pg_restore) for the database, and copy ${NodePath.join(settings.dataDir, SECRETS)} with it`
        })
      )

const attempt = <A>(what: string, f: () => A) => Effect.try({ try: f, catch: (cause) => new CliFailure({ message: `${what}: ${describeFailure(cause)}` }) })

/** The server backups folder, when it is `<DATA_DIR>/server-backups` (elsewhere it is not the data directory's). */
const serverBackupsInside = (settings: CliSettings) =>
  NodePath.relative(settings.dataDir, settings.serverBackupsDir) === SERVER_BACKUPS ? settings.serverBackupsDir : undefined

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
      yield* refusePostgres(settings, "garrison backup")
      if (!existsSync(settings.databaseFile)) {
        return yield* new CliFailure({ message: `no controller database at ${settings.databaseFile}: set DATA_DIR to the controller's data directory` })
      }
      const target = NodePath.resolve(Option.getOrElse(out, () => `garrison-backup-${stamp()}.zip`))
      if (existsSync(target)) return yield* new CliFailure({ message: `${target} exists already: name another --out` })
      const staging = mkdtempSync(NodePath.join(tmpdir(), "garrison-backup-"))
      return yield* Effect.gen(function* () {
        const copy = NodePath.join(staging, DATABASE)
        yield* attempt(`cannot copy ${settings.databaseFile}`, () => consistentCopy(settings.databaseFile, copy))
        const problem = quickCheck(copy)
        if (problem !== undefined) {
          return yield* new CliFailure({ message: `the copy of ${settings.databaseFile} fails its check (${problem}); run garrison doctor` })
        }
        const files: Array<readonly [string, string]> = [[DATABASE, copy]]
        const items = [DATABASE]
        const folders = [[SECRETS, NodePath.join(settings.dataDir, SECRETS)], [SERVER_BACKUPS, serverBackupsInside(settings)]] as const
        for (const [name, dir] of folders) {
          if (dir === undefined || !existsSync(dir)) continue
          items.push(name)
          for (const file of yield* attempt(`cannot read ${dir}`, () => filesUnder(dir))) files.push([`${name}/${file}`, NodePath.join(dir, file)])
        }
        const config = yield* GarrisonConfig
        const manifest: Manifest = { format: FORMAT, version: 1, takenAt: new Date().toISOString(), garrisonVersion: config.version, dataDir: settings.dataDir, items }
        const partial = `${target}.partial`
        yield* writeArchive(partial, manifest, files).pipe(Effect.tapError(() => Effect.sync(() => rmSync(partial, { force: true }))))
        yield* attempt(`cannot rename ${partial}`, () => renameSync(partial, target))
        yield* Console.log(
          `backup written to ${target} (${items.join(", ")}; ${files.length} files, ${statSync(target).size} bytes); ` +
            "it holds the secret keys: keep it as private as the data directory"
        )
      }).pipe(Effect.ensuring(Effect.sync(() => rmSync(staging, { recursive: true, force: true }))))
    })
).pipe(Command.withDescription("Back up the data directory (the SQLite database, taken online and checked, the secret keys and the server backups) into one zip"))

const restore = Command.make(
  "restore",
  { archive: Args.file({ name: "file", exists: "yes" }).pipe(Args.withDescription("A zip written by garrison backup")) },
  ({ archive }) =>
    Effect.gen(function* () {
      const settings = yield* cliSettings
      yield* refusePostgres(settings, "garrison restore")
      const running = yield* controllerRunning(settings)
      if (running !== undefined) {
        return yield* new CliFailure({ message: `${running}: stop the controller on ${settings.dataDir} before restoring` })
      }
      yield* attempt(`cannot create ${settings.dataDir}`, () => mkdirSync(settings.dataDir, { recursive: true, mode: 0o700 }))
      const when = stamp()
      const staging = NodePath.join(settings.dataDir, `.restoring-${when}`)
      yield* attempt(`cannot create ${staging}`, () => mkdirSync(staging, { mode: 0o700 }))
      return yield* Effect.gen(function* () {
        const manifest = yield* unpackArchive(NodePath.resolve(archive), staging)
        if (!manifest.items.includes(DATABASE) || !existsSync(NodePath.join(staging, DATABASE))) {
          return yield* new CliFailure({ message: `${archive} holds no ${DATABASE}: nothing was changed` })
        }
        const problem = quickCheck(NodePath.join(staging, DATABASE))
        if (problem !== undefined) return yield* new CliFailure({ message: `the database in ${archive} fails its check (${problem}): nothing was changed` })
        // Checked: now move what is there aside and put the archive's in its place.
        const aside = NodePath.join(settings.dataDir, `before-restore-${when}`)
        const replaced: Array<string> = []
        const places: ReadonlyArray<readonly [string, string | undefined]> = [
          [DATABASE, settings.databaseFile],
          [SECRETS, NodePath.join(settings.dataDir, SECRETS)],
          [SERVER_BACKUPS, serverBackupsInside(settings)]
        ]
        yield* attempt("cannot move the old data aside", () => {
          mkdirSync(aside, { mode: 0o700 })
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
        yield* Console.log(
          `restored ${manifest.items.join(", ")} from ${archive} (taken ${manifest.takenAt}) into ${settings.dataDir}; ` +
            (replaced.length > 0 ? `what was there (${replaced.join(", ")}) is in ${aside}` : `nothing was there to replace`) +
            "; start the controller when ready"
        )
        if (replaced.length === 0) rmSync(aside, { recursive: true, force: true })
      }).pipe(Effect.ensuring(Effect.sync(() => rmSync(staging, { recursive: true, force: true }))))
    })
).pipe(Command.withDescription("Restore a garrison backup zip into the data directory (the controller must be stopped); what it replaces is kept aside"))

export const backupCommand = backup
export const restoreCommand = restore
