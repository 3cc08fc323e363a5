/**
 * Making a backup under the server's lock: the zip (`makeBackup`), the
 * retention after it, the event and the audit row; by hand (beside the
 * request) or waited for (another plugin's wipe or update, a restore).
 * Separate from the zip itself, which knows nothing of locks or statuses.
 */
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { randomUUID } from "node:crypto"
import { actedByName, type ActedBy, type AuditActor, errorMessage, type EventBus, forkUntilBegan, processUp } from "@garrison/runtime"
import type { ServersShape } from "../../servers/index.js"
import type { BackupConfigsStore } from "../BackupConfigs.js"
import type { BackupConfig } from "../contract/Api.js"
import { BackupConflict } from "../errors.js"
import { BackupCreated, BackupFailed } from "../events.js"
import type { BackupMade } from "../ServerBackups.js"
import type { ArchiveFolder } from "./archiveFolder.js"
import type { RecordAudit } from "./auditRows.js"
import type { WantedPath } from "./gather.js"
import { makeBackup } from "./makeBackup.js"
import { type BackupType, judgeRetention } from "./retention.js"
import { filesOf, storageOf, wantedOf } from "./serverPaths.js"
import { idle, type ServerWork } from "./serverWork.js"

export interface BackupRunsDeps {
  readonly servers: ServersShape
  readonly configs: BackupConfigsStore
  readonly archive: ArchiveFolder
  readonly bus: Context.Tag.Service<typeof EventBus>
  readonly record: RecordAudit
  readonly scope: Scope.Scope
  readonly work: ServerWork
}

export const makeBackupRuns = ({ servers, configs, archive, bus, record, scope, work }: BackupRunsDeps) => {
  const { board, locks, inUse, busy, set, progressOf, begin, end } = work

  /** Retention after a new backup: what the policy prunes, never a backup in use. */
  const prune = (serverId: string, config: BackupConfig) =>
    Effect.gen(function* () {
      const all = yield* archive.list(serverId)
      const verdict = judgeRetention(all, { keepPerType: config.keep, tiers: config.tiers })
      const pruned: Array<string> = []
      for (const filename of verdict.prune) {
        if (inUse.has(`${serverId}/${filename}`)) continue
        if (yield* archive.remove(serverId, filename)) pruned.push(filename)
      }
      return pruned
    })

  /** Makes one backup; the caller holds the server's lock and has put a running status. */
  const backupLocked = (serverId: string, type: BackupType, by: ActedBy, filename: string, extra: ReadonlyArray<WantedPath>) =>
    Effect.gen(function* () {
      const handle = yield* servers.get(serverId)
      const entry = yield* handle.entry
      const state = yield* handle.state
      const config = yield* configs.get(serverId)
      const storage = yield* storageOf(entry)
      const createdAt = yield* Clock.currentTimeMillis
      const made = yield* makeBackup({
        server: { id: serverId, name: entry.name },
        type,
        filename,
        wanted: [...wantedOf(entry, config, storage), ...extra],
        excludeLogs: config.excludeLogs,
        running: processUp(state),
        storage,
        filesOf: filesOf(entry),
        archive,
        token: randomUUID(),
        createdAt: new Date(createdAt),
        progress: progressOf(serverId)
      }).pipe(
        Effect.tapError((error) =>
          Effect.zipRight(
            bus.publish(new BackupFailed({ serverId, name: entry.name, type, error: errorMessage(error), by: actedByName(by) })),
            record(by, "backup.failed", serverId, { type, filename, error: errorMessage(error) }, "failure")
          )
        ),
        Effect.mapError((error) => new BackupConflict({ message: `the ${type} backup failed: ${errorMessage(error)}` }))
      )
      yield* set(serverId, () => ({ phase: "pruning" }))
      const pruned = yield* prune(serverId, config)
      const sizeBytes = (yield* archive.find(serverId, filename))?.sizeBytes ?? 0
      yield* bus.publish(new BackupCreated({ serverId, name: entry.name, filename, type, sizeBytes, files: made.files, pruned, by: actedByName(by) }))
      yield* record(by, "backup.created", serverId, { type, filename, sizeBytes, files: made.files, pruned, warnings: made.warnings.length })
      return { filename, sizeBytes, pruned } satisfies BackupMade
    })

  /**
   * A backup of `type` under the server's lock; `wait`: queue behind one
   * that runs, else refuse. `onBegan` runs once its status is on the board.
   */
  const runBackup = (serverId: string, type: BackupType, by: ActedBy, extra: ReadonlyArray<WantedPath>, wait: boolean, onBegan: Effect.Effect<void> = Effect.void) =>
    Effect.gen(function* () {
      const body = Effect.gen(function* () {
        const filename = yield* Effect.flatMap(Clock.currentTimeMillis, (ms) => archive.newName(serverId, type, ms))
        yield* begin(serverId, "backup", type, filename)
        yield* onBegan
        return yield* end(serverId, backupLocked(serverId, type, by, filename, extra))
      })
      if (wait) return yield* locks.withLock(serverId, body)
      const ran = yield* locks.withLockIfFree(serverId, body)
      return Option.isSome(ran) ? ran.value : yield* Effect.fail(busy(serverId))
    })

  const create = (serverId: string, by: AuditActor) =>
    Effect.gen(function* () {
      yield* servers.entry(serverId)
      // The backup runs beside the request, which answers once it began (or was refused: one runs already).
      yield* forkUntilBegan(scope, (began) => runBackup(serverId, "manual", by, [], false, began))
      return (yield* board.get(serverId)) ?? idle(serverId)
    })

  const backupNow = (serverId: string, type: BackupType, by: ActedBy, extra: ReadonlyArray<WantedPath> = []) => runBackup(serverId, type, by, extra, true)

  return { backupLocked, runBackup, create, backupNow }
}

export type BackupRuns = ReturnType<typeof makeBackupRuns>
