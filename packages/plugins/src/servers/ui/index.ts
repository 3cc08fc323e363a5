/** The servers plugin's pages: the fleet list and one server (its tabs come from the other plugins). */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

const ServerPage = lazy(() => import("./ServerPage.js"))

export const serversUi: PluginUi = {
  id: "servers",
  routes: [
    { path: "/servers", title: "Servers", component: lazy(() => import("./ServersPage.js")) },
    { path: "/servers/:id", title: "Server", component: ServerPage },
    { path: "/servers/:id/:tab", title: "Server", component: ServerPage }
  ],
  nav: [{ label: "Servers", path: "/servers", order: 0 }],
  serverTabs: [{ id: "settings", label: "Settings", component: lazy(() => import("./SettingsTab.js")), anyOf: ["server.deploy"], order: 90 }]
}
