/** The watchlist plugin's page (any signed-in user): the watched players, adding one by any id form with a note, removing one. */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

export const watchlistUi: PluginUi = {
  id: "watchlist",
  // Lazy: the page's code is fetched when it is first opened.
  routes: [{ path: "/watchlist", title: "Watchlist", component: lazy(() => import("./WatchlistPage.js")) }],
  nav: [{ label: "Watchlist", path: "/watchlist", order: 44 }]
}
