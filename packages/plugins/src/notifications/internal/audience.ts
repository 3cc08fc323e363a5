/**
 * Audiences as stored (`audience_kind`, `audience_key`) and resolved at read
 * time: there is no user directory here, so who sees what follows from the
 * caller's id and permissions in the request, never from a fan-out at
 * publish time. A role change is therefore effective on the next read.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import { ADMIN, visibleServers } from "@garrison/runtime"
import type { Audience } from "../contract/Api.js"

export type AudienceKind = "user" | "permission" | "all"

/** The caller, as far as visibility goes; a `Principal` is one. */
export interface Viewer {
  readonly id: string
  readonly permissions: ReadonlySet<string>
  /** Permissions granted on some servers only (a per-server role): permission to server ids. */
  readonly scoped?: ReadonlyMap<string, ReadonlySet<string>>
}

export const toColumns = (audience: Audience): { readonly kind: AudienceKind; readonly key: string } =>
  audience === "all"
    ? { kind: "all", key: "" }
    : "userId" in audience
      ? { kind: "user", key: audience.userId }
      : { kind: "permission", key: audience.permission }

export const fromColumns = (kind: string, key: string): Audience =>
  kind === "user" ? { userId: key } : kind === "permission" ? { permission: key } : "all"

/**
 * The `WHERE` term for what `viewer` may see, over `notifications n`.
 * `admin` grants every permission, so admins see every permission audience.
 * A permission held on some servers only reaches the notifications about
 * those servers (`n.server_id`); and a caller who may view some servers
 * only never sees a notification about another, whatever its audience.
 */
export const visibleTo = (sql: SqlClient.SqlClient, viewer: Viewer): Statement.Fragment => {
  const clauses: Array<Statement.Fragment> = [
    sql`n.audience_kind = ${"all"}`,
    sql`(n.audience_kind = ${"user"} AND n.audience_key = ${viewer.id})`
  ]
  const permissions = [...viewer.permissions]
  if (viewer.permissions.has(ADMIN)) {
    clauses.push(sql`n.audience_kind = ${"permission"}`)
  } else if (permissions.length > 0) {
    clauses.push(sql`(n.audience_kind = ${"permission"} AND ${sql.in("n.audience_key", permissions)})`)
  }
  for (const [permission, servers] of viewer.scoped ?? new Map<string, ReadonlySet<string>>()) {
    if (servers.size === 0) continue
    clauses.push(sql`(n.audience_kind = ${"permission"} AND n.audience_key = ${permission} AND ${sql.in("n.server_id", [...servers])})`)
  }
  const visible = visibleServers(viewer)
  if (visible === "all") return sql.or(clauses)
  const aboutVisible = visible.size === 0 ? sql`n.server_id IS NULL` : sql`(n.server_id IS NULL OR ${sql.in("n.server_id", [...visible])})`
  return sql.and([sql.or(clauses), aboutVisible])
}
