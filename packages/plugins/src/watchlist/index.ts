/**
 * The watchlist (the spec's `/api/watchlist`): players kept an eye on; a
 * watched player joining any server notifies whoever may view it and
 * publishes `watchlist.joined`. See README.md.
 */
import * as Effect from "effect/Effect"
import { AuditTrail, on, Plugin } from "@garrison/runtime"
import { GamePlayerJoined } from "../gamelog/index.js"
import { WatchlistApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { WATCHLIST_EVENTS } from "./published.js"
import { WatchlistRoutes } from "./routes.js"
import { Watchlist } from "./Watchlist.js"

export const WatchlistPlugin = Plugin.make({
  id: "watchlist",
  description: "Watched players: a notification and watchlist.joined when one joins a server",
  // Joins come from the game log; the names shown from its player history.
  dependsOn: ["gamelog", "notifications", "servers"],
  requires: [AuditTrail],
  migrations,
  // The chat bot's watchList reads it.
  provides: [Watchlist],
  layer: Watchlist.layer,
  http: Plugin.http(WatchlistApi, WatchlistRoutes),
  events: [on(GamePlayerJoined, (event) => Effect.flatMap(Watchlist, (watchlist) => watchlist.joined(event)), "watchedPlayerJoined")],
  publishes: WATCHLIST_EVENTS
})

export { WatchlistApi, WatchlistEntry, WatchlistInput, WatchlistList } from "./contract/Api.js"
export { WatchlistJoined } from "./events.js"
export { Watchlist } from "./Watchlist.js"
export type { WatchlistShape } from "./Watchlist.js"
