/**
 * The built-in roles, seeded by the first migration. None can be deleted or
 * renamed; `admin` always holds exactly `admin` (which implies everything),
 * the others' permissions may be edited by an admin.
 */
import { ADMIN } from "@garrison/runtime"

export interface BuiltInRoleDefinition {
  readonly name: string
  readonly description: string
  readonly permissions: ReadonlyArray<string>
}

export const ADMIN_ROLE = "admin"
export const MODERATOR_ROLE = "moderator"
/** The floor role of chat-bot callers whose chat user has no mapping. */
export const CHAT_BOT_ROLE = "chat-bot"

export const BUILT_IN_ROLES: ReadonlyArray<BuiltInRoleDefinition> = [
  { name: ADMIN_ROLE, description: "Everything, including users, roles and system settings", permissions: [ADMIN] },
  {
    name: MODERATOR_ROLE,
    description: "Runs servers and handles players day to day; no deploys, configuration, mods or users",
    permissions: [
      "server.view",
      "server.start",
      "server.stop",
      "server.restart",
      "server.rcon",
      "chat.send",
      "players.view",
      "players.kick",
      "players.ban",
      "bans.manage",
      "mods.view",
      "priority.manage"
    ]
  },
  {
    name: CHAT_BOT_ROLE,
    description: "Floor role of chat-bot callers: read-only views",
    permissions: ["server.view", "players.view"]
  }
]

export const isBuiltInRole = (name: string): boolean => BUILT_IN_ROLES.some((r) => r.name === name)
