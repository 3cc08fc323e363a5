/**
 * What a role grants: a JSON array of grants, each a permission name
 * (everywhere) or `{permission, servers}` (on those servers only: per-server
 * moderators, as Pterodactyl's subusers and BattleMetrics' organisations
 * give them). A scoped grant counts on routes about one of its servers; a
 * caller whose `server.*` permissions are all scoped sees only those
 * servers (the runtime's `visibleServers`).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { ADMIN } from "@garrison/runtime"

const PermissionName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128))

/** A server id as the servers plugin makes them (a UUID) or restores them. */
const ServerIdInGrant = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: () => "a server id: 1 to 64 letters, digits, '.', '_' or '-'" })
)

export const ScopedGrant = Schema.Struct({
  permission: PermissionName.pipe(
    Schema.filter((name) => name !== ADMIN || `"${ADMIN}" cannot be limited to servers: grant it everywhere, or not at all`)
  ),
  /** The servers (by id) the permission counts on. */
  servers: Schema.Array(ServerIdInGrant).pipe(Schema.minItems(1), Schema.maxItems(1000))
}).annotations({ identifier: "ScopedGrant" })
export type ScopedGrant = typeof ScopedGrant.Type

export const Grant = Schema.Union(PermissionName, ScopedGrant)
export type Grant = typeof Grant.Type

export const Grants = Schema.Array(Grant).pipe(Schema.maxItems(256))

const decode = Schema.decodeUnknownEither(Schema.parseJson(Grants))

/** A stored list that does not parse grants nothing: fail closed. */
export const parsePermissions = (stored: string): ReadonlyArray<Grant> => Either.getOrElse(decode(stored), () => [])

export const nameOf = (grant: Grant): string => (typeof grant === "string" ? grant : grant.permission)

/**
 * One grant per permission, in the order first given: scoped grants of one
 * permission merged (servers without duplicates), and dropped where the
 * same permission is granted everywhere.
 */
export const normalizePermissions = (grants: ReadonlyArray<Grant>): ReadonlyArray<Grant> => {
  const everywhere = new Set(grants.filter((g): g is string => typeof g === "string"))
  const scoped = new Map<string, Set<string>>()
  const order: Array<string> = []
  for (const grant of grants) {
    const name = nameOf(grant)
    if (!order.includes(name)) order.push(name)
    if (typeof grant !== "string" && !everywhere.has(name)) {
      const servers = scoped.get(name) ?? new Set<string>()
      for (const server of grant.servers) servers.add(server)
      scoped.set(name, servers)
    }
  }
  return order.map((name) => (everywhere.has(name) ? name : { permission: name, servers: [...scoped.get(name)!] }))
}

/** The grants as a caller's principal holds them. */
export const splitGrants = (
  grants: ReadonlyArray<Grant>
): { readonly permissions: ReadonlySet<string>; readonly scoped: ReadonlyMap<string, ReadonlySet<string>> } => {
  const permissions = new Set<string>()
  const scoped = new Map<string, ReadonlySet<string>>()
  for (const grant of normalizePermissions(grants)) {
    if (typeof grant === "string") permissions.add(grant)
    else scoped.set(grant.permission, new Set(grant.servers))
  }
  return { permissions, scoped }
}

/** The grants without `serverId` (a deleted server); a scoped grant left with no server goes. Undefined when nothing changed. */
export const withoutServer = (grants: ReadonlyArray<Grant>, serverId: string): ReadonlyArray<Grant> | undefined => {
  if (!grants.some((g) => typeof g !== "string" && g.servers.includes(serverId))) return undefined
  return grants.flatMap((grant): Array<Grant> => {
    if (typeof grant === "string" || !grant.servers.includes(serverId)) return [grant]
    const servers = grant.servers.filter((id) => id !== serverId)
    return servers.length === 0 ? [] : [{ permission: grant.permission, servers }]
  })
}
