/** The scheduler plugin's server tab: scheduled restarts, messages, locks, RCON commands. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const schedulerUi: PluginUi = {
  id: "scheduler",
  serverTabs: [{ id: "scheduler", label: "Scheduler", component: lazy(() => import("./SchedulerTab.js")), order: 40 }]
}
