/**
 * The game-log plugin's pages: the kill feed (live), the leaderboard with
 * its seasons, the live map (any signed-in user, for the servers they may
 * see), and player history (`players.view`). Each page's code is fetched
 * when it is first opened; the leaderboard shows "New season" to holders
 * of `leaderboard.manage` on the chosen server.
 */
import { lazy } from "react"
import type { PluginUi } from "@dashboard/plugin.js"

const MapPage = lazy(() => import("./MapPage.js"))

export const gamelogUi: PluginUi = {
  id: "gamelog",
  routes: [
    { path: "/killfeed", title: "Kill feed", component: lazy(() => import("./KillFeedPage.js")) },
    { path: "/leaderboard", title: "Leaderboard", component: lazy(() => import("./LeaderboardPage.js")) },
    { path: "/map", title: "Live map", component: MapPage },
    { path: "/map/:id", title: "Live map", component: MapPage },
    { path: "/player-history", title: "Player history", component: lazy(() => import("./PlayerHistoryPage.js")), anyOf: ["players.view"] },
    { path: "/player-history/:player", title: "Player", component: lazy(() => import("./PlayerDetailPage.js")), anyOf: ["players.view"] }
  ],
  nav: [
    { label: "Kill feed", path: "/killfeed", order: 40 },
    { label: "Leaderboard", path: "/leaderboard", order: 41 },
    { label: "Live map", path: "/map", order: 42 },
    { label: "Player history", path: "/player-history", anyOf: ["players.view"], order: 43 }
  ]
}
