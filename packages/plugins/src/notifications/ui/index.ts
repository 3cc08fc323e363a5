/** The notifications plugin's parts: the bell in the top bar (unread count) and the full list. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"
import { Bell } from "./Bell.js"

export const notificationsUi: PluginUi = {
  id: "notifications",
  routes: [{ path: "/notifications", title: "Notifications", component: lazy(() => import("./NotificationsPage.js")) }],
  header: Bell
}
