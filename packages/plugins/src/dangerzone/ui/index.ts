/**
 * The dangerzone plugin's server tab: clear log files by category, wipe the
 * server's persistence (typed-name confirmation, pre-wipe backup), and
 * replicate another server's files into this one after a preview.
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"
import { DANGERZONE_PERMISSION } from "./permission.js"

export const dangerzoneUi: PluginUi = {
  id: "dangerzone",
  serverTabs: [
    {
      id: "dangerzone",
      label: "Danger zone",
      // Lazy: the tab's code (and the dangerzone contract) is fetched when it is first opened.
      component: lazy(() => import("./DangerzoneTab.js")),
      anyOf: [DANGERZONE_PERMISSION],
      order: 85
    }
  ]
}
