/** The logs plugin's server tabs: the server's log files (with search) and its metrics over time. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const logsUi: PluginUi = {
  id: "logs",
  serverTabs: [
    { id: "logs", label: "Logs", component: lazy(() => import("./LogsTab.js")), anyOf: ["server.view"], order: 30 },
    { id: "metrics", label: "Metrics", component: lazy(() => import("./MetricsTab.js")), anyOf: ["server.view"], order: 35 }
  ]
}
