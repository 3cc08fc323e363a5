/**
 * A consistent copy of a SQLite database a running process writes to (a
 * game server's `players.db`): the copy is the database as of one moment,
 * never a file caught halfway through a write, which a byte copy of a live
 * database can be.
 *
 * Two ways, and the copy always ends:
 * - SQLite's online backup API, in steps of `pagesPerStep` pages with the
 *   event loop free between them. A write by another connection (the game)
 *   restarts it from the first page, so a busy game can keep it going for
 *   ever: after `maxStalls` steps that made no progress (restarted, or the
 *   game held its lock) or past `deadline`, it gives way to
 * - `VACUUM INTO` on the same read connection: one statement that reads one
 *   consistent state under one read lock and cannot restart. The game's
 *   writes wait (its busy handler) while it runs. A lock the game holds is
 *   waited out on `Clock` (never by blocking the event loop) for up to
 *   `lockWait`, then the snapshot fails, naming why.
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
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { ConfinedFileError } from "./ConfinedFileError.js"
import { refuse } from "./internal/descriptors.js"
import type { ServerFiles } from "./ServerFiles.js"
import { errorMessage } from "../errorMessage.js"

export class SqliteSnapshotFailed extends Schema.TaggedError<SqliteSnapshotFailed>()("SqliteSnapshotFailed", {
  path: Schema.String,
  /** SQLite's own words (`SQLITE_NOTADB: file is not a database`), or why the copy gave up. */
  message: Schema.String
}) {}

export interface SqliteSnapshotOptions {
  /** How long the online backup may step before `VACUUM INTO` takes over. Default 30 s. */
  readonly deadline?: Duration.DurationInput
  /** Steps without progress (a restart by the game's write, or its lock) before `VACUUM INTO` takes over. Default 3. */
  readonly maxStalls?: number
  /** Pages per step of the online backup. Default 256 (1 MiB of 4 KiB pages). */
  readonly pagesPerStep?: number
  /** How long `VACUUM INTO` waits out a lock the game holds. Default 5 s. */
  readonly lockWait?: Duration.DurationInput
}

/** How the copy was made, and why the online backup gave way when it did. */
export interface SqliteSnapshot {
  readonly method: "online-backup" | "vacuum-into"
  /** Steps of the online backup that made no progress. */
  readonly stalls: number
  /** Why `VACUUM INTO` was used (`null` for the online backup). */
  readonly gaveWay: string | null
}

interface Statement {
  run(...parameters: ReadonlyArray<unknown>): unknown
}
interface BackupProgress {
  readonly totalPages: number
  readonly remainingPages: number
}
interface BackupDatabase {
  backup(destination: string, options: { readonly progress: (progress: BackupProgress) => number }): Promise<BackupProgress>
  prepare(sql: string): Statement
  close(): void
}
type BackupDatabaseConstructor = new(
  filename: string,
  options: { readonly readonly: boolean; readonly fileMustExist: boolean; readonly timeout: number }
) => BackupDatabase

const require = createRequire(import.meta.url)

const PROC_FDS = "/proc/self/fd"
const LOCK_RETRY = Duration.millis(50)

/** This process's descriptors (their numbers) that lead to the file `identity` names. */
const descriptorsOf = (identity: { readonly device: bigint; readonly inode: bigint }): ReadonlySet<string> => {
  const found = new Set<string>()
  for (const fd of Fs.readdirSync(PROC_FDS)) {
    try {
      const stats = Fs.statSync(`${PROC_FDS}/${fd}`, { bigint: true })
      if (stats.dev === identity.device && stats.ino === identity.inode) found.add(fd)
    } catch {
      // A descriptor closed while counting (the readdir's own, another fiber's): not ours to count.
    }
  }
  return found
}

const sameIdentity = (path: string, identity: { readonly device: bigint; readonly inode: bigint }): boolean => {
  try {
    const stats = Fs.lstatSync(path, { bigint: true })
    return stats.isFile() && stats.dev === identity.device && stats.ino === identity.inode
  } catch {
    return false
  }
}

const codeOf = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined

const describe = (cause: unknown): string => {
  const code = codeOf(cause)
  return `${code === undefined ? "" : `${code}: `}${errorMessage(cause)}`
}

/** Thrown from the progress callback to end the online backup (better-sqlite3 closes it and rejects). */
class GiveWay extends Error {}

/** A lock held by another connection: worth waiting for. */
const isLocked = (cause: unknown) => {
  const code = codeOf(cause)
  return code !== undefined && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
}

/**
 * The online backup in steps; resolves `null` once the copy is whole, or
 * why it gave way (stalls, deadline). Interruption ends it at the next step.
 */
