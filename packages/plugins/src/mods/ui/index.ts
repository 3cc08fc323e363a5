/** The mods plugin's server tab: installed mods in load order, installs with their progress, updates, and the safe rollouts (rollout plugin). */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const modsUi: PluginUi = {
  id: "mods",
  serverTabs: [
    {
      id: "mods",
      label: "Mods",
      // Lazy: the tab's code (and the mods and rollout contracts) is fetched when it is first opened.
      component: lazy(() => import("./ModsTab.js")),
      // Reading the list needs `mods.view` on the server (`MODS_VIEW`, a literal here to keep the contract out of the first load).
      anyOf: ["mods.view"],
      order: 50
    }
  ]
}
