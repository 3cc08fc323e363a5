/**
 * One OpenAPI document for the whole controller, merged from every plugin's
 * `HttpApi`, with each operation's required access written into it, and a
 * docs page (Scalar, served inline: no CDN) over it.
 */
import { HttpApi, HttpApiScalar, HttpLayerRouter, HttpServerResponse, OpenApi } from "@effect/platform"
import { type AnyPlugin, describeAccess, type RouteEntry } from "@garrison/runtime"
import { Effect, Layer } from "effect"

export const OPENAPI_PATH = "/api/openapi.json"
export const DOCS_PATH = "/api/docs"

type LooseApi = HttpApi.HttpApi<string, never, never, never>

export const combinedApi = (plugins: ReadonlyArray<AnyPlugin>, routes: ReadonlyArray<RouteEntry>, version: string) => {
  let api = HttpApi.make("garrison") as unknown as LooseApi
  for (const plugin of plugins) {
    if (plugin.http) api = api.addHttpApi(plugin.http.api as LooseApi) as LooseApi
  }
  const access = new Map(routes.map((r) => [`${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`, r]))
  return api
    .annotate(OpenApi.Title, "Garrison controller API")
    .annotate(OpenApi.Version, version)
    .annotate(OpenApi.Transform, (spec) => withAccess(spec as unknown as Record<string, unknown>, access) as unknown as typeof spec)
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")

/** Adds `x-garrison-access` and a line in the description of every operation. */
const withAccess = (spec: Record<string, unknown>, access: ReadonlyMap<string, RouteEntry>): Record<string, unknown> => {
  const paths = (spec.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = access.get(`${method} ${path}`)
      if (route === undefined) continue
      const rule = describeAccess(route.access)
      operation["x-garrison-access"] = rule
      operation["x-garrison-plugin"] = route.owner
      operation.description = [operation.description, `Access: ${rule}.`].filter(Boolean).join("\n\n")
    }
  }
  return {
    ...spec,
    components: {
      ...((spec.components ?? {}) as Record<string, unknown>),
      securitySchemes: {
        cookie: { type: "apiKey", in: "cookie", name: "auth-token", description: "Session cookie; mutating requests also send X-CSRF-Token" },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" }
      }
    }
  }
}

export const docsRoutes = (api: LooseApi): Layer.Layer<never, never, HttpLayerRouter.HttpRouter> =>
  Layer.merge(
    HttpLayerRouter.use((router) => {
      const spec = OpenApi.fromApi(api)
      return router.add("GET", OPENAPI_PATH, Effect.succeed(HttpServerResponse.unsafeJson(spec)))
    }),
    HttpApiScalar.layerHttpLayerRouter({ api, path: DOCS_PATH })
  )
