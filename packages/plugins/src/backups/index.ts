/**
 * Backups of a server's files (spec "Backups"): zips with a manifest, made
 * by hand, on a schedule, and before a restore, a wipe or an update (the
 * `BeforeServerUpdate` hook); kept by type and in hourly, daily, weekly and
 * monthly tiers; previewed, downloaded and restored. See README.md.
 */
import * as Effect from "effect/Effect"
import { AuditTrail, BeforeServerUpdate, on, Plugin, ServerDeleted } from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import { BackupsApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { backupNotices } from "./notices.js"
import { BACKUP_EVENTS } from "./published.js"
import { BackupsRoutes } from "./routes.js"
import { SCHEDULE_TICK, ServerBackups, ServerBackupsLive } from "./ServerBackups.js"

export const BackupsPlugin = Plugin.make({
  id: "backups",
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  // Notifies whoever may view the server when the notifications plugin is loaded (`notices.ts`).
  uses: [Notifications],
  description: "Backups of a server's config, profiles and world: scheduled, tiered retention, restore",
  dependsOn: ["servers"],
  migrations,
  layer: ServerBackupsLive,
  http: Plugin.http(BackupsApi, BackupsRoutes),
  hooks: [
    BeforeServerUpdate.handle((input) =>
      Effect.flatMap(ServerBackups, (backups) => backups.backupNow(input.serverId, "pre-update", input.by))
    )
  ],
  events: [
    on(ServerDeleted, (event) => Effect.flatMap(ServerBackups, (backups) => backups.forgetServer(event.serverId)), "forgetServer"),
    // A backup that failed: a notification for whoever may view the server.
    ...backupNotices
  ],
  publishes: BACKUP_EVENTS,
  // The schedule: every minute, the backups that are due (a failed pass is logged; the next minute tries again).
  jobs: [{ name: "scheduled-backups", every: SCHEDULE_TICK, run: Effect.flatMap(ServerBackups, (backups) => backups.runDue) }]
})

export {
  BackupConfig,
  BackupConfigInput,
  BackupConfigView,
  BackupContents,
  BackupPage,
  BackupRemoved,
  BackupsApi,
  BackupsGroup,
  BackupStatus,
  BackupType,
  BackupView,
  ContentsEntry as BackupContentsEntry
} from "./contract/Api.js"
export { defaultBackupConfig } from "./BackupConfigs.js"
export { BackupCreated, BackupFailed, BackupRestored } from "./events.js"
export { archiveName as backupArchiveName, parseArchiveName as parseBackupArchiveName } from "./internal/archiveNames.js"
export { judgeRetention, tiersOf as backupTiersOf } from "./internal/retention.js"
export type { RetentionPolicy as BackupRetentionPolicy, RetentionVerdict as BackupRetentionVerdict } from "./internal/retention.js"
export { isLogFile } from "./internal/gather.js"
export type { WantedPath as BackupWantedPath } from "./internal/gather.js"
export { SCHEDULE_TICK as BACKUP_SCHEDULE_TICK, ServerBackups, ServerBackupsLive } from "./ServerBackups.js"
export type { BackupMade, ServerBackupsShape } from "./ServerBackups.js"
export { BackupConflict, BackupInputRefused, BackupNotFound, BackupStoreError } from "./errors.js"
export type { BackupsError } from "./errors.js"
