/**
 * Cloud: an outbound WebSocket link to a relay (`CLOUD_RELAY_URL`) that
 * mirrors the chosen servers' status and runs the remote actions (start,
 * stop, restart, kick, message) the link's role allows, with the REST
 * API's permission checks and an audit row each; reconnects with
 * exponential backoff and jitter. Admin routes under `/api/cloud`. See
 * README.md.
 */
import * as Effect from "effect/Effect"
import {
  AuditTrail,
  on,
  Plugin,
  PlayerConnected,
  PlayerDisconnected,
  ServerCrashed,
  ServerDeleted,
  ServerLocked,
  ServerRestarted,
  ServerStarted,
  ServerStarting,
  ServerStopped,
  ServerUnlocked
} from "@garrison/runtime"
import { CloudLink } from "./CloudLink.js"
import { cloudSettings } from "./config.js"
import { CloudApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { CloudRoutes } from "./routes.js"

const changed = (event: { readonly serverId: string }) => Effect.flatMap(CloudLink, (cloud) => cloud.serverChanged(event.serverId))

export const CloudPlugin = Plugin.make({
  id: "cloud",
  description: "A WebSocket link to a cloud relay: mirrored server status and permitted remote actions",
  // The link acts with a role (accounts) on servers (servers).
  dependsOn: ["servers", "accounts"],
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  migrations,
  layer: CloudLink.layer,
  http: Plugin.http(CloudApi, CloudRoutes),
  events: [
    on(ServerStarting, changed, "mirrorStarting"),
    on(ServerStarted, changed, "mirrorStarted"),
    on(ServerStopped, changed, "mirrorStopped"),
    on(ServerCrashed, changed, "mirrorCrashed"),
    on(ServerRestarted, changed, "mirrorRestarted"),
    on(ServerLocked, changed, "mirrorLocked"),
    on(ServerUnlocked, changed, "mirrorUnlocked"),
    on(PlayerConnected, changed, "mirrorPlayerConnected"),
    on(PlayerDisconnected, changed, "mirrorPlayerDisconnected"),
    on(ServerDeleted, (event) => Effect.flatMap(CloudLink, (cloud) => cloud.serverDeleted(event.serverId)), "forgetServer")
  ],
  checkSettings: Effect.asVoid(cloudSettings)
})

export { CLOUD_KEY, CloudLink, WELCOME_TIMEOUT as CLOUD_WELCOME_TIMEOUT } from "./CloudLink.js"
export type { CloudLinkShape } from "./CloudLink.js"
export { cloudSettings, DEFAULT_RECONNECT_BASE as CLOUD_DEFAULT_RECONNECT_BASE, DEFAULT_RECONNECT_MAX as CLOUD_DEFAULT_RECONNECT_MAX } from "./config.js"
export type { CloudSettings } from "./config.js"
export { CloudApi, CloudGroup, CloudServer, CloudServerPath, CloudStatus, EnableBody as CloudEnableBody, LinkState as CloudLinkState, LinkToken as CloudLinkToken } from "./contract/Api.js"
export {
  Inbound as CloudInbound,
  MirroredServer as CloudMirroredServer,
  PROTOCOL_VERSION as CLOUD_PROTOCOL_VERSION,
  REMOTE_ACTIONS as CLOUD_REMOTE_ACTIONS
} from "./contract/Protocol.js"
export type { ActionRequest as CloudActionRequest, Outbound as CloudOutbound, RemoteAction as CloudRemoteAction } from "./contract/Protocol.js"
export { CloudStoreError, LinkRoleRefused, NoRelay, NotMirrored } from "./errors.js"
export type { CloudError } from "./errors.js"
export { delayCeiling as cloudDelayCeiling, reconnectDelay as cloudReconnectDelay } from "./internal/backoff.js"
export { LINK_ACTOR_ID as CLOUD_LINK_ACTOR_ID, LINK_ACTOR_NAME as CLOUD_LINK_ACTOR_NAME } from "./internal/remote.js"
