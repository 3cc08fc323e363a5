/**
 * Raw better-sqlite3 handles for integrity checks outside the Effect client:
 * at start-up, before the client opens the file, and on each new backup (on
 * a worker thread). The package ships no type
 * declarations (and `@types/better-sqlite3` is not installed), so the small
 * surface used here is typed locally and loaded through `createRequire`.
 */
import * as Effect from "effect/Effect"
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"

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

/** What `PRAGMA quick_check` answered, as a `FileCheck`. */
const fromRows = (rows: ReadonlyArray<unknown>): FileCheck =>
  rows.length === 1 && rows[0] === "ok"
    ? { _tag: "ok" }
    : { _tag: "corrupt", detail: `quick_check: ${rows.slice(0, 5).map(String).join("; ")}` }

/** A thrown SQLite error, as a `FileCheck`: damage only when SQLite says the bytes are bad. */
const fromError = (code: string | undefined, message: string): FileCheck => {
  const detail = code === undefined ? message : `${code}: ${message}`
  return code !== undefined && isCorruptionCode(code) ? { _tag: "corrupt", detail } : { _tag: "unusable", detail }
}

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
        return fromRows(db.prepare("PRAGMA quick_check").pluck().all())
      } finally {
        db.close()
      }
    },
    catch: (cause): FileCheck => fromError(errorCode(cause), errorMessage(cause))
  }).pipe(Effect.merge)

/**
 * The worker's script (CommonJS, run with `eval`, so it needs no file of its
 * own in the bundle): the same check as `checkFile` with `readonly: false`,
 * answering `{rows}` or `{code, message}` after closing the file.
 */
const CHECK_SCRIPT = `
const { parentPort, workerData } = require("node:worker_threads")
let reply
try {
  const Sqlite = require(workerData.module)
  const db = new Sqlite(workerData.file, { fileMustExist: true })
  try {
    reply = { rows: db.prepare("PRAGMA quick_check").pluck().all().map(String) }
  } finally {
    db.close()
  }
} catch (error) {
  const code = error !== null && typeof error === "object" && typeof error.code === "string" ? error.code : undefined
  reply = { code, message: error instanceof Error ? error.message : String(error) }
}
// Only once the file is closed (and its -wal/-shm gone) may the caller rename or remove it.
parentPort.postMessage(reply)`

interface CheckReply {
  readonly rows?: ReadonlyArray<string>
  readonly code?: string
  readonly message?: string
}

/**
 * `checkFile(file, { readonly: false })` on a worker thread: quick_check
 * reads every page (a few ms per MB) and, on the main thread after each
 * backup, would stall every request and RCON session for that long.
 *
 * The worker is never terminated while it runs: terminating a thread inside
 * a better-sqlite3 call aborts the whole process (the addon's cleanup makes
 * the call fail and it cannot throw into a dying isolate: "FATAL ERROR:
 * v8::ToLocalChecked Empty MaybeLocal"). So interrupting stops listening
 * for the answer and waits for the worker to end on its own, which it does
 * as soon as SQLite returns; the partial file is only removed after that,
 * once nothing holds it open. Never fails.
 */
export const checkFileOffThread = (file: string): Effect.Effect<FileCheck> =>
  Effect.async<FileCheck>((resume) => {
    let worker: Worker
    try {
      worker = new Worker(CHECK_SCRIPT, { eval: true, workerData: { module: require.resolve("better-sqlite3"), file } })
    } catch (cause) {
      resume(Effect.succeed({ _tag: "unusable", detail: `cannot start the check worker: ${errorMessage(cause)}` }))
      return
    }
    let answered = false
    let exited = false
    const exitWaiters: Array<() => void> = []
    const answer = (check: FileCheck) => {
      if (answered) return
      answered = true
      resume(Effect.succeed(check))
    }
    worker.once("message", (reply: CheckReply) =>
      answer(reply.rows !== undefined ? fromRows(reply.rows) : fromError(reply.code, reply.message ?? "unknown error"))
    )
    worker.once("error", (cause) => answer({ _tag: "unusable", detail: `the check worker failed: ${errorMessage(cause)}` }))
    worker.once("exit", (code) => {
      exited = true
      for (const wake of exitWaiters.splice(0)) wake()
      answer({ _tag: "unusable", detail: `the check worker exited (code ${code}) without an answer` })
    })
    return Effect.async<void>((wake) => {
      answered = true
      if (exited) return wake(Effect.void)
      exitWaiters.push(() => wake(Effect.void))
    })
  })
