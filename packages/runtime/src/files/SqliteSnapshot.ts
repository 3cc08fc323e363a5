/**
 * A consistent copy of a SQLite database a running process writes to (a
 * game server's `players.db`), through SQLite's online backup API: the copy
 * is the database as of one moment, never a file caught halfway through a
 * write, which a byte copy of a live database can be.
 *
 * SQLite opens files by name, so the file is first opened and proven
 * through the server's confined files (no symlink, inside the root, one
 * link), and then SQLite's own opening must reach that very file: on Linux
 * the process's descriptors that lead to the proven device and inode must
 * be one more after SQLite opened the name than before (the count and the
 * open happen in one synchronous step, so nothing else of this process
 * opens in between). A name swapped for a link to another database between
 * the proof and SQLite's open is therefore refused (`changed`), never copied.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import type { ConfinedFileError } from "./ConfinedFileError.js"
import { refuse } from "./internal/descriptors.js"
import type { ServerFiles } from "./ServerFiles.js"

export class SqliteSnapshotFailed extends Schema.TaggedError<SqliteSnapshotFailed>()("SqliteSnapshotFailed", {
  path: Schema.String,
  /** SQLite's own words (`SQLITE_NOTADB: file is not a database`). */
  message: Schema.String
}) {}

interface BackupDatabase {
  backup(destination: string): Promise<unknown>
  close(): void
}
type BackupDatabaseConstructor = new(filename: string, options: { readonly readonly: boolean; readonly fileMustExist: boolean }) => BackupDatabase

const require = createRequire(import.meta.url)

const PROC_FDS = "/proc/self/fd"

/** How many of this process's descriptors lead to the file `identity` names. */
const descriptorsOf = (identity: { readonly device: bigint; readonly inode: bigint }): number => {
  let count = 0
  for (const fd of Fs.readdirSync(PROC_FDS)) {
    try {
      const stats = Fs.statSync(`${PROC_FDS}/${fd}`, { bigint: true })
      if (stats.dev === identity.device && stats.ino === identity.inode) count++
    } catch {
      // A descriptor closed while counting (the readdir's own, another fiber's): not ours to count.
    }
  }
  return count
}

const sameIdentity = (path: string, identity: { readonly device: bigint; readonly inode: bigint }): boolean => {
  try {
    const stats = Fs.lstatSync(path, { bigint: true })
    return stats.isFile() && stats.dev === identity.device && stats.ino === identity.inode
  } catch {
    return false
  }
}

const describe = (cause: unknown): string => {
  const code = typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? `${cause.code}: ` : ""
  return `${code}${cause instanceof Error ? cause.message : String(cause)}`
}

/**
 * Copies the SQLite database `path` (relative to the root of `files`, a
 * local root) into `destination` (a new file in a folder of the caller's)
 * through the online backup API, as described above.
 */
export const snapshotSqlite = (files: ServerFiles, path: string, destination: string): Effect.Effect<void, ConfinedFileError | SqliteSnapshotFailed> =>
  Effect.scoped(
    Effect.gen(function* () {
      const proven = yield* files.open(path)
      const real = NodePath.resolve(files.root, ...path.split(/[\\/]+/).filter((s) => s !== "" && s !== "."))
      const byProc = Fs.existsSync(PROC_FDS)
      const database = yield* Effect.acquireRelease(
        Effect.suspend((): Effect.Effect<BackupDatabase, ConfinedFileError | SqliteSnapshotFailed> => {
          const before = byProc ? descriptorsOf(proven.identity) : sameIdentity(real, proven.identity) ? 1 : 0
          let opened: BackupDatabase
          try {
            const Sqlite = require("better-sqlite3") as BackupDatabaseConstructor
            opened = new Sqlite(real, { readonly: true, fileMustExist: true })
          } catch (cause) {
            return Effect.fail(new SqliteSnapshotFailed({ path, message: describe(cause) }))
          }
          const reached = byProc ? descriptorsOf(proven.identity) > before : before === 1 && sameIdentity(real, proven.identity)
          if (!reached) {
            opened.close()
            return Effect.fail(refuse(path, "changed"))
          }
          return Effect.succeed(opened)
        }),
        (db) => Effect.sync(() => db.close())
      )
      yield* Effect.tryPromise({ try: () => database.backup(destination), catch: (cause) => new SqliteSnapshotFailed({ path, message: describe(cause) }) })
    })
  )
