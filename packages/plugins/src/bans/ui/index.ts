/** The bans plugin's page: the global ban database. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const bansUi: PluginUi = {
  id: "bans",
  routes: [{ path: "/bans", title: "Bans", component: lazy(() => import("./BansPage.js")), anyOf: ["bans.manage"] }],
  nav: [{ label: "Bans", path: "/bans", anyOf: ["bans.manage"], order: 20 }]
}
