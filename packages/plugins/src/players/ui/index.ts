/** The players plugin's server tabs: online players (kick, ban, message, admin actions) and the RCON console. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const playersUi: PluginUi = {
  id: "players",
  serverTabs: [
    { id: "players", label: "Players", component: lazy(() => import("./PlayersTab.js")), anyOf: ["players.view"], order: 10 },
    { id: "console", label: "Console", component: lazy(() => import("./ConsoleTab.js")), anyOf: ["server.rcon", "server.view"], order: 20 }
  ]
}
