/** The watchlist's bus events as the outside sees them (webhooks, the cloud link). */
import { published } from "@garrison/runtime"
import { WatchlistJoined } from "./events.js"

export const WATCHLIST_EVENTS = [
  published(WatchlistJoined, {
    name: "watchlist.joined",
    description: "A player on the watchlist joined a server: the entry, the server, the player's DayZ ID (and Steam64 once RCON linked it), name and the entry's note.",
    example: new WatchlistJoined({
      entryId: "3f0c8a52-2a7e-4d0c-9a55-1b8f5e7c2d10",
      serverId: "srv-1",
      serverName: "Chernarus #1",
      playerId: "2pJxkLyPSJc7S8Yq1tXgK3N5eAqvEoFZ8Wq0x9mQw1k=",
      platformId: "76561198000000001",
      name: "Survivor",
      note: "suspected duper",
      at: "2026-11-27T18:00:00.000Z"
    }),
    severity: "warning",
    summary: (e) => `watched player ${e.name} joined ${e.serverName}`
  })
]
