/** The accounts plugin's pages: the signed-in user's own account, and users and roles (admin). */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const accountsUi: PluginUi = {
  id: "accounts",
  routes: [
    { path: "/account", title: "My account", component: lazy(() => import("./AccountPage.js")) },
    { path: "/users", title: "Users", component: lazy(() => import("./UsersPage.js")), anyOf: ["admin"] },
    { path: "/roles", title: "Roles", component: lazy(() => import("./RolesPage.js")), anyOf: ["admin"] }
  ],
  nav: [
    { label: "Users", path: "/users", anyOf: ["admin"], order: 60 },
    { label: "Roles", path: "/roles", anyOf: ["admin"], order: 61 }
  ]
}
