/**
 * A role as a caller: what a chat user mapped to it, or the cloud link
 * acting with it, may do. The grants are read from the role record as it is
 * now (a role changed or deleted counts at once). Also: which of a role's
 * grants a caller does not hold, so nobody hands out more than they have.
 */
import { ADMIN, type Principal, principalCan } from "@garrison/runtime"
import type { RoleRecord } from "./Roles.js"

export interface RoleCaller {
  readonly kind: Principal["kind"]
  readonly id: string
  readonly name: string
  /** Leave `admin` out even when the role grants it (a link that must never act as an admin). */
  readonly withoutAdmin?: boolean
}

/** The principal of someone acting with `role`: its grants everywhere, and those scoped to servers. */
export const principalOfRole = (role: RoleRecord, caller: RoleCaller): Principal => {
  const permissions = new Set<string>()
  const scoped = new Map<string, Set<string>>()
  for (const grant of role.permissions) {
    if (typeof grant === "string") {
      if (!(caller.withoutAdmin === true && grant === ADMIN)) permissions.add(grant)
    } else scoped.set(grant.permission, new Set([...(scoped.get(grant.permission) ?? []), ...grant.servers]))
  }
  return { kind: caller.kind, id: caller.id, name: caller.name, role: role.name, permissions, ...(scoped.size > 0 ? { scoped } : {}) }
}

/**
 * The grants of `role` that `holder` does not hold, as `permission` or
 * `permission@server`: empty when the holder may hand the role out.
 */
export const grantsBeyond = (holder: Principal, role: RoleRecord): ReadonlyArray<string> =>
  role.permissions.flatMap((grant) =>
    typeof grant === "string"
      ? principalCan(holder, grant)
        ? []
        : [grant]
      : grant.servers.filter((server) => !principalCan(holder, grant.permission, server)).map((server) => `${grant.permission}@${server}`)
  )
