/** The players plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { PlayerKicked } from "./events.js"

export const PLAYER_EVENTS = [
  published(PlayerKicked, {
    name: "player.kick",
    description: "An admin kicked a player from a game server (`POST /api/servers/:id/players/:playerId/kick`).",
    example: new PlayerKicked({
      serverId: "a1b2c3",
      name: "Main",
      slot: 3,
      playerName: "Bravo17",
      steam64: "76561198000000001",
      reason: "Kicked by an admin",
      by: "alice"
    }),
    severity: "warning",
    summary: (e) => `${oneLine(e.playerName, 100)} was kicked from ${e.name} by ${e.by}: ${oneLine(e.reason, 200)}`
  })
]
