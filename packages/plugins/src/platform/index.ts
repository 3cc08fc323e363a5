/**
 * Platform: SteamCMD (where it is, the Steam account it logs in with) and
 * DayZ's workshop through the Steam Web API, behind `/api/platform/*`
 * (status for any caller; settings and credentials for `admin`) and
 * `/api/workshop/*`. Other plugins run SteamCMD through `PlatformSettings`
 * and read workshop details through `Workshop`. See README.md.
 */
import * as Layer from "effect/Layer"
import { Plugin } from "@garrison/runtime"
import { platformEnvironment } from "./config.js"
import { PlatformApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { PlatformSettings } from "./PlatformSettings.js"
import { PlatformRoutes, WorkshopRoutes } from "./routes.js"
import { Workshop } from "./Workshop.js"
import * as Effect from "effect/Effect"

export const PlatformPlugin = Plugin.make({
  id: "platform",
  description: "SteamCMD and the Steam account for downloads; workshop search and details",
  migrations,
  layer: Workshop.layer.pipe(Layer.provideMerge(PlatformSettings.layer)),
  http: Plugin.http(PlatformApi, Layer.merge(PlatformRoutes, WorkshopRoutes)),
  checkSettings: Effect.asVoid(platformEnvironment)
})

export {
  CredentialsInput as PlatformCredentialsInput,
  CredentialsResult as PlatformCredentialsResult,
  PlatformApi,
  PlatformGroup,
  PlatformStatus,
  SettingsPatch as PlatformSettingsPatch,
  WorkshopGroup,
  WorkshopItem,
  WorkshopPage
} from "./contract/Api.js"
export { DEFAULT_STEAMCMD_PATH, DEFAULT_WEB_API_URL, platformEnvironment } from "./config.js"
export { NoSteamAccount, PlatformStoreError, WorkshopItemNotFound, WorkshopUnavailable } from "./errors.js"
export { PLATFORM_KEY, PlatformSettings, resolveExecutable } from "./PlatformSettings.js"
export type { PlatformSettingsShape, ResolvedPlatform, SteamAccount, SteamCmdRequest } from "./PlatformSettings.js"
export { steamCmdHttpError, workshopHttpError } from "./routes.js"
export { Workshop } from "./Workshop.js"
export type { WorkshopShape } from "./Workshop.js"
