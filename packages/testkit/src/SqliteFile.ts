/**
 * Reads a database file directly, outside the controller, for assertions
 * about what it committed or backed up. better-sqlite3 (the runtime's
 * driver) ships no type declarations, so the few calls used here are typed
 * locally and the module is loaded through `createRequire`.
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as NodePath from "node:path"

export interface RawStatement {
  pluck(toggle?: boolean): RawStatement
  all(...params: ReadonlyArray<unknown>): Array<unknown>
}

export interface RawDatabase {
  prepare(source: string): RawStatement
  close(): void
}

type RawDatabaseConstructor = new (
  filename: string,
  options?: { readonly readonly?: boolean; readonly fileMustExist?: boolean }
) => RawDatabase

// Resolved from the runtime, whose dependency it is: through its folder beside this package (from `src` and `dist`
// alike), not its entry point, which exists only after a build.
const require = createRequire(new URL("../../runtime/package.json", import.meta.url))

/** Opens `file` read-only, runs `f`, always closes. */
export const withReadOnlyDatabase = <A>(file: string, f: (db: RawDatabase) => A): A => {
  const Sqlite = require("better-sqlite3") as RawDatabaseConstructor
  const db = new Sqlite(file, { readonly: true, fileMustExist: true })
  try {
    return f(db)
  } finally {
    db.close()
  }
}

/** `PRAGMA integrity_check` rows: `["ok"]` for a sound file. */
export const integrityCheck = (db: RawDatabase): ReadonlyArray<string> => db.prepare("PRAGMA integrity_check").pluck().all().map(String)

/**
 * Reads a copy of `file` (and its -wal, if any) made in a temporary folder,
 * so opening it cannot leave -shm/-wal files next to the original, e.g. a
 * backup the controller will look at later.
 */
export const withDatabaseCopy = <A>(file: string, f: (db: RawDatabase) => A): A => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-dbcopy-"))
  try {
    const copy = NodePath.join(dir, NodePath.basename(file))
    Fs.copyFileSync(file, copy)
    if (Fs.existsSync(`${file}-wal`)) Fs.copyFileSync(`${file}-wal`, `${copy}-wal`)
    return withReadOnlyDatabase(copy, f)
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}
