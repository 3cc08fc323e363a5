/**
 * Server installs and updates through SteamCMD (the spec's Servers rows for
 * update, update status, cancel, deploy and rebuild), with progress as a
 * status and as Server-Sent Events. See README.md.
 */
import { AuditTrail, Plugin } from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import { UpdatesApi } from "./contract/Api.js"
import { updateNotices } from "./notices.js"
import { UPDATE_EVENTS } from "./published.js"
import { UpdatesRoutes } from "./routes.js"
import { ServerUpdates } from "./ServerUpdates.js"

export const UpdatesPlugin = Plugin.make({
  id: "updates",
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  // Notifies whoever may view the server when the notifications plugin is loaded (`notices.ts`).
  uses: [Notifications],
  description: "Game server installs, updates and rebuilds through SteamCMD; deploying new servers",
  dependsOn: ["servers", "platform"],
  layer: ServerUpdates.layer,
  http: Plugin.http(UpdatesApi, UpdatesRoutes),
  // An update, rebuild or deploy that finished or failed: a notification for whoever may view the server.
  events: updateNotices,
  publishes: UPDATE_EVENTS
})

export {
  Branch as ServerBranch,
  DeployInput as ServerDeployInput,
  DeployStarted as ServerDeployStarted,
  UpdateKind as ServerUpdateKind,
  UpdatesApi,
  UpdatesGroup,
  UpdateState as ServerUpdateState,
  UpdateStatus as ServerUpdateStatus
} from "./contract/Api.js"
export { ServerUpdated, ServerUpdateFailed } from "./events.js"
export { installedApp } from "./internal/appManifest.js"
export { ServerUpdates } from "./ServerUpdates.js"
export type { ServerUpdatesShape } from "./ServerUpdates.js"
export { DeployFolderRefused, UpdateConflict, UpdatesUnavailable } from "./errors.js"
export type { UpdatesError } from "./errors.js"
