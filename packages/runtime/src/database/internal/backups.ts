/**
 * Online backups through SQLite's backup API (via the running client, so the
 * copy is consistent while the controller keeps writing, and holds every
 * commit still in the WAL), each verified before it counts, and pruning.
 */
import type { SqliteClient } from "@effect/sql-sqlite-node/SqliteClient"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Scope from "effect/Scope"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { createPrivateFile, makePrivateDir } from "../../files/PrivateModes.js"
import { DatabaseError } from "../DatabaseError.js"
import {
  attempt,
  backupFileName,
  backupTime,
  describeCause,
  exists,
  listBackups,
  listPartials,
  PARTIAL_SUFFIX,
  removeWithSidecars,
  syncDir
} from "./files.js"
import { checkFileOffThread } from "./rawSqlite.js"
import { makeBackupRequests } from "./requests.js"
import { backupsToKeep, DAILY_BACKUP_DAYS, type RetentionPolicy } from "./retention.js"

const backupError = (message: string) => new DatabaseError({ operation: "backup", message })

/**
 * Writes `backups/garrison-<stamp>-<label>.<extension>` and returns its
 * path: `write` fills a `.partial` file (created 0600 first, whatever the
 * umask; the writer keeps its mode), `check` verifies it, and only then is
 * it renamed, so a crash, a failed check or an interruption never leaves a
 * file that looks like a finished backup, and start-up recovery never meets
 * a backup that was broken when written. Both stores' backups go through it.
 */
export const writeBackupFile = (
  backupsDir: string,
  label: string,
  extension: string,
  steps: {
    readonly write: (partial: string) => Effect.Effect<void, DatabaseError>
    readonly check: (partial: string) => Effect.Effect<void, DatabaseError>
  }
): Effect.Effect<string, DatabaseError> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    yield* makePrivateDir(backupsDir).pipe(
      Effect.mapError((cause) => backupError(`Cannot create ${backupsDir}: ${describeCause(cause)}`))
    )
    // Two backups in the same millisecond with the same label get -2, -3, ...
    let n = 0
    while (exists(NodePath.join(backupsDir, backupFileName(now, label, n, extension)))) n++
    const target = NodePath.join(backupsDir, backupFileName(now, label, n, extension))
    const partial = `${target}${PARTIAL_SUFFIX}`

    yield* Effect.gen(function*() {
      yield* attempt(() => createPrivateFile(partial)).pipe(
        Effect.mapError((cause) => backupError(`Cannot create ${partial}: ${describeCause(cause)}`))
      )
      yield* steps.write(partial)
      yield* steps.check(partial)
      yield* attempt(() => {
        NodeFs.renameSync(partial, target)
        syncDir(backupsDir)
      }).pipe(Effect.mapError((cause) => backupError(`Cannot rename ${partial} to ${target}: ${describeCause(cause)}`)))
    }).pipe(
      // Failed or interrupted (a shutdown backup at its time limit): nothing half-made stays behind.
      Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : Effect.ignore(removeWithSidecars(partial)))
    )
    yield* Effect.logInfo(`Database backup written to ${target}`)
    return target
  })

/** SQLite's online backup (the running client's, so it holds every commit still in the WAL), checked with `quick_check` off the main thread. */
export const takeBackup = (client: SqliteClient, backupsDir: string, label: string): Effect.Effect<string, DatabaseError> =>
  writeBackupFile(backupsDir, label, "db", {
    write: (partial) =>
      client.backup(partial).pipe(
        Effect.mapError((error) => backupError(`Online backup to ${partial} failed: ${error.message} ${describeCause(error.cause)}`))
      ),
    check: (partial) =>
      Effect.flatMap(checkFileOffThread(partial), (check) =>
        check._tag === "ok" ? Effect.void : backupError(`The backup written to ${partial} fails its integrity check (${check.detail})`)
      )
  })

/**
 * Removes unfinished backups left by a crash or an abandoned shutdown
 * backup. Run at start-up, before anything backs up. Never fails (logged).
 */
export const removePartials = (backupsDir: string): Effect.Effect<void> =>
  Effect.gen(function*() {
    const partials = yield* listPartials(backupsDir)
    for (const partial of partials) {
      yield* attempt(() => NodeFs.rmSync(partial, { force: true })).pipe(
        Effect.zipRight(Effect.logInfo(`Removed unfinished database backup ${partial}`)),
        Effect.catchAll((cause) => Effect.logWarning(`Cannot remove unfinished backup ${partial}: ${describeCause(cause)}`))
      )
    }
  }).pipe(
    Effect.catchAll((cause) => Effect.logWarning(`Cannot list backups in ${backupsDir}: ${describeCause(cause)}`))
  )

/**
 * Removes the backups the retention policy does not keep (see
 * `retention.ts`), with any -wal/-shm; returns how many were removed.
 */
export const pruneBackups = (backupsDir: string, policy: RetentionPolicy): Effect.Effect<number> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const backups = yield* listBackups(backupsDir)
    const keep = backupsToKeep(backups.map((path) => ({ path, takenAt: backupTime(path) ?? 0 })), now, policy)
    let removed = 0
    for (const old of backups) {
      if (keep.has(old)) continue
      const result = yield* Effect.either(removeWithSidecars(old))
      if (result._tag === "Right") {
        removed++
        yield* Effect.logInfo(`Pruned old database backup ${old}`)
      } else {
        yield* Effect.logWarning(`Cannot remove old backup ${old}: ${describeCause(result.left)}`)
      }
    }
    return removed
  }).pipe(
    Effect.catchAll((cause) =>
      Effect.as(Effect.logWarning(`Cannot list backups in ${backupsDir}: ${describeCause(cause)}`), 0)
    )
  )

/**
 * What both stores do around their own `backupNow`: prune by the
 * configured retention, and serve `requestBackup` with a worker of the
 * calling scope for as long as the database is open (before it closes, the
 * worker is interrupted; an unfinished copy is removed, never renamed).
 */
export const backupHousekeeping = (
  backupsDir: string,
  settings: { readonly backupKeep: number; readonly backupInterval: Duration.Duration },
  backupNow: (label: string) => Effect.Effect<string, DatabaseError>
): Effect.Effect<{ readonly prune: Effect.Effect<number>; readonly requestBackup: (reason: string) => Effect.Effect<void> }, never, Scope.Scope> =>
  Effect.gen(function*() {
    const prune = pruneBackups(backupsDir, {
      keep: settings.backupKeep,
      intervalMs: Duration.toMillis(settings.backupInterval),
      days: DAILY_BACKUP_DAYS
    })
    const requests = yield* makeBackupRequests()
    yield* Effect.forkScoped(requests.serve((label) =>
      backupNow(label).pipe(
        Effect.zipRight(prune),
        Effect.asVoid,
        Effect.catchAllCause((cause) => Effect.logError(`Requested database backup (${label}) failed`, cause))
      )
    ))
    return { prune, requestBackup: requests.request }
  })
