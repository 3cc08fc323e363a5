/**
 * The VIP store's pages: the public store (products and the checkout form),
 * its result pages after the provider (success, cancel), all reachable
 * without signing in; and the admin's page (payment settings, products,
 * purchases).
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const storeUi: PluginUi = {
  id: "store",
  routes: [
    { path: "/store", title: "VIP store", component: lazy(() => import("./StorePage.js")), public: true },
    { path: "/store/success", title: "Payment received", component: lazy(() => import("./StoreResultPage.js").then((m) => ({ default: m.StoreSuccessPage }))), public: true },
    { path: "/store/cancel", title: "Payment cancelled", component: lazy(() => import("./StoreResultPage.js").then((m) => ({ default: m.StoreCancelPage }))), public: true },
    { path: "/store/admin", title: "VIP store settings", component: lazy(() => import("./StoreAdminPage.js")), anyOf: ["admin"] }
  ],
  nav: [{ label: "VIP store", path: "/store/admin", anyOf: ["admin"], order: 35 }]
}
