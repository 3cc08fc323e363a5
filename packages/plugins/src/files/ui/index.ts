/** The files plugin's server tab: browse the install folder, open a text file in the code editor, save it with its version. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const filesUi: PluginUi = {
  id: "files",
  serverTabs: [
    {
      id: "files",
      label: "Files",
      // Lazy: the tab's code is fetched when it is first opened, and the code editor only when a file is.
      component: lazy(() => import("./FilesTab.js")),
      // Every files route needs `server.config` on the server (the plugin's contract: FILES_PERMISSION).
      anyOf: ["server.config"],
      order: 60
    }
  ]
}
