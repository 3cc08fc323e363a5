/**
 * The cloud plugin's page (admin): the link to the relay (its state, enable
 * with the relay's token and a role, disable), and which servers it mirrors.
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const cloudUi: PluginUi = {
  id: "cloud",
  // Lazy: the page's code is fetched when it is first opened.
  routes: [{ path: "/cloud", title: "Cloud link", component: lazy(() => import("./CloudPage.js")), anyOf: ["admin"] }],
  nav: [{ label: "Cloud link", path: "/cloud", anyOf: ["admin"], order: 65 }]
}
