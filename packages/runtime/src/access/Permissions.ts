/**
 * The one permission catalog: the spec's names are built in, plugins add
 * theirs at start-up, and `admin` implies every permission.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

export interface PermissionDefinition {
  readonly name: string
  readonly description: string
}

export const ADMIN = "admin"

export const builtInPermissions: ReadonlyArray<PermissionDefinition> = [
  { name: "server.deploy", description: "Create, update, delete, deploy and rebuild server entries" },
  { name: "server.start", description: "Start game servers" },
  { name: "server.stop", description: "Stop game servers" },
  { name: "server.restart", description: "Restart game servers, manage backups and schedules" },
  { name: "server.rcon", description: "Send RCON commands, lock and unlock, run admin actions" },
  { name: "server.config", description: "Read and edit server configuration and files" },
  { name: "server.view", description: "View server details, logs and metrics" },
  { name: "chat.send", description: "Broadcast messages to players" },
  { name: "players.view", description: "List players and their details" },
  { name: "players.kick", description: "Kick players" },
  { name: "players.ban", description: "Ban players into the global ban database" },
  { name: "bans.manage", description: "Manage the global ban database" },
  { name: "mods.view", description: "View installed mods and pending updates" },
  { name: "mods.install", description: "Install, update, order and remove mods" },
  { name: "priority.manage", description: "Manage the VIP priority queue" },
  { name: "users.manage", description: "Manage users, roles and chat-user role mappings" },
  { name: ADMIN, description: "Everything, including system settings" }
]

export interface PermissionCatalogShape {
  /** Every known permission, built-in first, then plugin-declared ones in load order. */
  readonly all: ReadonlyArray<PermissionDefinition & { readonly owner: string }>
  readonly has: (name: string) => boolean
  /** Names in `names` that the catalog does not know. */
  readonly unknown: (names: Iterable<string>) => ReadonlyArray<string>
}

export class PermissionCatalog extends Context.Tag("@garrison/runtime/PermissionCatalog")<
  PermissionCatalog,
  PermissionCatalogShape
>() {
  static readonly make = (
    entries: ReadonlyArray<PermissionDefinition & { readonly owner: string }>
  ): PermissionCatalogShape => {
    const names = new Set(entries.map((e) => e.name))
    return {
      all: entries,
      has: (name) => names.has(name),
      unknown: (candidates) => [...candidates].filter((n) => !names.has(n))
    }
  }
  static readonly layer = (entries: ReadonlyArray<PermissionDefinition & { readonly owner: string }>) =>
    Layer.succeed(PermissionCatalog, PermissionCatalog.make(entries))
}

/** Whether a set of granted permissions satisfies `required`; `admin` satisfies everything. */
export const grants = (granted: ReadonlySet<string>, required: string): boolean =>
  granted.has(ADMIN) || granted.has(required)
