/**
 * Validation of a plugin list, before anything starts: ids, dependencies,
 * permissions, rate-limit scopes, authentication schemes, each endpoint's
 * policy (access, scope, schemes) and routes. Every start-up error is a
 * unit test. Each message names both sides of a conflict. Its one effect:
 * every plugin's request bodies are made to refuse unknown fields
 * (`requireKnownFields`), before any route is built.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as Context from "effect/Context"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Access, type AccessRule, needsCaller, permissionsNamed } from "../access/Access.js"
import type { AuthenticationMethod } from "../http/AuthenticationMethods.js"
import { builtInRateLimits, EXEMPT_SCOPE, type RateLimitDeclaration, SCOPE_NAME } from "../http/RateLimits.js"
import { AuthSchemes, CsrfExempt, DEFAULT_RATE_LIMIT, DuringPasswordChange, RateLimit, SESSION_SCHEME } from "../http/RoutePolicy.js"
import { serverParamOf } from "../access/ServerScope.js"
import { ConstantResponse, type ConstantResponseValue } from "../http/ConstantResponse.js"
import { requireKnownFields } from "../http/KnownFields.js"
import { kernelPermissions, type PermissionDefinition } from "../access/Permissions.js"
import { codeForTag, errorStatus } from "../http/ApiErrors.js"
import type { AnyPlugin, PluginSecret } from "./Plugin.js"
import { StartupError } from "./StartupError.js"

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
  /** Answered by the front door itself, JSON pre-encoded (see ConstantResponse). */
  readonly constant?: { readonly status: number; readonly json: string }
}

export interface PluginPlan {
  /** Plugins in an order where each comes after the plugins it depends on. */
  readonly ordered: ReadonlyArray<AnyPlugin>
  readonly permissions: ReadonlyArray<PermissionDefinition & { readonly owner: string }>
  readonly routes: ReadonlyArray<RouteEntry>
  /** Every rate-limit scope (built-in first), with who declared it. */
  readonly rateLimits: ReadonlyArray<RateLimitDeclaration & { readonly owner: string }>
  /** The code each error class answers with: the table's, then the plugins' (`_tag` to code). */
  readonly errorCodes: ReadonlyMap<string, string>
  /** Every key a plugin keeps, with who declared it. */
  readonly secrets: ReadonlyArray<PluginSecret & { readonly owner: string }>
  /** Every authentication scheme a plugin provides, in load order, with how callers send it. */
  readonly schemes: ReadonlyArray<{ readonly name: string; readonly owner: string; readonly methods: ReadonlyArray<AuthenticationMethod> }>
}

/** Routes the host itself serves, so plugins cannot claim them. */
export interface HostRoute {
  readonly method: string
  readonly path: string
  readonly access: AccessRule
  readonly rateLimit?: string
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

  // Extension points: each plugin that requires one is built after its providers (there must be one).
  const providers = new Map<string, Array<string>>()
  for (const plugin of plugins) for (const service of plugin.provides) providers.set(service.key, [...(providers.get(service.key) ?? []), plugin.id])
  const builtAfter = new Map<string, Array<string>>()
  for (const plugin of plugins) {
    const after = [...plugin.dependsOn]
    for (const service of plugin.requires) {
      const from = (providers.get(service.key) ?? []).filter((id) => id !== plugin.id)
      if (from.length === 0) {
        const hint = SERVICE_PROVIDERS[service.key]
        return fail(
          "missing-dependency",
          `plugin "${plugin.id}" requires ${service.key}, which no loaded plugin provides${hint === undefined ? "" : `: load ${hint}`}`
        )
      }
      after.push(...from)
    }
    builtAfter.set(plugin.id, after)
  }

  const ordered = topologicalOrder(plugins, byId, (plugin) => builtAfter.get(plugin.id) ?? plugin.dependsOn)
  if (Either.isLeft(ordered)) return Either.left(ordered.left)

