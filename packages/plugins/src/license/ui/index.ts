/**
 * The license plugin's page: the license's state in plain words, its
 * entitlements and dates, the tiers; activation and removal for admins.
 * Open to every signed-in user (the status and tiers are any-auth).
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const licenseUi: PluginUi = {
  id: "license",
  // Lazy: the page's code is fetched when it is first opened.
  routes: [{ path: "/license", title: "License", component: lazy(() => import("./LicensePage.js")) }],
  nav: [{ label: "License", path: "/license", order: 80 }]
}
