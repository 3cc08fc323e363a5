/**
 * Restoring a backup: the checks before anything begins (the server idle,
 * the whole zip sound, room on the disk, nothing else running), then, as
 * the server actor's `restore` operation, a pre-restore backup and the
 * files put back. Separate because it is the one part that replaces files.
 */
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { randomUUID } from "node:crypto"
import { type AuditActor, errorMessage, type EventBus, profilesPath, startOperation } from "@garrison/runtime"
import type { ServersShape } from "../../servers/index.js"
import { BackupConflict } from "../errors.js"
import { BackupRestored } from "../events.js"
import type { ArchiveFolder } from "./archiveFolder.js"
import type { RecordAudit } from "./auditRows.js"
import type { BackupRuns } from "./backupRuns.js"
import { checkArchive } from "./checkArchive.js"
import type { Listing } from "./listing.js"
import { restoreFiles } from "./restoreFiles.js"
import { roomProblem } from "./restoreRoom.js"
import type { BackupType } from "./retention.js"
import { filesOf } from "./serverPaths.js"
import { idle, type ServerWork } from "./serverWork.js"
import { openZip } from "./zipRead.js"

export interface RestoreDeps {
  readonly servers: ServersShape
  readonly archive: ArchiveFolder
  readonly bus: Context.Tag.Service<typeof EventBus>
  readonly record: RecordAudit
  readonly scope: Scope.Scope
  readonly work: ServerWork
  readonly lookupBackup: Listing["lookupBackup"]
  readonly backupLocked: BackupRuns["backupLocked"]
}

export const makeRestore = ({ servers, archive, bus, record, scope, work, lookupBackup, backupLocked }: RestoreDeps) => {
  const { board, locks, busy, holding, set, progressOf, begin, end } = work

  const openChecked = (path: string) =>
    Effect.gen(function* () {
      const zip = yield* openZip(path)
      const manifest = yield* checkArchive(zip)
      return { zip, manifest }
    })

  const restoreBody = (serverId: string, filename: string, path: string, by: AuditActor) =>
    Effect.scoped(
      Effect.gen(function* () {
        const handle = yield* servers.get(serverId)
        const entry = yield* handle.entry
        // Opened before the pre-restore backup: its retention may prune this very file, whose open descriptor stays readable.
        const { zip, manifest } = yield* openChecked(path)
        yield* set(serverId, () => ({ phase: "pre-restore backup" }))
        const preRestoreName = yield* Effect.flatMap(Clock.currentTimeMillis, (ms) => archive.newName(serverId, "pre-restore", ms))
        const replaced = manifest.paths.map((p) => ({ root: p.root, path: p.path }))
        const pre = yield* backupLocked(serverId, "pre-restore", by, preRestoreName, replaced)
        yield* set(serverId, () => ({ phase: "unpacking", filename, type: manifest.type, bytesDone: 0, bytesTotal: manifest.totalBytes, percent: 0 }))
        const progress = progressOf(serverId)
        const outcome = yield* restoreFiles({
          zip,
          manifest,
          filesOf: filesOf(entry),
          token: randomUUID(),
          onBytes: (bytes) => Effect.sync(() => progress("unpacking", bytes, manifest.totalBytes))
        })
        yield* bus.publish(new BackupRestored({ serverId, name: entry.name, filename, preRestore: pre.filename, files: outcome.restoredFiles, by: by.name }))
        yield* record(by, "backup.restored", serverId, { filename, preRestore: pre.filename, files: outcome.restoredFiles, removed: outcome.removedFiles })
      })
    )

  const restore = (serverId: string, filename: string, type: BackupType | undefined, by: AuditActor) =>
    Effect.gen(function* () {
      const { path, backup } = yield* lookupBackup(serverId, filename, type)
      const handle = yield* servers.get(serverId)
      const why = yield* servers.busy(serverId)
      if (why !== undefined) return yield* Effect.fail(new BackupConflict({ message: `${(yield* handle.entry).name} is busy (${why}): stop it before restoring a backup` }))
      // The whole zip is checked before anything begins: a hostile or damaged one is refused here.
      const { manifest } = yield* Effect.scoped(openChecked(path)).pipe(Effect.mapError((error) => new BackupConflict({ message: `the backup cannot be restored: ${error.message}` })))
      const entry = yield* handle.entry
      const room = yield* roomProblem(path, manifest, (root) => (root === "install" ? entry.installDir : profilesPath(entry)))
      if (room !== undefined) return yield* Effect.fail(new BackupConflict({ message: `the backup cannot be restored: ${room}` }))
      const current = yield* board.get(serverId)
      if (current?.state === "running") return yield* Effect.fail(busy(serverId))
      const key = `${serverId}/${filename}`
      yield* startOperation(handle.actor, "restore", scope, ({ began, progress }) =>
        holding(
          key,
          locks.withLock(
            serverId,
            Effect.gen(function* () {
              yield* begin(serverId, "restore", backup.type, filename)
              yield* began
              yield* end(
                serverId,
                restoreBody(serverId, filename, path, by).pipe(
                  Effect.tapError((error) => record(by, "backup.restore-failed", serverId, { filename, error: errorMessage(error) }, "failure"))
                )
              ).pipe(Effect.ignore)
              yield* progress(1, "restore ended")
            })
          )
        )
      ).pipe(Effect.mapError((error) => new BackupConflict({ message: error.message })))
      return (yield* board.get(serverId)) ?? idle(serverId)
    })

  return { restore }
}
