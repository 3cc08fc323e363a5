/**
 * The updates plugin's pages: the server's Updates tab (status for anyone
 * who sees the server; update, rebuild and cancel with `server.deploy`
 * there) and the Deploy page (a new server through SteamCMD).
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const updatesUi: PluginUi = {
  id: "updates",
  // Lazy: each page's code is fetched when it is first opened.
  routes: [{ path: "/deploy", title: "Deploy a server", component: lazy(() => import("./DeployPage.js")), anyOf: ["server.deploy"] }],
  nav: [{ label: "Deploy", path: "/deploy", anyOf: ["server.deploy"], order: 5 }],
  serverTabs: [
    {
      id: "updates",
      label: "Updates",
      component: lazy(() => import("./UpdatesTab.js")),
      // The status is open to whoever sees the server; the controls need `server.deploy` there.
      anyOf: ["server.view", "server.deploy"],
      order: 65
    }
  ]
}
