/**
 * PostgreSQL backups as files, when the machine has `pg_dump`: the same
 * names, folder, retention and "written under `.partial`, checked, then
 * renamed" rule as the SQLite backups, in pg_dump's custom format
 * (`garrison-<stamp>-<label>.pgdump`, restored with `pg_restore`). The dump
 * is one consistent snapshot of the database while the controller keeps
 * writing (pg_dump runs in one repeatable-read transaction).
 *
 * The password never reaches a command line (other users can read those):
 * pg_dump gets the URL without it and the password in `PGPASSWORD`.
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { execFile } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { DatabaseError } from "../DatabaseError.js"
import { writeBackupFile } from "./backups.js"

export const PG_DUMP_EXTENSION = "pgdump"

const backupError = (message: string) => new DatabaseError({ operation: "backup", message })

/** Where pg_dump and pg_restore are: `PG_BIN` when set, else the PATH; undefined when pg_dump is nowhere. */
export const findPgTools = (env: Readonly<Record<string, string | undefined>>): { readonly pgDump: string; readonly pgRestore: string } | undefined => {
  const dirs = [env["PG_BIN"], ...(env["PATH"] ?? "").split(NodePath.delimiter)].filter((dir): dir is string => dir !== undefined && dir !== "")
  for (const dir of dirs) {
    const pgDump = NodePath.join(dir, "pg_dump")
    const pgRestore = NodePath.join(dir, "pg_restore")
    try {
      NodeFs.accessSync(pgDump, NodeFs.constants.X_OK)
      NodeFs.accessSync(pgRestore, NodeFs.constants.X_OK)
      return { pgDump, pgRestore }
    } catch {
      // Not here.
    }
  }
  return undefined
}

/** The URL without its password, and the password apart (for `PGPASSWORD`). */
export const splitPassword = (url: Redacted.Redacted<string>): { readonly url: string; readonly password: string | undefined } => {
  const parsed = new URL(Redacted.value(url))
  const password = parsed.password === "" ? undefined : decodeURIComponent(parsed.password)
  parsed.password = ""
  // libpq reads postgres:// and postgresql:// alike.
  return { url: parsed.toString(), password }
}

export const run = (file: string, args: ReadonlyArray<string>, password: string | undefined) =>
  Effect.async<void, string>((resume) => {
    const child = execFile(
      file,
      args,
      {
        env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }), PGCONNECT_TIMEOUT: "10" },
        maxBuffer: 4 * 1024 * 1024,
        timeout: 30 * 60 * 1000
      },
      (error, _stdout, stderr) => resume(error === null ? Effect.void : Effect.fail(`${stderr.trim().split("\n").slice(-3).join(" ") || error.message}`))
    )
    return Effect.sync(() => void child.kill("SIGTERM"))
  })

/** Dumps the database to `backups/garrison-<stamp>-<label>.pgdump`, checked with `pg_restore --list`; returns its path. */
export const takePgDump = (
  tools: { readonly pgDump: string; readonly pgRestore: string },
  url: Redacted.Redacted<string>,
  backupsDir: string,
  label: string
): Effect.Effect<string, DatabaseError> => {
  const { password, url: withoutPassword } = splitPassword(url)
  return writeBackupFile(backupsDir, label, PG_DUMP_EXTENSION, {
    write: (partial) =>
      run(tools.pgDump, ["--format=custom", "--no-owner", "--no-privileges", `--file=${partial}`, `--dbname=${withoutPassword}`], password).pipe(
        Effect.mapError((detail) => backupError(`pg_dump failed: ${detail}`))
      ),
    check: (partial) =>
      run(tools.pgRestore, ["--list", partial], undefined).pipe(
        Effect.mapError((detail) => backupError(`The dump written to ${partial} cannot be read back by pg_restore: ${detail}`))
      )
  })
}
