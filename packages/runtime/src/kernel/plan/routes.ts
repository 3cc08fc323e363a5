/**
 * The route table, host routes first, then each plugin's endpoints in load
 * order. Every endpoint declares its Access (a constant response only with
 * Access.none), no two owners claim one method and path (whatever its
 * parameters are called), every permission, rate-limit scope and
 * authentication scheme a route names is declared, and a licensed feature
 * is spelled as one (`LICENSED_FEATURE_NAME`). Each plugin's request
 * bodies are made to refuse unknown fields here (`requireKnownFields`),
 * before any of its routes is built.
 */
import * as Either from "effect/Either"
import { type AccessRule, needsCaller, permissionsNamed } from "../../access/Access.js"
import { serverParamOf } from "../../access/ServerScope.js"
import { requireKnownFields } from "../../http/KnownFields.js"
import { DEFAULT_RATE_LIMIT, LICENSED_FEATURE_NAME, SESSION_SCHEME } from "../../http/RoutePolicy.js"
import type { AnyPlugin } from "../Plugin.js"
import type { StartupError } from "../StartupError.js"
import { listEndpoints } from "./endpoints.js"
import { describeOwner, fail } from "./failure.js"

export interface RouteEntry {
  readonly method: string
  readonly path: string
  readonly access: AccessRule
  readonly owner: string
  readonly quiet: boolean
  /** The rate-limit scope it counts against (`exempt`: none). */
  readonly rateLimit: string
  /** Its writes need no CSRF token. */
  readonly csrfExempt: boolean
  /** The authentication schemes it accepts, in the order they are asked. */
  readonly schemes: ReadonlyArray<string>
  /** A user who must change their password may call it. */
  readonly duringPasswordChange: boolean
  /** The path parameter naming the server it is about, if it is about one. */
  readonly serverParam?: string
  /** The licensed feature it belongs to (`LicensedFeature`): the host asks the `LicenseGate` before its handler. */
  readonly feature?: string
  /** Answered by the front door itself, JSON pre-encoded (see ConstantResponse). */
  readonly constant?: { readonly status: number; readonly json: string }
}

/** Routes the host itself serves, so plugins cannot claim them. */
export interface HostRoute {
  readonly method: string
  readonly path: string
  readonly access: AccessRule
  readonly rateLimit?: string
}

