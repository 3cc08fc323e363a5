/** The logs plugin's server tab: the server's log files, with search. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const logsUi: PluginUi = {
  id: "logs",
  serverTabs: [{ id: "logs", label: "Logs", component: lazy(() => import("./LogsTab.js")), anyOf: ["server.view"], order: 30 }]
}
