/** The priority plugin's page: the VIP priority queue. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const priorityUi: PluginUi = {
  id: "priority",
  routes: [{ path: "/priority", title: "Priority queue", component: lazy(() => import("./PriorityPage.js")), anyOf: ["priority.manage"] }],
  nav: [{ label: "Priority queue", path: "/priority", anyOf: ["priority.manage"], order: 30 }]
}
