/**
 * The platform plugin's pages: SteamCMD (admin: status, the Steam account
 * with its Steam Guard step, the settings) and the Workshop (search,
 * popular, details, install on a server).
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const platformUi: PluginUi = {
  id: "platform",
  // Lazy: each page's code is fetched when it is first opened.
  routes: [
    { path: "/steamcmd", title: "SteamCMD", component: lazy(() => import("./SteamCmdPage.js")), anyOf: ["admin"] },
    // Workshop lookups are open to any signed-in user; the page is for those who look after mods.
    { path: "/workshop", title: "Workshop", component: lazy(() => import("./WorkshopPage.js")), anyOf: ["mods.view", "mods.install"] }
  ],
  nav: [
    { label: "Workshop", path: "/workshop", anyOf: ["mods.view", "mods.install"], order: 46 },
    { label: "SteamCMD", path: "/steamcmd", anyOf: ["admin"], order: 73 }
  ]
}
