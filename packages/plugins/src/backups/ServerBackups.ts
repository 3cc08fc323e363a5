/**
 * `ServerBackups`: a server's backups as zips with a manifest (see
 * README.md). Making one (manual, scheduled, or before a restore, a wipe or
 * an update), listing with the retention tier that keeps each, previewing,
 * downloading, restoring, deleting; the schedule runs on `Clock`.
 *
 * One backup or restore per server at a time (a semaphore per server); what
 * runs is a `BackupStatus` on a progress board, streamed to followers. A
 * restore is also the server actor's long operation (kind `restore`), so
 * nothing can start the server while its files are being replaced.
 *
 * The parts live in `internal/`, each built once here with what it needs:
 * `serverWork` (locks, the status board, backups in use), `backupRuns`
 * (making one), `schedule`, `listing` (list, preview, download, delete),
 * `restore` and `configView`; `auditRows` records for all of them.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Stream from "effect/Stream"
import { type ActedBy, type AuditActor, AuditTrail, EventBus, hostFolders, type ServerNotFound, type ServerUnreadable } from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { type BackupConfigsStore, makeBackupConfigs } from "./BackupConfigs.js"
import type { BackupConfigInput, BackupConfigView, BackupContents, BackupPage, BackupRemoved, BackupStatus } from "./contract/Api.js"
import { makeArchiveFolder } from "./internal/archiveFolder.js"
import { makeRecord } from "./internal/auditRows.js"
import { makeBackupRuns } from "./internal/backupRuns.js"
import { makeConfigView } from "./internal/configView.js"
import type { WantedPath } from "./internal/gather.js"
import { makeListing } from "./internal/listing.js"
import { makeRestore } from "./internal/restore.js"
import type { BackupType } from "./internal/retention.js"
import { makeScheduleDue } from "./internal/schedule.js"
import { idle, makeServerWork } from "./internal/serverWork.js"
import type { ZipRefused } from "./internal/zipRead.js"
import type { BackupsError, BackupStoreError } from "./errors.js"

export { SCHEDULE_TICK } from "./internal/schedule.js"

type Lookup = ServerNotFound | ServerUnreadable

export interface BackupMade {
  readonly filename: string
  readonly sizeBytes: number
  readonly pruned: ReadonlyArray<string>
}

export interface ServerBackupsShape {
  readonly list: (serverId: string, options: { readonly type?: BackupType; readonly limit: number; readonly cursor?: string }) => Effect.Effect<BackupPage, Lookup | BackupsError | BackupStoreError>
  /** A manual backup, begun in the background: answers once it began. */
  readonly create: (serverId: string, by: AuditActor) => Effect.Effect<BackupStatus, Lookup | BackupsError | BackupStoreError>
  /**
   * A backup of `type` made now and waited for (another plugin's wipe or
   * update, inside its own operation): the configured paths plus `extra`.
   * Waits for a backup or restore of the server that runs. `by`: who started
   * that work (its rows name them), or the scheduler.
   */
  readonly backupNow: (serverId: string, type: BackupType, by: ActedBy, extra?: ReadonlyArray<WantedPath>) => Effect.Effect<BackupMade, Lookup | BackupsError | BackupStoreError>
  readonly status: (serverId: string) => Effect.Effect<BackupStatus, Lookup>
  /** The server looked up now (a missing one fails here, before any answer); then its status and every change, until the work has ended. */
  readonly follow: (serverId: string) => Effect.Effect<Stream.Stream<BackupStatus>, Lookup>
  readonly remove: (serverId: string, filename: string, type: BackupType | undefined, by: AuditActor) => Effect.Effect<BackupRemoved, Lookup | BackupsError>
  /** The zip opened for reading (the file may be pruned meanwhile: the open file stays readable). */
  /** The zip as kept, secrets and all (an admin's `?secrets=include`); audited as `backup.downloaded` by `by`. */
  readonly download: (
    serverId: string,
    filename: string,
    type: BackupType | undefined,
    by: AuditActor
  ) => Effect.Effect<{ readonly bytes: Stream.Stream<Uint8Array, Error>; readonly size: number; readonly filename: string }, Lookup | BackupsError>
  /** A copy of the zip with the game's secrets masked, made as it streams (`maskedZip`). */
  readonly downloadMasked: (serverId: string, filename: string, type: BackupType | undefined) => Effect.Effect<Stream.Stream<Uint8Array, ZipRefused>, Lookup | BackupsError>
  readonly contents: (serverId: string, filename: string, type: BackupType | undefined, page: { readonly limit: number; readonly cursor?: string }) => Effect.Effect<BackupContents, Lookup | BackupsError>
  readonly restore: (serverId: string, filename: string, type: BackupType | undefined, by: AuditActor) => Effect.Effect<BackupStatus, Lookup | BackupsError>
  readonly config: (serverId: string) => Effect.Effect<BackupConfigView, Lookup | BackupStoreError>
  readonly setConfig: (serverId: string, input: typeof BackupConfigInput.Type, by: AuditActor) => Effect.Effect<BackupConfigView, Lookup | BackupsError | BackupStoreError>
  /** Forgets a deleted server's config (its backups stay on disk). */
  readonly forgetServer: (serverId: string) => Effect.Effect<void, BackupStoreError>
  /** One pass of the schedule: every due scheduled backup, one after another (a backup that fails is logged; the schedule itself unread fails the pass). */
  readonly runDue: Effect.Effect<void, BackupStoreError>
}

export class ServerBackups extends Context.Tag("@garrison/plugins/ServerBackups")<ServerBackups, ServerBackupsShape>() {}

export const ServerBackupsLive = Layer.scoped(
  ServerBackups,
  Effect.gen(function* () {
    const servers = yield* Servers
    const bus = yield* EventBus
    const audit = yield* AuditTrail
    const configs: BackupConfigsStore = yield* makeBackupConfigs
    const { backupDir } = yield* hostFolders
    const archive = makeArchiveFolder(backupDir)
    yield* archive.sweep
    const scope = yield* Effect.scope
    const work = yield* makeServerWork
    const record = makeRecord(audit)

    const runs = makeBackupRuns({ servers, configs, archive, bus, record, scope, work })
    const listing = makeListing({ servers, configs, archive, record, work })
    const { restore } = makeRestore({ servers, archive, bus, record, scope, work, lookupBackup: listing.lookupBackup, backupLocked: runs.backupLocked })
    const { configView, setConfig } = makeConfigView({ servers, configs, archive, record })
    const scheduleDue = makeScheduleDue({ servers, configs, archive, runBackup: runs.runBackup })

    return ServerBackups.of({
      list: listing.list,
      create: runs.create,
      backupNow: runs.backupNow,
      status: (serverId) => Effect.zipRight(servers.entry(serverId), Effect.map(work.board.get(serverId), (s) => s ?? idle(serverId))),
      follow: (serverId) => Effect.zipRight(servers.entry(serverId), Effect.map(work.board.get(serverId), (now) => work.board.follow(serverId, now ?? idle(serverId)))),
      remove: listing.remove,
      download: listing.download,
      downloadMasked: listing.downloadMasked,
      contents: listing.contents,
      restore,
      config: configView,
      setConfig,
      forgetServer: (serverId) => configs.forget(serverId),
      runDue: scheduleDue
    })
  })
)
