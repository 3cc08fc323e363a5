/**
 * The trust plugin's page (`trust.manage`): the community ban pool
 * (submissions, overturns), appeals, the communities and their weights, and
 * a player lookup; for admins also the partner keys (shown once, revoked)
 * and the subscriptions to partners' feeds (policy, pull now, remove).
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const trustUi: PluginUi = {
  id: "trust",
  // Lazy: the page's code is fetched when it is first opened. The admin's sections are shown by permission inside the page.
  routes: [{ path: "/trust", title: "Trust network", component: lazy(() => import("./TrustPage.js")), anyOf: ["trust.manage"] }],
  nav: [{ label: "Trust network", path: "/trust", anyOf: ["trust.manage"], order: 25 }]
}
