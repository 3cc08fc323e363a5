/**
 * Per-server roles: a role may grant a permission on some servers only
 * (`{"permission": "server.rcon", "servers": ["<id>"]}`), as Pterodactyl's
 * subusers and BattleMetrics' organisations do. A caller whose role grants
 * no `server.*` permission everywhere but some on named servers sees those
 * servers only: the servers list shows them alone, and every route about
 * another server answers 403 (never its data).
 */
import { ADMIN } from "./Permissions.js"
import type { Principal } from "./Principal.js"

/** Where a route about one server finds its id: a path parameter after `/servers/`, else one named `serverId`. */
export const serverParamOf = (path: string): string | undefined => {
  const segments = path.split("/")
  for (let i = 1; i < segments.length; i++) {
    if (segments[i - 1] === "servers" && segments[i]!.startsWith(":")) return segments[i]!.slice(1)
  }
  return segments.find((segment) => segment === ":serverId")?.slice(1)
}

/** The servers a caller may see: every one, or only those their scoped grants name. */
export const visibleServers = (caller: Pick<Principal, "permissions" | "scoped">): "all" | ReadonlySet<string> => {
  if (caller.permissions.has(ADMIN) || caller.scoped === undefined || caller.scoped.size === 0) return "all"
  for (const permission of caller.permissions) if (permission.startsWith("server.")) return "all"
  const servers = new Set<string>()
  for (const ids of caller.scoped.values()) for (const id of ids) servers.add(id)
  return servers
}

export const canSeeServer = (caller: Pick<Principal, "permissions" | "scoped">, serverId: string): boolean => {
  const visible = visibleServers(caller)
  return visible === "all" || visible.has(serverId)
}
