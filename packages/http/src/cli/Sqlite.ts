/**
 * The few raw SQLite operations the command line needs, on short-lived better-sqlite3 connections (the
 * controller's own store is not opened): `PRAGMA quick_check`, a consistent copy (`VACUUM INTO`, one read
 * transaction, so the copy holds every commit, those still in the WAL too, while a controller keeps writing),
 * and reads.
 */
import { errorMessage } from "@garrison/runtime"
import { createRequire } from "node:module"

interface Statement {
  readonly all: (...params: ReadonlyArray<unknown>) => Array<unknown>
  readonly run: (...params: ReadonlyArray<unknown>) => unknown
  readonly pluck: () => Statement
}
interface Connection {
  readonly prepare: (sql: string) => Statement
  readonly exec: (sql: string) => void
  readonly pragma: (sql: string) => unknown
  readonly close: () => void
}
type Constructor = new(file: string, options: { readonly readonly?: boolean; readonly fileMustExist: boolean; readonly timeout?: number }) => Connection

const require = createRequire(import.meta.url)

export const withSqlite = <A>(file: string, options: { readonly readonly: boolean }, f: (db: Connection) => A): A => {
  const Sqlite = require("better-sqlite3") as Constructor
  const db = new Sqlite(file, { readonly: options.readonly, fileMustExist: true, timeout: 10_000 })
  try {
    return f(db)
  } finally {
    db.close()
  }
}

/** `undefined` when `PRAGMA quick_check` says ok; else what is wrong (SQLite's words). */
export const quickCheck = (file: string): string | undefined => {
  try {
    const rows = withSqlite(file, { readonly: true }, (db) => db.prepare("PRAGMA quick_check").pluck().all().map(String))
    return rows.length === 1 && rows[0] === "ok" ? undefined : `quick_check: ${rows.slice(0, 5).join("; ")}`
  } catch (error) {
    return errorMessage(error)
  }
}

/** A consistent copy of `file` at `to` (which must not exist), as of one moment. */
export const consistentCopy = (file: string, to: string): void =>
  withSqlite(file, { readonly: false }, (db) => {
    db.prepare("VACUUM INTO ?").run(to)
  })
