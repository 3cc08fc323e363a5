/**
 * One OpenAPI document for the whole controller, merged from every plugin's
 * `HttpApi` and finished with what only the host knows: each operation's
 * `security` (from the plugins' authentication methods and its `Access`),
 * the permission it needs (as `x-garrison-access` and a sentence in its
 * description), its owner, its licensed feature, its body example, and
 * error responses in the one shape the controller sends.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Context from "effect/Context"
import {
  BodyExample,
  describeAccess,
  needsCaller,
  type PluginPlan,
  type RateLimitDeclaration,
  type RouteEntry
} from "@garrison/runtime"
import { accessSentence, describeOperation, rateLimitOf, rateLimitSentence } from "./Descriptions.js"
import { ERROR_SCHEMA_NAME, errorSchema, pruneUnusedSchemas, withErrorShape, withLicenseRefusal } from "./ErrorShape.js"
import { securityFor, securitySchemesOf } from "./Security.js"

export type LooseApi = HttpApi.HttpApi<string, never, never, never>

export const DOCUMENT_TITLE = "Garrison controller API"

const INTRODUCTION = [
  "The REST API of a Garrison controller: it runs and guards DayZ-style game servers.",
  "Each operation's security lists the ways to call it (a bearer token, or the session cookie plus its CSRF header " +
    "on writes; none for public operations), and its description names the permission it needs.",
  "Errors are JSON `{error, message, details?}`: `error` is a stable code for programs, `message` is for people. " +
    "Any operation may also answer 413 (body too large), 415 (body not JSON) or 503 (`unavailable`, with Retry-After).",
  "Dates in requests are strict ISO-8601; answers give times in UTC (`2026-01-31T12:00:00.000Z`)."
].join("\n\n")

/**
 * The API is served by the controller the document came from: a relative
 * server, so a client or the docs page resolves every path against that
 * origin (OpenAPI's default, stated because linters and generators expect it).
 */
const SERVERS = [{ url: "/", description: "The controller that serves this document (its own origin)." }]

/** The project declares no open-source licence (`private` in package.json): the API's terms are the owner's. */
const LICENSE = { name: "Proprietary" }

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")
const operationKey = (method: string, openApiPath: string) => `${method.toLowerCase()} ${openApiPath}`

/** The merged API of the plugins, annotated so `OpenApi.fromApi` produces the finished document. */
export const combinedApi = (plan: PluginPlan, version: string): LooseApi => {
  let api = HttpApi.make("garrison") as unknown as LooseApi
  for (const plugin of plan.ordered) {
    if (plugin.http) api = api.addHttpApi(plugin.http.api as LooseApi) as LooseApi
  }
  const finish = finishDocument({
    routes: new Map(plan.routes.map((route) => [operationKey(route.method, toOpenApiPath(route.path)), route])),
    schemes: plan.schemes,
    rateLimits: new Map(plan.rateLimits.map((r) => [r.scope, r])),
    permissions: new Map(plan.permissions.map((p) => [p.name, p.description])),
    examples: bodyExamples(api)
  })
  return api
    .annotate(OpenApi.Title, DOCUMENT_TITLE)
    .annotate(OpenApi.Version, version)
    .annotate(OpenApi.Description, INTRODUCTION)
    .annotate(OpenApi.Servers, SERVERS)
    .annotate(OpenApi.License, LICENSE)
    .annotate(OpenApi.Transform, (spec) => finish(spec as unknown as Record<string, unknown>) as unknown as typeof spec)
}

/** Every endpoint's `BodyExample`, by operation. */
const bodyExamples = (api: LooseApi): ReadonlyMap<string, unknown> => {
  const examples = new Map<string, unknown>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const example = Context.getOption(endpoint.annotations, BodyExample)
      if (example._tag === "Some") examples.set(operationKey(endpoint.method, toOpenApiPath(endpoint.path)), example.value)
    }
  })
  return examples
}

interface Finishing {
  readonly routes: ReadonlyMap<string, RouteEntry>
  readonly schemes: PluginPlan["schemes"]
  readonly rateLimits: ReadonlyMap<string, RateLimitDeclaration>
  readonly permissions: ReadonlyMap<string, string>
  readonly examples: ReadonlyMap<string, unknown>
}

type Operation = Record<string, unknown> & {
  description?: string
  security?: unknown
  requestBody?: { content?: Record<string, Record<string, unknown>> }
}

const finishDocument = (finishing: Finishing) => (spec: Record<string, unknown>): Record<string, unknown> => {
  const paths = (spec.paths ?? {}) as Record<string, Record<string, Operation>>
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = operationKey(method, path)
      const route = finishing.routes.get(key)
      if (route === undefined) continue
      operation["x-garrison-access"] = describeAccess(route.access)
      operation["x-garrison-rate-limit"] = rateLimitOf(route.rateLimit, finishing.rateLimits)
      operation["x-garrison-plugin"] = route.owner
      operation.description = describeOperation(
        operation.description,
        `${accessSentence(route.access, finishing.permissions)} ${rateLimitSentence(route.rateLimit, finishing.rateLimits)}`
      )
      const security = securityFor(route, finishing.schemes)
      if (security === undefined) delete operation.security
      else operation.security = security
      const body = operation.requestBody?.content?.["application/json"]
      if (body !== undefined && finishing.examples.has(key)) body.example = finishing.examples.get(key)
      withErrorShape(operation, needsCaller(route.access))
      if (route.feature !== undefined) {
        operation["x-garrison-licensed-feature"] = route.feature
        withLicenseRefusal(operation, route.feature)
      }
    }
  }
  // Every operation states its own security; a document-wide `[]` would read as "public" wherever one did not.
  const { security: _documentWide, ...rest } = spec
  const components = (spec.components ?? {}) as Record<string, unknown>
  const finished: Record<string, unknown> = {
    ...rest,
    components: {
      ...components,
      schemas: { ...((components.schemas ?? {}) as Record<string, unknown>), [ERROR_SCHEMA_NAME]: errorSchema },
      securitySchemes: securitySchemesOf(finishing.schemes.flatMap((scheme) => scheme.methods))
    }
  }
  pruneUnusedSchemas(finished)
  withoutUnknownIds(finished)
  return finished
}

/** The `$id` Effect gives every `Schema.Unknown` (`/schemas/unknown`). */
const UNKNOWN_ID = "/schemas/unknown"

/**
 * Drops that `$id` wherever it is: inlined in several places, one `$id` for
 * different schemas is invalid JSON Schema, and validators (a linter checking
 * the examples) refuse the document. The schema itself (any value) stays.
 */
const withoutUnknownIds = (node: unknown): void => {
  if (Array.isArray(node)) {
    for (const item of node) withoutUnknownIds(item)
    return
  }
  if (typeof node !== "object" || node === null) return
  const record = node as Record<string, unknown>
  if (record.$id === UNKNOWN_ID) delete record.$id
  for (const value of Object.values(record)) withoutUnknownIds(value)
}
