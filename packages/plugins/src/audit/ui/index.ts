/** The audit plugin's page: the audit trail and its chain check (admin). */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const auditUi: PluginUi = {
  id: "audit",
  routes: [{ path: "/audit", title: "Audit trail", component: lazy(() => import("./AuditPage.js")), anyOf: ["admin"] }],
  nav: [{ label: "Audit trail", path: "/audit", anyOf: ["admin"], order: 70 }]
}
