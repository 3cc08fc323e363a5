/**
 * Start-up integrity check, run before the Effect client opens the file: a
 * corrupt database is moved aside (never deleted) and replaced by the newest
 * backup that itself passes `quick_check`, or by an empty database.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import { StartupError } from "../../kernel/StartupError.js"
import {
  backupTime,
  copyAtomically,
  type DatabasePaths,
  describeCause,
  exists,
  listBackups,
  moveAside
} from "./files.js"
import { checkFile } from "./rawSqlite.js"

/** What start-up found and did; the host may show it to the operator. */
export interface StartupRecovery {
  readonly outcome: "opened" | "created" | "restored-from-backup" | "reset-empty"
  /** Where the corrupt file was moved, when it was. */
  readonly movedAside?: string
  /** The backup copied in place, when one was. */
  readonly restoredFrom?: string
  /**
   * When that backup was taken (ms since the epoch, from its name): writes
   * acknowledged after this time are lost.
   */
  readonly backupTakenAt?: number
}

const databaseError = (message: string) => new StartupError({ reason: "database", message })

/** The newest backup that passes quick_check; damaged ones are logged and skipped (kept on disk). */
const newestGoodBackup = (backupsDir: string): Effect.Effect<string | undefined, StartupError> =>
  Effect.gen(function*() {
    const backups = yield* listBackups(backupsDir).pipe(
      Effect.mapError((cause) =>
        new StartupError({ reason: "data-dir", message: `Cannot list backups in ${backupsDir}: ${describeCause(cause)}` })
      )
    )
    for (const backup of backups) {
      const check = yield* checkFile(backup, { readonly: false })
      if (check._tag === "ok") return backup
      yield* Effect.logWarning(`Skipping backup ${backup}: it fails its own integrity check (${check.detail})`)
    }
    return undefined
  })

export const recover = (paths: DatabasePaths): Effect.Effect<StartupRecovery, StartupError> =>
  Effect.gen(function*() {
    if (!exists(paths.file)) {
      yield* Effect.logInfo(`No database at ${paths.file}; creating a new one`)
      return { outcome: "created" } as const
    }
    const check = yield* checkFile(paths.file, { readonly: true })
    if (check._tag === "ok") return { outcome: "opened" } as const
    if (check._tag === "unusable") {
      // Locked, unreadable or an I/O fault is not proof of damage: moving the
      // file aside could fork the data (for example a second controller on the
      // same directory), so stop and let the operator look.
      return yield* databaseError(`Cannot open ${paths.file} to check it: ${check.detail}`)
    }

    const now = yield* Clock.currentTimeMillis
    const movedAside = yield* moveAside(paths.file, now).pipe(
      Effect.mapError((cause) =>
        databaseError(`${paths.file} is corrupt (${check.detail}) and could not be moved aside: ${describeCause(cause)}`)
      )
    )
    yield* Effect.logError(
      `Database ${paths.file} is corrupt (${check.detail}); moved it and its -wal/-shm aside to ${movedAside}`
    )

    const backup = yield* newestGoodBackup(paths.backupsDir)
    if (backup === undefined) {
      yield* Effect.logError(
        `No usable backup in ${paths.backupsDir}; starting with an EMPTY database. The corrupt file is kept at ${movedAside}`
      )
      return { outcome: "reset-empty", movedAside } as const
    }
    yield* copyAtomically(backup, paths.file).pipe(
      Effect.mapError((cause) =>
        databaseError(`Cannot restore backup ${backup} to ${paths.file}: ${describeCause(cause)}`)
      )
    )
    const takenAt = backupTime(backup)
    const lost = takenAt === undefined
      ? "writes made after it are lost"
      : `taken ${new Date(takenAt).toISOString()}: writes made after ${new Date(takenAt).toISOString()} are lost`
    yield* Effect.logWarning(
      `Restored database ${paths.file} from backup ${NodePath.basename(backup)}, ${lost}. The corrupt file is kept at ${movedAside}`
    )
    return takenAt === undefined
      ? { outcome: "restored-from-backup", movedAside, restoredFrom: backup } as const
      : { outcome: "restored-from-backup", movedAside, restoredFrom: backup, backupTakenAt: takenAt } as const
  })