/** `/api/servers/:id` and `/api/servers/:serverId` are the same route. */
export const routeShape = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:[^/]+/g, ":").replace(/\/+$/, "") || "/"}`

/** The names a route may refer to, each with who declared it. */
export interface DeclaredNames {
  readonly permissions: ReadonlyMap<string, string>
  readonly rateLimits: ReadonlyMap<string, string>
  readonly schemes: ReadonlyMap<string, string>
}

export const claimRoutes = (
  ordered: ReadonlyArray<AnyPlugin>,
  hostRoutes: ReadonlyArray<HostRoute>,
  declared: DeclaredNames
): Either.Either<ReadonlyArray<RouteEntry>, StartupError> => {
  const routes: Array<RouteEntry> = []
  const routeOwner = new Map<string, RouteEntry>()
  const claim = (entry: RouteEntry): Either.Either<void, StartupError> => {
    const shape = routeShape(entry.method, entry.path)
    const existing = routeOwner.get(shape)
    if (existing !== undefined) {
      return fail(
        "route-conflict",
        `${entry.method} ${entry.path} is claimed by ${describeOwner(entry.owner)} and by ${describeOwner(
          existing.owner
        )} (${existing.method} ${existing.path})`
      )
    }
    const unknownName = checkNames(entry, declared)
    if (Either.isLeft(unknownName)) return unknownName
    routeOwner.set(shape, entry)
    routes.push(entry)
    return Either.void
  }
  for (const route of hostRoutes) {
    const claimed = claim({
      method: route.method,
      path: route.path,
      access: route.access,
      owner: "host",
      quiet: false,
      rateLimit: route.rateLimit ?? DEFAULT_RATE_LIMIT,
      csrfExempt: false,
      schemes: [SESSION_SCHEME],
      duringPasswordChange: false
    })
    if (Either.isLeft(claimed)) return Either.left(claimed.left)
  }
  for (const plugin of ordered) {
    if (plugin.http === undefined) continue
    // One rule for every plugin, community ones included, rather than one per route.
    requireKnownFields(plugin.http.api)
    const quiet = new Set(plugin.http.quietPaths ?? [])
    const endpoints = listEndpoints(plugin.http.api)
    for (const endpoint of endpoints) {
      if (endpoint.access === undefined) {
        return fail(
          "missing-access",
          `plugin "${plugin.id}" endpoint ${endpoint.method} ${endpoint.path} declares no Access; annotate it with Access.none, Access.anyAuth or Access.permission(...)`
        )
      }
      if (endpoint.constant !== undefined && needsCaller(endpoint.access)) {
        return fail(
          "missing-access",
          `plugin "${plugin.id}" endpoint ${endpoint.method} ${endpoint.path} declares a ConstantResponse but requires authentication; constant responses are for Access.none endpoints only`
        )
      }
      if (endpoint.feature !== undefined && !LICENSED_FEATURE_NAME.test(endpoint.feature)) {
        return fail(
          "invalid-plugin",
          `plugin "${plugin.id}" endpoint ${endpoint.method} ${endpoint.path} names the licensed feature "${endpoint.feature}"; a feature is lower-case words joined by dots or dashes (fleet-sync)`
        )
      }
      if (endpoint.feature !== undefined && endpoint.constant !== undefined) {
        return fail(
          "invalid-plugin",
          `plugin "${plugin.id}" endpoint ${endpoint.method} ${endpoint.path} declares a ConstantResponse and a LicensedFeature; constant responses are answered before the license is asked`
        )
      }
      const serverParam = serverParamOf(endpoint.path)
      const claimed = claim({
        method: endpoint.method,
        path: endpoint.path,
        access: endpoint.access,
        owner: plugin.id,
        quiet: quiet.has(endpoint.path),
        rateLimit: endpoint.rateLimit ?? DEFAULT_RATE_LIMIT,
        csrfExempt: endpoint.csrfExempt ?? false,
        schemes: endpoint.schemes ?? [SESSION_SCHEME],
        duringPasswordChange: endpoint.duringPasswordChange ?? false,
        ...(serverParam === undefined ? {} : { serverParam }),
        ...(endpoint.feature === undefined ? {} : { feature: endpoint.feature }),
        ...(endpoint.constant !== undefined
          ? { constant: { status: endpoint.constant.status, json: JSON.stringify(endpoint.constant.body) } }
          : {})
      })
      if (Either.isLeft(claimed)) return Either.left(claimed.left)
    }
  }
  return Either.right(routes)
}

/** Every permission, rate-limit scope and authentication scheme the route names is declared. */
const checkNames = (entry: RouteEntry, declared: DeclaredNames): Either.Either<void, StartupError> => {
  const unknown = permissionsNamed(entry.access).find((permission) => !declared.permissions.has(permission))
  if (unknown !== undefined) {
    return fail(
      "unknown-permission",
      `${entry.method} ${entry.path} of ${describeOwner(entry.owner)} requires permission "${unknown}", which no plugin declares`
    )
  }
  if (!declared.rateLimits.has(entry.rateLimit)) {
    return fail(
      "unknown-rate-limit",
      `${entry.method} ${entry.path} of ${describeOwner(entry.owner)} counts against rate-limit scope "${entry.rateLimit}", which no plugin declares (known: ${[...declared.rateLimits.keys()].join(", ")})`
    )
  }
  // The default (session) may be missing: without an accounts plugin every caller is anonymous, as before.
  const unknownScheme = entry.schemes.find((name) => name !== SESSION_SCHEME && !declared.schemes.has(name))
  if (unknownScheme !== undefined) {
    return fail(
      "unknown-scheme",
      `${entry.method} ${entry.path} of ${describeOwner(entry.owner)} accepts authentication scheme "${unknownScheme}", which no plugin provides`
    )
  }
  return Either.void
}
