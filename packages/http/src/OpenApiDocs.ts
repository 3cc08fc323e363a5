/**
 * The API's documentation, served by the host: the OpenAPI document
 * (`/api/openapi.json`, see openapi/Document.ts), a small docs page
 * (`/api/docs`) and the page's script as a static file with a hashed name
 * (`/api/docs/scalar-<hash>.js`), nothing from a CDN.
 *
 * All three are built on first request, not at start-up: the document costs
 * start-up time, and the Scalar bundle is ~3.4 MB of JavaScript that would
 * otherwise sit in memory in every controller, whether anyone opens the docs
 * or not.
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Access, type HostRoute, type PluginPlan, undocumentedEndpoints } from "@garrison/runtime"
import { errorResponse } from "./ErrorResponses.js"
import { docsPage } from "./openapi/DocsPage.js"
import { combinedApi, DOCUMENT_TITLE } from "./openapi/Document.js"
import { acceptsGzip, IMMUTABLE_CACHE_CONTROL, loadScalarScript } from "./openapi/ScalarScript.js"

export const OPENAPI_PATH = "/api/openapi.json"
export const DOCS_PATH = "/api/docs"
const SCRIPT_ROUTE = "/api/docs/:file"

/** The host's own routes for the documentation, all public. */
export const docsHostRoutes: ReadonlyArray<HostRoute> = [
  { method: "GET", path: OPENAPI_PATH, access: Access.none },
  { method: "GET", path: DOCS_PATH, access: Access.none },
  { method: "GET", path: SCRIPT_ROUTE, access: Access.none }
]

export const docsRoutes = (plan: PluginPlan, version: string): Layer.Layer<never, never, HttpLayerRouter.HttpRouter> =>
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      yield* warnAboutUndocumentedEndpoints(plan)
      const document = yield* Effect.cached(Effect.sync(() => OpenApi.fromApi(combinedApi(plan, version))))
      const script = yield* Effect.cached(loadScalarScript)
      const page = yield* Effect.cached(
        Effect.map(script, ({ fileName }) =>
          docsPage({ title: DOCUMENT_TITLE, documentPath: OPENAPI_PATH, scriptPath: `${DOCS_PATH}/${fileName}` })
        )
      )
      yield* router.add("GET", OPENAPI_PATH, Effect.map(document, (spec) => HttpServerResponse.unsafeJson(spec)))
      yield* router.add(
        "GET",
        DOCS_PATH,
        Effect.map(page, ({ contentSecurityPolicy, html }) =>
          HttpServerResponse.uint8Array(html, {
            contentType: "text/html; charset=utf-8",
            headers: { "content-security-policy": contentSecurityPolicy }
          })
        )
      )
      yield* router.add(
        "GET",
        SCRIPT_ROUTE,
        Effect.gen(function* () {
          const { file } = yield* HttpRouter.params
          const { fileName, bytes, gzipped } = yield* script
          // Only the current name exists: an old page's script is gone after an upgrade, not served stale.
          if (file !== fileName) return errorResponse("not-found", `no file ${DOCS_PATH}/${String(file).slice(0, 100)}`)
          const request = yield* HttpServerRequest.HttpServerRequest
          const gzip = acceptsGzip(request.headers["accept-encoding"])
          return HttpServerResponse.uint8Array(gzip ? gzipped : bytes, {
            contentType: "text/javascript; charset=utf-8",
            headers: {
              "cache-control": IMMUTABLE_CACHE_CONTROL,
              vary: "accept-encoding",
              ...(gzip ? { "content-encoding": "gzip" } : {})
            }
          })
        })
      )
    })
  )

/** One line per plugin whose endpoints lack a summary: they show up unnamed on the docs page and in clients. */
const warnAboutUndocumentedEndpoints = (plan: PluginPlan) =>
  Effect.forEach(plan.ordered, (plugin) => {
    const missing = plugin.http === undefined ? [] : undocumentedEndpoints(plugin.http.api)
    return missing.length === 0
      ? Effect.void
      : Effect.logWarning(
          `plugin "${plugin.id}": ${missing.length} endpoint(s) without an OpenAPI summary (${missing.slice(0, 5).join(", ")}${
            missing.length > 5 ? ", ..." : ""
          }); add .annotate(OpenApi.Summary, "...")`
        )
  }, { discard: true })