  const permissions: Array<PermissionDefinition & { owner: string }> = kernelPermissions.map((p) => ({
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

  const rateLimits: Array<RateLimitDeclaration & { owner: string }> = builtInRateLimits.map((r) => ({ ...r, owner: "built-in" }))
  const scopeOwner = new Map<string, string>([...rateLimits.map((r) => [r.scope, r.owner] as const), [EXEMPT_SCOPE, "built-in"]])
  const schemes: Array<PluginPlan["schemes"][number]> = []
  const schemeOwner = new Map<string, string>()
  for (const plugin of ordered.right) {
    for (const declared of plugin.rateLimits) {
      if (!SCOPE_NAME.test(declared.scope)) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares rate-limit scope "${declared.scope}": use lower-case letters, digits and dashes`)
      }
      if (!Number.isInteger(declared.limit) || declared.limit < 1) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares rate-limit scope "${declared.scope}" with limit ${declared.limit}: use a whole number of at least 1`)
      }
      const existing = scopeOwner.get(declared.scope)
      if (existing !== undefined) {
        return fail(
          "duplicate-rate-limit",
          `plugin "${plugin.id}" declares rate-limit scope "${declared.scope}", already declared by ${describeOwner(existing)}`
        )
      }
      scopeOwner.set(declared.scope, plugin.id)
      rateLimits.push({ ...declared, owner: plugin.id })
    }
    for (const declared of plugin.authentication) {
      if (!SCOPE_NAME.test(declared.name)) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares authentication scheme "${declared.name}": use lower-case letters, digits and dashes`)
      }
      const existing = schemeOwner.get(declared.name)
      if (existing !== undefined && declared.replaces !== true) {
        return fail(
          "duplicate-scheme",
          `plugin "${plugin.id}" declares authentication scheme "${declared.name}", already provided by ${describeOwner(existing)}` +
            " (a plugin that means to take its place says `replaces: true`)"
        )
      }
      schemeOwner.set(declared.name, plugin.id)
      const replaced = schemes.findIndex((s) => s.name === declared.name)
      if (replaced >= 0) schemes.splice(replaced, 1)
      schemes.push({ name: declared.name, owner: plugin.id, methods: declared.methods })
    }
  }

  const errorCodes = new Map<string, string>(Object.entries(codeForTag))
  const codeStatus = new Map<string, { status: number; owner: string }>(
    Object.entries(errorStatus).map(([code, status]) => [code, { status, owner: "built-in" }])
  )
  const secrets: Array<PluginSecret & { owner: string }> = []
  for (const plugin of ordered.right) {
    for (const declared of plugin.errorCodes) {
      if (!/^[a-z][a-z0-9.-]{0,63}$/.test(declared.code) || declared.status < 400 || declared.status > 599) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares error code "${declared.code}" (${declared.status}): use lower case, dots and dashes, and a 4xx or 5xx status`)
      }
      const taken = codeStatus.get(declared.code)
      if (taken !== undefined && taken.status !== declared.status) {
        return fail(
          "duplicate-error-code",
          `plugin "${plugin.id}" declares error code "${declared.code}" with status ${declared.status}; ${describeOwner(taken.owner)} answers it with ${taken.status}`
        )
      }
      if (errorCodes.has(declared.tag)) {
        return fail("duplicate-error-code", `plugin "${plugin.id}" declares a code for error class "${declared.tag}", which already has one`)
      }
      codeStatus.set(declared.code, { status: declared.status, owner: plugin.id })
      errorCodes.set(declared.tag, declared.code)
    }
    for (const secret of plugin.secrets) {
      if (!/^[a-z0-9-]+$/.test(secret.name)) {
        return fail("invalid-plugin", `plugin "${plugin.id}" declares secret "${secret.name}": use lower-case letters, digits and dashes`)
      }
      const other = secrets.find((s) => s.name === secret.name)
      if (other !== undefined) {
        return fail("duplicate-secret", `plugin "${plugin.id}" declares secret "${secret.name}", already declared by ${describeOwner(other.owner)}`)
      }
      secrets.push({ ...secret, owner: plugin.id })
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
    const unknown = permissionsNamed(entry.access).find((permission) => !permissionOwner.has(permission))
    if (unknown !== undefined) {
      return fail(
        "unknown-permission",
        `${entry.method} ${entry.path} of ${describeOwner(entry.owner)} requires permission "${unknown}", which no plugin declares`
      )
    }
    if (!scopeOwner.has(entry.rateLimit)) {
      return fail(
        "unknown-rate-limit",
        `${entry.method} ${entry.path} of ${describeOwner(entry.owner)} counts against rate-limit scope "${entry.rateLimit}", which no plugin declares (known: ${[...scopeOwner.keys()].join(", ")})`
      )
    }
    // The default (session) may be missing: without an accounts plugin every caller is anonymous, as before.
    const unknownScheme = entry.schemes.find((name) => name !== SESSION_SCHEME && !schemeOwner.has(name))
    if (unknownScheme !== undefined) {
      return fail(
        "unknown-scheme",
        `${entry.method} ${entry.path} of ${describeOwner(entry.owner)} accepts authentication scheme "${unknownScheme}", which no plugin provides`
      )
    }
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
      if (endpoint.constant !== undefined && needsCaller(endpoint.access)) {
        return fail(
          "missing-access",
          `plugin "${plugin.id}" endpoint ${endpoint.method} ${endpoint.path} declares a ConstantResponse but requires authentication; constant responses are for Access.none endpoints only`
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
        ...(endpoint.constant !== undefined
          ? { constant: { status: endpoint.constant.status, json: JSON.stringify(endpoint.constant.body) } }
          : {})
      })
      if (Either.isLeft(claimed)) return Either.left(claimed.left)
    }
  }
  return Either.right({ ordered: ordered.right, permissions, routes, rateLimits, schemes, errorCodes, secrets })
}

const describeOwner = (owner: string) =>
  owner === "host" ? "the host" : owner === "built-in" ? "the built-in catalog" : `plugin "${owner}"`

/** Every endpoint of an API with its effective Access (the endpoint's own, else its group's). */
export const listEndpoints = (api: HttpApi.HttpApi.Any) => {
  const endpoints: Array<{
    method: string
    path: string
    access: AccessRule | undefined
    constant: ConstantResponseValue | undefined
    rateLimit: string | undefined
    csrfExempt: boolean | undefined
    schemes: ReadonlyArray<string> | undefined
    duringPasswordChange: boolean | undefined
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
        constant: constant._tag === "Some" ? constant.value : undefined,
        rateLimit: Option.getOrUndefined(Context.getOption(mergedAnnotations, RateLimit)),
        csrfExempt: Option.getOrUndefined(Context.getOption(mergedAnnotations, CsrfExempt)),
        schemes: Option.getOrUndefined(Context.getOption(mergedAnnotations, AuthSchemes)),
        duringPasswordChange: Option.getOrUndefined(Context.getOption(mergedAnnotations, DuringPasswordChange))
      })
    }
  })
  return endpoints
}

/** Who provides the runtime's own extension points, for the start-up error when none is loaded. */
const SERVICE_PROVIDERS: Readonly<Record<string, string>> = {
  "@garrison/runtime/AuditTrail": 'the "audit" plugin (audit rows would be lost)'
}

const topologicalOrder = (
  plugins: ReadonlyArray<AnyPlugin>,
  byId: ReadonlyMap<string, AnyPlugin>,
  builtAfter: (plugin: AnyPlugin) => ReadonlyArray<string>
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
    for (const dep of builtAfter(plugin)) {
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
