/** The permissions the players plugin owns. */
import type { PermissionDefinition } from "@garrison/runtime"

export const PLAYER_PERMISSIONS: ReadonlyArray<PermissionDefinition> = [
  { name: "players.view", description: "List players and their details" },
  { name: "players.kick", description: "Kick players" },
  { name: "chat.send", description: "Broadcast messages to players" }
]
