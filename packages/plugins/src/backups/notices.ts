/**
 * A failed backup as a notification, for whoever may view the server (the
 * notifications plugin's `aboutServer`; nothing when that plugin is not
 * loaded): one per backup that could not be made, naming its type and why.
 */
import { on } from "@garrison/runtime"
import { aboutServer, notifyIfLoaded } from "../notifications/index.js"
import { BackupFailed } from "./events.js"

export const backupFailed = (e: BackupFailed) =>
  aboutServer(e.serverId, {
    level: "error",
    title: `${e.name}: backup failed`,
    message: `The ${e.type} backup of ${e.name} could not be made: ${e.error}. ${e.by === "scheduler" ? "It was due on schedule." : `Asked by ${e.by}.`}`
  })

export const backupNotices = [on(BackupFailed, (e) => notifyIfLoaded(backupFailed(e)), "notifyBackupFailed")]
