/**
 * Mods: each server's workshop mods (the spec's Mods table), downloaded
 * through SteamCMD into one shared cache and copied onto the server, with
 * the `-mod=`/`-serverMod=` launch parameters kept in the server entry.
 * See README.md.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AuditTrail, on, Plugin, ServerDeleted } from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import type { Servers } from "../servers/index.js"
import { ModsApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { Mods } from "./Mods.js"
import { modNotices } from "./notices.js"
import { MOD_EVENTS } from "./published.js"
import { ModJobsRoutes, ModsRoutes } from "./routes.js"
import { MODS_PERMISSIONS } from "./contract/Api.js"

export const ModsPlugin = Plugin.make({
  id: "mods",
  permissions: MODS_PERMISSIONS,
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  // Notifies whoever may view the server when the notifications plugin is loaded (`notices.ts`).
  uses: [Notifications],
  description: "Workshop mods per server: install, update, load order, launch parameters",
  dependsOn: ["servers", "platform"],
  migrations,
  layer: Mods.layer,
  http: Plugin.http(ModsApi, Layer.merge(ModsRoutes, ModJobsRoutes)),
  events: [
    on<ServerDeleted, Mods | Servers>(
      ServerDeleted,
      (event) => Effect.flatMap(Mods, (mods) => mods.forgetServer(event.serverId)).pipe(Effect.catchAll((e) => Effect.logWarning(`mods: ${e.message}`))),
      "forgetServer"
    ),
    // A mod updated, an install or update that failed: a notification for whoever may view the server.
    ...modNotices
  ],
  publishes: MOD_EVENTS
})

export {
  CacheCleaned as ModCacheCleaned,
  CacheStats as ModCacheStats,
  InstallInput as ModInstallInput,
  Mod,
  ModJob,
  ModJobs,
  ModList,
  ModPatch,
  MODS_INSTALL,
  MODS_VIEW,
  ModsApi,
  ModsGroup,
  ModType,
  PendingUpdate as ModPendingUpdate,
  UpdateCheck as ModUpdateCheck
} from "./contract/Api.js"
export { InvalidModRequest, ModConflict, ModNotFound, ModStoreError } from "./errors.js"
export { ModInstalled, ModJobFailed, ModRemoved, ModUpdated } from "./events.js"
export { modFolderName, parseMetaCpp } from "./internal/metaCpp.js"
export { itemFolder } from "./internal/downloadCache.js"
export { isDue } from "./model.js"
export type { AppliedMod, StagedInstall, StagedMod } from "./model.js"
export { Mods } from "./Mods.js"
export type { ModsShape } from "./Mods.js"
export { MODS_PERMISSIONS } from "./contract/Api.js"
