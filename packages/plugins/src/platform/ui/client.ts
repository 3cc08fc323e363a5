/**
 * The APIs the platform pages call: the platform plugin's own (SteamCMD,
 * the Steam account, the workshop) and the mods plugin's install, for
 * "Install on server…". Neither contract is in the shell's `GarrisonApi`,
 * so their clients are built with the page chunk.
 */
import { apiFor } from "@dashboard/api/client.js"
import { ModsApi } from "../../mods/contract/Api.js"
import { PlatformApi } from "../contract/Api.js"

export const platformApi = apiFor(PlatformApi)
export const modsApi = apiFor(ModsApi)
