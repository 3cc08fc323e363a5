/** The types plugin's server tab: the mission's types files, their items filtered, edited, added and removed. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const typesUi: PluginUi = {
  id: "types",
  serverTabs: [
    {
      id: "types",
      label: "Types",
      // Lazy: the tab's code is fetched when it is first opened.
      component: lazy(() => import("./TypesTab.js")),
      // Every types route needs `server.config` on the server (the plugin's contract: TYPES_PERMISSION).
      anyOf: ["server.config"],
      order: 62
    }
  ]
}
