/**
 * The config plugin's server tab: `serverDZ.cfg` as a typed form with a diff
 * before each save (sent with the version read, refused when the file changed
 * meanwhile), the file's text, and the configuration templates.
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const configUi: PluginUi = {
  id: "config",
  serverTabs: [
    {
      id: "config",
      label: "Config",
      // Lazy: the tab's code is fetched when it is first opened.
      component: lazy(() => import("./ConfigTab.js")),
      // Every config route needs `server.config` (CONFIG_PERMISSION) on the server, reading included; named
      // here as text so the shell does not load the contract.
      anyOf: ["server.config"],
      order: 55
    }
  ]
}
