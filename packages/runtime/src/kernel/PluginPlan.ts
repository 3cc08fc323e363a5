/**
 * Validation of a plugin list, before anything starts: ids, dependencies,
 * permissions, rate-limit scopes, authentication schemes, each endpoint's
 * policy (access, scope, schemes) and routes. Every start-up error is a
 * unit test. Each message names both sides of a conflict. Its one effect:
 * every plugin's request bodies are made to refuse unknown fields
 * (`requireKnownFields`), before any route is built.
 *
 * Each check lives in ./plan/, one concept a module; this file runs them in
 * order and stops at the first refusal.
 */
import * as Either from "effect/Either"
import type { AuthenticationMethod } from "../http/AuthenticationMethods.js"
import type { RateLimitDeclaration } from "../http/RateLimits.js"
import type { PermissionDefinition } from "../access/Permissions.js"
import type { AnyPublishedEvent } from "../events/PublishedEvents.js"
import type { AnyPlugin, PluginSecret } from "./Plugin.js"
import type { StartupError } from "./StartupError.js"
import { errorCodeCatalog } from "./plan/errorCodes.js"
import { orderPlugins } from "./plan/order.js"
import { permissionCatalog } from "./plan/permissions.js"
import { publishedEventCatalog } from "./plan/publishedEvents.js"
import { rateLimitCatalog } from "./plan/rateLimits.js"
import { claimRoutes, type HostRoute, type RouteEntry } from "./plan/routes.js"
import { schemeCatalog } from "./plan/schemes.js"
import { secretCatalog } from "./plan/secrets.js"

export { listEndpoints } from "./plan/endpoints.js"
export { routeShape } from "./plan/routes.js"
export type { HostRoute, RouteEntry }

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
  /** Every event published to the outside, with who declared it. */
  readonly publishedEvents: ReadonlyArray<AnyPublishedEvent & { readonly owner: string }>
}

export const planPlugins = (
  plugins: ReadonlyArray<AnyPlugin>,
  hostRoutes: ReadonlyArray<HostRoute> = []
): Either.Either<PluginPlan, StartupError> =>
  Either.gen(function* () {
    const ordered = yield* orderPlugins(plugins)
    // Declarations are read in load order, in these passes, so the first plugin at fault is the one named.
    const permissions = permissionCatalog()
    for (const plugin of ordered) yield* permissions.declare(plugin)
    const rateLimits = rateLimitCatalog()
    const schemes = schemeCatalog()
    for (const plugin of ordered) {
      yield* rateLimits.declare(plugin)
      yield* schemes.declare(plugin)
    }
    const errorCodes = errorCodeCatalog()
    const secrets = secretCatalog()
    const publishedEvents = publishedEventCatalog()
    for (const plugin of ordered) {
      yield* errorCodes.declare(plugin)
      yield* secrets.declare(plugin)
      yield* publishedEvents.declare(plugin)
    }
    const routes = yield* claimRoutes(ordered, hostRoutes, {
      permissions: permissions.owners,
      rateLimits: rateLimits.owners,
      schemes: schemes.owners
    })
    return {
      ordered,
      permissions: permissions.declared,
      routes,
      rateLimits: rateLimits.declared,
      schemes: schemes.declared,
      errorCodes: errorCodes.byTag,
      secrets: secrets.declared,
      publishedEvents: publishedEvents.declared
    }
  })
