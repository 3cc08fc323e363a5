/**
 * What an endpoint requires, declared on the endpoint itself and enforced by
 * the HTTP host before the handler runs. Every endpoint must carry one: the
 * host refuses to start when a plugin forgets.
 *
 *   HttpApiEndpoint.get("list", "/api/greetings").annotate(Access, Access.permission("greetings.read"))
 *   .annotate(Access, Access.all(Access.permission("server.rcon"), Access.permission("players.view")))
 *   .annotate(Access, Access.any(Access.permission("bans.manage"), Access.permission("players.ban")))
 *
 * Groups may carry a default with `HttpApiGroup.annotate(Access, ...)`; the
 * endpoint's own annotation wins. On a route about one server (its path has
 * `/servers/:id` or `:serverId`), a permission the caller's role grants for
 * some servers only counts for those servers (see `Principal.scoped`).
 */
import * as Context from "effect/Context"
import { type Principal, principalCan } from "./Principal.js"

export type AccessRule =
  /** Public: no credentials needed. */
  | { readonly _tag: "None" }
  /** Any authenticated caller. */
  | { readonly _tag: "AnyAuth" }
  /** An authenticated caller whose role grants this permission (or `admin`). */
  | { readonly _tag: "Permission"; readonly permission: string }
  /** Every rule holds. */
  | { readonly _tag: "All"; readonly rules: ReadonlyArray<AccessRule> }
  /** At least one rule holds. */
  | { readonly _tag: "Any"; readonly rules: ReadonlyArray<AccessRule> }

export class Access extends Context.Tag("@garrison/runtime/Access")<Access, AccessRule>() {
  static readonly none: AccessRule = { _tag: "None" }
  static readonly anyAuth: AccessRule = { _tag: "AnyAuth" }
  static readonly permission = (permission: string): AccessRule => ({ _tag: "Permission", permission })
  static readonly all = (...rules: ReadonlyArray<AccessRule>): AccessRule => ({ _tag: "All", rules })
  static readonly any = (...rules: ReadonlyArray<AccessRule>): AccessRule => ({ _tag: "Any", rules })
}

/** Whether the rule can only hold for an authenticated caller. */
export const needsCaller = (rule: AccessRule): boolean => {
  switch (rule._tag) {
    case "None":
      return false
    case "AnyAuth":
    case "Permission":
      return true
    case "All":
      return rule.rules.some(needsCaller)
    case "Any":
      return rule.rules.length > 0 && rule.rules.every(needsCaller)
  }
}

/** Whether `caller` (undefined: anonymous) satisfies the rule, on the server the route is about when there is one. */
export const allows = (rule: AccessRule, caller: Principal | undefined, serverId?: string): boolean => {
  switch (rule._tag) {
    case "None":
      return true
    case "AnyAuth":
      return caller !== undefined
    case "Permission":
      return caller !== undefined && principalCan(caller, rule.permission, serverId)
    case "All":
      return rule.rules.every((r) => allows(r, caller, serverId))
    case "Any":
      return rule.rules.some((r) => allows(r, caller, serverId))
  }
}

/** Every permission the rule names, for the start-up check that each exists. */
export const permissionsNamed = (rule: AccessRule): ReadonlyArray<string> => {
  switch (rule._tag) {
    case "None":
    case "AnyAuth":
      return []
    case "Permission":
      return [rule.permission]
    case "All":
    case "Any":
      return rule.rules.flatMap(permissionsNamed)
  }
}

/** The permissions a caller lacks for the rule, as a 403 names them (for `Any`, every choice). */
export const missingPermissions = (rule: AccessRule, caller: Principal, serverId?: string): ReadonlyArray<string> => {
  if (allows(rule, caller, serverId)) return []
  switch (rule._tag) {
    case "None":
    case "AnyAuth":
      return []
    case "Permission":
      return [rule.permission]
    case "All":
      return rule.rules.flatMap((r) => missingPermissions(r, caller, serverId))
    case "Any":
      return rule.rules.flatMap(permissionsNamed)
  }
}

/** The rule as the OpenAPI document shows it: `None`, `Any auth`, `server.rcon`, `server.rcon and players.view`, `any of bans.manage, players.ban`. */
export const describeAccess = (rule: AccessRule): string => {
  switch (rule._tag) {
    case "None":
      return "None"
    case "AnyAuth":
      return "Any auth"
    case "Permission":
      return rule.permission
    case "All":
      return rule.rules.map((r) => (r._tag === "Any" ? `(${describeAccess(r)})` : describeAccess(r))).join(" and ")
    case "Any":
      return `any of ${rule.rules.map((r) => (r._tag === "All" ? `(${describeAccess(r)})` : describeAccess(r))).join(", ")}`
  }
}
