/**
 * A raw better-sqlite3 handle used only for the start-up integrity check,
 * before the Effect client opens the file. The package ships no type
 * declarations (and `@types/better-sqlite3` is not installed), so the small
 * surface used here is typed locally and loaded through `createRequire`.
 */
import * as Effect from "effect/Effect"
import { createRequire } from "node:module"

interface RawStatement {
  pluck(toggle?: boolean): RawStatement
  all(...params: ReadonlyArray<unknown>): Array<unknown>
}

interface RawDatabase {
  prepare(source: string): RawStatement
  close(): void
}

type RawDatabaseConstructor = new(
  filename: string,
  options?: { readonly readonly?: boolean; readonly fileMustExist?: boolean }
) => RawDatabase

/** Result of checking one database file. */
export type FileCheck =
  | { readonly _tag: "ok" }
  /** The file is damaged: quick_check reported problems or SQLite called it corrupt / not a database. */
  | { readonly _tag: "corrupt"; readonly detail: string }
  /** The file could not be checked for another reason (locked, permissions, I/O): not proof of damage. */
  | { readonly _tag: "unusable"; readonly detail: string }

const require = createRequire(import.meta.url)

/** SQLite result codes that mean the bytes on disk are damaged. */
const isCorruptionCode = (code: string): boolean => code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")

const errorCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

const errorMessage = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

/**
 * Runs `PRAGMA quick_check` on `file` with a short-lived raw connection.
 *
 * - `readonly: true` (the live database): SQLite never checkpoints or deletes
 *   the -wal from a read-only connection, so a damaged file's WAL survives
 *   the check untouched for the operator to inspect.
 * - `readonly: false` (a backup about to be copied): a clean close folds any
 *   WAL into the main file, so copying that one file is complete.
 *
 * Never fails: every outcome is described by `FileCheck`.
 */
export const checkFile = (file: string, options: { readonly readonly: boolean }): Effect.Effect<FileCheck> =>
  Effect.try({
    try: (): FileCheck => {
      const Sqlite = require("better-sqlite3") as RawDatabaseConstructor
      const db = new Sqlite(file, { readonly: options.readonly, fileMustExist: true })
      try {
        const rows = db.prepare("PRAGMA quick_check").pluck().all()
        return rows.length === 1 && rows[0] === "ok"
          ? { _tag: "ok" }
          : { _tag: "corrupt", detail: `quick_check: ${rows.slice(0, 5).map(String).join("; ")}` }
      } finally {
        db.close()
      }
    },
    catch: (cause): FileCheck => {
      const code = errorCode(cause)
      const detail = code === undefined ? errorMessage(cause) : `${code}: ${errorMessage(cause)}`
      return code !== undefined && isCorruptionCode(code)
        ? { _tag: "corrupt", detail }
        : { _tag: "unusable", detail }
    }
  }).pipe(Effect.merge)
