/** The actions plugin's server tab: world and vehicle actions (player actions sit in the players tab). */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const actionsUi: PluginUi = {
  id: "actions",
  serverTabs: [{ id: "world", label: "World", component: lazy(() => import("./WorldTab.js")), anyOf: ["server.rcon"], order: 15 }]
}
