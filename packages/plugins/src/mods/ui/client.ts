/** The mods contract's client: built the first time the Mods tab asks, so its schemas load with the tab, not the shell. */
import { apiFor } from "@dashboard/api/client.js"
import { ModsApi } from "../contract/Api.js"

export const modsApi = apiFor(ModsApi)
