/**
 * Validation of a plugin list, before anything starts: ids, dependencies,
 * permissions, access annotations and routes. Every start-up error is a
 * unit test. Each message names both sides of a conflict. Its one effect:
 * every plugin's request bodies are made to refuse unknown fields
 * (`requireKnownFields`), before any route is built.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as Context from "effect/Context"
import * as Either from "effect/Either"
import { Access, type AccessRule } from "../access/Access.js"
import { ConstantResponse, type ConstantResponseValue } from "../http/ConstantResponse.js"
import { requireKnownFields } from "../http/KnownFields.js"
import { builtInPermissions, type PermissionDefinition } from "../access/Permissions.js"
import type { AnyPlugin } from "./Plugin.js"
import { StartupError } from "./StartupError.js"

export interface RouteEntry {
  readonly method: string
  readonly path: string
  readonly access: AccessRule
  readonly owner: string
  readonly quiet: boolean
  /** Answered by the front door itself, JSON pre-encoded (see ConstantResponse). */
  readonly constant?: { readonly status: number; readonly json: string }
}

export interface PluginPlan {
  /** Plugins in an order where each comes after the plugins it depends on. */
  readonly ordered: ReadonlyArray<AnyPlugin>
  readonly permissions: ReadonlyArray<PermissionDefinition & { readonly owner: string }>
  readonly routes: ReadonlyArray<RouteEntry>
}

/** Routes the host itself serves, so plugins cannot claim them. */
export interface HostRoute {
  readonly method: string
  readonly path: string
  readonly access: AccessRule
}

const fail = (reason: StartupError["reason"], message: string) => Either.left(new StartupError({ reason, message }))

/** `/api/servers/:id` and `/api/servers/:serverId` are the same route. */
export const routeShape = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:[^/]+/g, ":").replace(/\/+$/, "") || "/"}`

export const planPlugins = (
  plugins: ReadonlyArray<AnyPlugin>,
  hostRoutes: ReadonlyArray<HostRoute> = []
): Either.Either<PluginPlan, StartupError> => {
  const byId = new Map<string, AnyPlugin>()
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) {
      return fail("duplicate-plugin", `two plugins use the id "${plugin.id}"; plugin ids must be unique`)
    }
    byId.set(plugin.id, plugin)
  }
  for (const plugin of plugins) {
    for (const dep of plugin.dependsOn) {
      if (!byId.has(dep)) {
        return fail("missing-dependency", `plugin "${plugin.id}" depends on "${dep}", which is not loaded`)
      }
    }
  }

  const ordered = topologicalOrder(plugins, byId)
  if (Either.isLeft(ordered)) return Either.left(ordered.left)

  const permissions: Array<PermissionDefinition & { owner: string }> = builtInPermissions.map((p) => ({
    ...p,
    owner: "built-in"
  }))
  const permissionOwner = new Map(permissions.map((p) => [p.name, p.owner]))
  for (const plugin of ordered.right) {
    for (const permission of plugin.permissions) {
      const existing = permissionOwner.get(permission.name)
      if (existing !== undefined) {
        return fail(
          "duplicate-permission",
          `plugin "${plugin.id}" declares permission "${permission.name}", already declared by ${
            existing === "built-in" ? "the built-in catalog" : `plugin "${existing}"`
          }`
        )
      }
      permissionOwner.set(permission.name, plugin.id)
      permissions.push({ ...permission, owner: plugin.id })
    }
  }

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
    if (entry.access._tag === "Permission" && !permissionOwner.has(entry.access.permission)) {
      return fail(
        "unknown-permission",
        `${entry.method} ${entry.path} of ${describeOwner(entry.owner)} requires permission "${entry.access.permission}", which no plugin declares`
      )
    }
    routeOwner.set(shape, entry)
    routes.push(entry)
    return Either.void
  }
  for (const route of hostRoutes) {
    const claimed = claim({ ...route, owner: "host", quiet: false })
    if (Either.isLeft(claimed)) return Either.left(claimed.left)
  }
  for (const plugin of ordered.right) {
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
      if (endpoint.constant !== undefined && endpoint.access._tag !== "None") {
        return fail(
          "missing-access",
          `plugin "${plugin.id}" endpoint ${endpoint.method} ${endpoint.path} declares a ConstantResponse but requires authentication; constant responses are for Access.none endpoints only`
        )
      }
      const claimed = claim({
        method: endpoint.method,
        path: endpoint.path,
        access: endpoint.access,
        owner: plugin.id,
        quiet: quiet.has(endpoint.path),
        ...(endpoint.constant !== undefined
          ? { constant: { status: endpoint.constant.status, json: JSON.stringify(endpoint.constant.body) } }
          : {})
      })
      if (Either.isLeft(claimed)) return Either.left(claimed.left)
    }
  }
  return Either.right({ ordered: ordered.right, permissions, routes })
}

const describeOwner = (owner: string) => (owner === "host" ? "the host" : `plugin "${owner}"`)

/** Every endpoint of an API with its effective Access (the endpoint's own, else its group's). */
export const listEndpoints = (api: HttpApi.HttpApi.Any) => {
  const endpoints: Array<{
    method: string
    path: string
    access: AccessRule | undefined
    constant: ConstantResponseValue | undefined
  }> = []
  HttpApi.reflect(api as HttpApi.HttpApi<string, never, never, never>, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      const access = Context.getOption(mergedAnnotations, Access)
      const constant = Context.getOption(endpoint.annotations, ConstantResponse)
      endpoints.push({
        method: endpoint.method,
        path: endpoint.path,
        access: access._tag === "Some" ? access.value : undefined,
        constant: constant._tag === "Some" ? constant.value : undefined
      })
    }
  })
  return endpoints
}

const topologicalOrder = (
  plugins: ReadonlyArray<AnyPlugin>,
  byId: ReadonlyMap<string, AnyPlugin>
): Either.Either<ReadonlyArray<AnyPlugin>, StartupError> => {
  const ordered: Array<AnyPlugin> = []
  const state = new Map<string, "visiting" | "done">()
  const visit = (plugin: AnyPlugin, path: ReadonlyArray<string>): StartupError | undefined => {
    const seen = state.get(plugin.id)
    if (seen === "done") return undefined
    if (seen === "visiting") {
      return new StartupError({
        reason: "dependency-cycle",
        message: `plugins depend on each other in a cycle: ${[...path, plugin.id].join(" -> ")}`
      })
    }
    state.set(plugin.id, "visiting")
    for (const dep of plugin.dependsOn) {
      const error = visit(byId.get(dep)!, [...path, plugin.id])
      if (error) return error
    }
    state.set(plugin.id, "done")
    ordered.push(plugin)
    return undefined
  }
  for (const plugin of plugins) {
    const error = visit(plugin, [])
    if (error) return Either.left(error)
  }
  return Either.right(ordered)
}