const onlineBackup = (
  database: BackupDatabase,
  destination: string,
  limits: { readonly deadlineAt: number; readonly maxStalls: number; readonly pagesPerStep: number },
  stalls: { count: number }
) =>
  Effect.flatMap(Effect.clock, (clock) =>
    Effect.tryPromise({
      try: (signal) => {
        let previous: number | undefined
        return database
          .backup(destination, {
            progress: ({ remainingPages }) => {
              if (signal.aborted) throw new GiveWay("interrupted")
              // Each step copies `pagesPerStep` pages: fewer remaining than before is progress; anything else is a restart or a lock.
              if (previous !== undefined && remainingPages >= previous) stalls.count++
              previous = remainingPages
              if (stalls.count > limits.maxStalls) {
                throw new GiveWay(`the online backup made no progress ${stalls.count} times (the game kept writing)`)
              }
              if (clock.unsafeCurrentTimeMillis() >= limits.deadlineAt) throw new GiveWay("the online backup ran past its deadline")
              return limits.pagesPerStep
            }
          })
          // A lock held as it began: better-sqlite3 takes the first step's empty count for done (and removed the copy).
          .then((last) => (last.totalPages === 0 ? "the game held its lock as the online backup began" : null))
      },
      catch: (cause) => cause
    }).pipe(Effect.catchAll((cause) => (cause instanceof GiveWay ? Effect.succeed(cause.message) : Effect.fail(cause))))
  )

/** `VACUUM INTO`, a lock waited out on `Clock` in short retries (the read connection never blocks on one). */
const vacuumInto = (database: BackupDatabase, destination: string, lockWait: Duration.Duration) => {
  const once = Effect.try({
    try: () => {
      // A copy the online backup or an earlier try left is removed: VACUUM INTO wants no file there.
      Fs.rmSync(destination, { force: true })
      database.prepare("VACUUM INTO ?").run(destination)
    },
    catch: (cause) => cause
  })
  const tries = Math.max(1, Math.ceil(Duration.toMillis(lockWait) / Duration.toMillis(LOCK_RETRY)))
  return once.pipe(
    Effect.retry({ schedule: Schedule.spaced(LOCK_RETRY), times: tries, while: isLocked }),
    Effect.tapError(() => Effect.sync(() => Fs.rmSync(destination, { force: true })))
  )
}

/** Opens `real` read-only through SQLite, refused unless it reaches the file proven as `identity`. */
const openProven = (path: string, real: string, identity: { readonly device: bigint; readonly inode: bigint }) =>
  Effect.acquireRelease(
    Effect.suspend((): Effect.Effect<BackupDatabase, ConfinedFileError | SqliteSnapshotFailed> => {
      const byProc = Fs.existsSync(PROC_FDS)
      const before = byProc ? descriptorsOf(identity) : undefined
      const pathWasIt = byProc || sameIdentity(real, identity)
      let opened: BackupDatabase
      try {
        const Sqlite = require("better-sqlite3") as BackupDatabaseConstructor
        // No busy timeout: a lock would block the event loop; the copy waits on `Clock` instead.
        opened = new Sqlite(real, { readonly: true, fileMustExist: true, timeout: 0 })
      } catch (cause) {
        return Effect.fail(new SqliteSnapshotFailed({ path, message: describe(cause) }))
      }
      // SQLite's own descriptor is one that leads to the proven file and was not there before: counting
      // would take another fiber's descriptor of the same file, closed meanwhile, for a swap.
      const reached =
        before !== undefined ? [...descriptorsOf(identity)].some((fd) => !before.has(fd)) : pathWasIt && sameIdentity(real, identity)
      if (!reached) {
        opened.close()
        return Effect.fail(refuse(path, "changed"))
      }
      return Effect.succeed(opened)
    }).pipe(
      // A descriptor number another fiber freed and SQLite took at once looks like no new one: ask again a
      // few times. A path really swapped for another file keeps failing, and is refused.
      Effect.retry({ times: 3, while: (error) => error instanceof ConfinedFileError && error.problem === "changed" })
    ),
    (db) => Effect.sync(() => db.close())
  )

/**
 * Copies the SQLite database `path` (relative to the root of `files`, a
 * local root) into `destination` (a new file in a folder of the caller's),
 * as described above.
 */
export const snapshotSqlite = (
  files: ServerFiles,
  path: string,
  destination: string,
  options: SqliteSnapshotOptions = {}
): Effect.Effect<SqliteSnapshot, ConfinedFileError | SqliteSnapshotFailed> =>
  Effect.scoped(
    Effect.gen(function* () {
      const proven = yield* files.open(path)
      const real = NodePath.resolve(files.root, ...path.split(/[\\/]+/).filter((s) => s !== "" && s !== "."))
      const database = yield* openProven(path, real, proven.identity)
      const failed = (cause: unknown) => new SqliteSnapshotFailed({ path, message: describe(cause) })
      const stalls = { count: 0 }
      const deadlineAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(options.deadline ?? Duration.seconds(30))
      const gaveWay = yield* onlineBackup(
        database,
        destination,
        { deadlineAt, maxStalls: options.maxStalls ?? 3, pagesPerStep: Math.max(1, Math.floor(options.pagesPerStep ?? 256)) },
        stalls
      ).pipe(Effect.mapError(failed))
      if (gaveWay === null) return { method: "online-backup", stalls: stalls.count, gaveWay: null } satisfies SqliteSnapshot
      yield* vacuumInto(database, destination, Duration.decode(options.lockWait ?? Duration.seconds(5))).pipe(
        Effect.mapError((cause) =>
          new SqliteSnapshotFailed({
            path,
            message: isLocked(cause)
              ? `${gaveWay}, and the game held its lock on the file for longer than ${Duration.format(options.lockWait ?? Duration.seconds(5))} (${describe(cause)})`
              : `${gaveWay}, and VACUUM INTO failed: ${describe(cause)}`
          })
        )
      )
      return { method: "vacuum-into", stalls: stalls.count, gaveWay } satisfies SqliteSnapshot
    })
  )
