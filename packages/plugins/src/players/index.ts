/**
 * Players: RCON commands, the global broadcast, the online players list and
 * kicks, through the actors the servers plugin supervises. A kick publishes
 * `PlayerKicked` (`player.kick`).
 */
import { Plugin } from "@garrison/runtime"
import { PlayersApi } from "./contract/Api.js"
import { PlayersRoutes } from "./routes.js"
import { PLAYER_PERMISSIONS } from "./contract/permissions.js"
import { PLAYER_EVENTS } from "./published.js"

export { PLAYER_PERMISSIONS } from "./contract/permissions.js"

export const PlayersPlugin = Plugin.make({
  id: "players",
  permissions: PLAYER_PERMISSIONS,
  description: "RCON, broadcast messages, online players and kicks",
  dependsOn: ["servers"],
  http: Plugin.http(PlayersApi, PlayersRoutes),
  publishes: PLAYER_EVENTS
})

export { PlayerKicked } from "./events.js"
export { KickBody, KickReply, MAX_MESSAGE_LENGTH, MessageBody, PlayerList, PlayersApi, PlayersGroup, RconBody, RconReply } from "./contract/Api.js"
/**
 * How a request names an online player (slot, GUID, Steam64, DayZ ID or exact name), and the one refusal when it
 * names no one or several: shared with the bans plugin's player ban, the actions plugin's admin actions and the chat bot.
 */
export { findPlayer } from "./internal/resolve.js"
export { resolvePlayer } from "./http/resolvePlayer.js"
export type { FindablePlayer } from "./internal/resolve.js"
