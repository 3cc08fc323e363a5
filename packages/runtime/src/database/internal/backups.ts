/**
 * Online backups through SQLite's backup API (via the running client, so the
 * copy is consistent while the controller keeps writing) and pruning.
 */
import type { SqliteClient } from "@effect/sql-sqlite-node/SqliteClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { DatabaseError } from "../DatabaseError.js"
import { attempt, backupFileName, describeCause, exists, listBackups, SIDECARS, syncDir } from "./files.js"

const backupError = (message: string) => new DatabaseError({ operation: "backup", message })

/**
 * Writes `backups/garrison-<stamp>-<label>.db` and returns its path. The copy
 * is written under a `.partial` name and renamed when complete, so a crash
 * mid-backup never leaves a file that looks like a finished backup.
 */
export const takeBackup = (
  client: SqliteClient,
  backupsDir: string,
  label: string
): Effect.Effect<string, DatabaseError> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    yield* attempt(() => NodeFs.mkdirSync(backupsDir, { recursive: true })).pipe(
      Effect.mapError((cause) => backupError(`Cannot create ${backupsDir}: ${describeCause(cause)}`))
    )
    // Two backups in the same millisecond with the same label get -2, -3, ...
    let n = 0
    while (exists(NodePath.join(backupsDir, backupFileName(now, label, n)))) n++
    const target = NodePath.join(backupsDir, backupFileName(now, label, n))
    const partial = `${target}.partial`

    yield* client.backup(partial).pipe(
      Effect.mapError((error) =>
        backupError(`Online backup to ${partial} failed: ${error.message} ${describeCause(error.cause)}`)
      ),
      Effect.tapError(() => attempt(() => NodeFs.rmSync(partial, { force: true })).pipe(Effect.ignore))
    )
    yield* attempt(() => {
      NodeFs.renameSync(partial, target)
      syncDir(backupsDir)
    }).pipe(Effect.mapError((cause) => backupError(`Cannot rename ${partial} to ${target}: ${describeCause(cause)}`)))
    yield* Effect.logInfo(`Database backup written to ${target}`)
    return target
  })

/** Removes all but the newest `keep` backups (with any -wal/-shm); returns how many were removed. */
export const pruneBackups = (backupsDir: string, keep: number): Effect.Effect<number> =>
  Effect.gen(function*() {
    const backups = yield* listBackups(backupsDir)
    let removed = 0
    for (const old of backups.slice(Math.max(0, keep))) {
      const result = yield* attempt(() => {
        for (const suffix of ["", ...SIDECARS]) NodeFs.rmSync(old + suffix, { force: true })
      }).pipe(Effect.either)
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
