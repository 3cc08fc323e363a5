/** The backups plugin's server tab: the server's backups, back up now, preview, download, restore, delete, and the backup config. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const backupsUi: PluginUi = {
  id: "backups",
  serverTabs: [
    {
      id: "backups",
      label: "Backups",
      // Lazy: the tab's code is fetched when it is first opened.
      component: lazy(() => import("./BackupsTab.js")),
      // The list and the config are open to anyone who sees the server; every action needs `server.restart` there.
      anyOf: ["server.view", "server.restart"],
      order: 45
    }
  ]
}
