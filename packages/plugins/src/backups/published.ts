/** The backups plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { BackupCreated, BackupFailed, BackupRestored } from "./events.js"

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

export const BACKUP_EVENTS = [
  published(BackupCreated, {
    name: "backup.created",
    description:
      "A backup of a server's config, profiles and world was made (by hand, on schedule, or before a restore, wipe or update); `pruned` lists the backups the retention removed after it.",
    example: new BackupCreated({
      serverId: "a1b2c3",
      name: "Main",
      filename: "scheduled-20260314-040000-000.zip",
      type: "scheduled",
      sizeBytes: 734_003_200,
      files: 1289,
      pruned: ["scheduled-20260307-040000-000.zip"],
      by: "scheduler"
    }),
    severity: "success",
    summary: (e) => `Backup ${e.filename} of ${e.name} made (${e.type}, ${e.files} files, ${megabytes(e.sizeBytes)})`
  }),
  published(BackupFailed, {
    name: "backup.failed",
    description: "A backup of a server could not be made; `error` says why.",
    example: new BackupFailed({ serverId: "a1b2c3", name: "Main", type: "scheduled", error: "no space left on the backup disk", by: "scheduler" }),
    severity: "error",
    summary: (e) => `Backup of ${e.name} failed (${e.type}): ${oneLine(e.error, 300)}`
  }),
  published(BackupRestored, {
    name: "backup.restored",
    description: "A server's files were restored from a backup; `preRestore` names the backup made of what the restore replaced.",
    example: new BackupRestored({
      serverId: "a1b2c3",
      name: "Main",
      filename: "scheduled-20260314-040000-000.zip",
      preRestore: "pre-restore-20260314-181200-000.zip",
      files: 1289,
      by: "alice"
    }),
    severity: "success",
    summary: (e) => `${e.name} was restored from backup ${e.filename} by ${e.by} (${e.files} files)`
  })
]
