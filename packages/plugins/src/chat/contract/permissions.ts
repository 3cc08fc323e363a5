/**
 * The permissions the conventions' action table names that no other plugin
 * declares: reading the game's chat and kill feed, and its leaderboard,
 * through the bot. (Should a game-data plugin come to own them, it declares
 * them and this list drops them.)
 */
import type { PermissionDefinition } from "@garrison/runtime"

export const CHAT_PERMISSIONS: ReadonlyArray<PermissionDefinition> = [
  { name: "logs.view", description: "Read the in-game chat and the kill feed (the chat bot's chatFeed and killfeed)" },
  { name: "metrics.view", description: "Read the leaderboard (the chat bot's leaderboard)" }
]
