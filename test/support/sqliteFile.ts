/**
 * Reads a database file directly, outside the controller, for assertions
 * after it has stopped. better-sqlite3 ships no type declarations (and
 * `@types/better-sqlite3` is not installed), so the few calls used here are
 * typed locally and the module is loaded through `createRequire`.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
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

const require = createRequire(import.meta.url)

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
export const integrityCheck = (db: RawDatabase): ReadonlyArray<string> =>
  db.prepare("PRAGMA integrity_check").pluck().all().map(String)

export interface WriteRow {
  readonly seq: number
  readonly payload: string
}

/** Every row of the durability plugin's table, by seq. */
export const durabilityRows = (db: RawDatabase): ReadonlyArray<WriteRow> =>
  db.prepare("SELECT seq, payload FROM durability_writes ORDER BY seq").all().map((row) => {
    const { seq, payload } = row as { readonly seq: unknown; readonly payload: unknown }
    return { seq: Number(seq), payload: String(payload) }
  })

/**
 * Reads a copy of `file` (and its -wal, if any) made in a temporary folder,
 * so opening it cannot leave -shm/-wal files next to the original, e.g. a
 * backup the controller will look at later.
 */
export const withDatabaseCopy = <A>(file: string, f: (db: RawDatabase) => A): A => {
  const dir = mkdtempSync(NodePath.join(tmpdir(), "garrison-dbcopy-"))
  try {
    const copy = NodePath.join(dir, NodePath.basename(file))
    copyFileSync(file, copy)
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`)
    return withReadOnlyDatabase(copy, f)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
