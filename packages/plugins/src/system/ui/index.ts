/**
 * The system plugin's page (`admin`): versions and the host, the host's and
 * the controller's load as charts over the sampled history, how the
 * controller runs (systemd or foreground), and the run-time settings.
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const systemUi: PluginUi = {
  id: "system",
  // Lazy: the page's code is fetched when it is first opened.
  routes: [{ path: "/system", title: "System", component: lazy(() => import("./SystemPage.js")), anyOf: ["admin"] }],
  nav: [{ label: "System", path: "/system", anyOf: ["admin"], order: 72 }]
}
