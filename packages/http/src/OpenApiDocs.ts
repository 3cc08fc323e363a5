/**
 * One OpenAPI document for the whole controller, merged from every plugin's
 * `HttpApi`, with each operation's required access written into it, and a
 * docs page (Scalar, served inline: no CDN) over it.
 *
 * Both are built on first request, not at start-up: the document costs
 * start-up time, and the Scalar bundle is ~6 MB of JavaScript source that
 * `@effect/platform/HttpApiScalar` would otherwise keep in memory (twice)
 * in every controller, whether anyone opens the docs or not. The page is
 * built once, with a Content-Security-Policy that allows its own inline
 * scripts (by hash) and nothing from elsewhere.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"
import { type AnyPlugin, describeAccess, type RouteEntry } from "@garrison/runtime"

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
  HttpLayerRouter.use((router) =>
    Effect.gen(function* () {
      const spec = yield* Effect.cached(Effect.sync(() => OpenApi.fromApi(api)))
      const page = yield* Effect.cached(Effect.map(Effect.zip(spec, scalarBundle), ([document, script]) => docsPage(document, script)))
      yield* router.add("GET", OPENAPI_PATH, Effect.map(spec, (document) => HttpServerResponse.unsafeJson(document)))
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
    })
  )

/**
 * The Scalar standalone bundle that `@effect/platform` ships. Its module is
 * not in the package's exports, so it is loaded by file URL from the package
 * folder (`@effect/platform` is pinned exactly; the FrontDoor
 * test opens the page).
 */
const scalarBundle: Effect.Effect<string> = Effect.promise(async () => {
  const packageJson = createRequire(import.meta.url).resolve("@effect/platform/package.json")
  const scalarModule = pathToFileURL(NodePath.join(NodePath.dirname(packageJson), "dist", "esm", "internal", "httpApiScalar.js"))
  const loaded = (await import(scalarModule.href)) as { readonly javascript: string }
  return loaded.javascript
})

/** Scalar's settings for the page: `withDefaultFonts: false`, or it loads its fonts from a CDN. */
const scalarConfiguration = JSON.stringify({ _integration: "html", withDefaultFonts: false })

export interface DocsPage {
  /** The page, UTF-8 encoded once. */
  readonly html: Uint8Array
  readonly contentSecurityPolicy: string
}

/**
 * The page and its policy: scripts only the page's own inline ones (by
 * SHA-256), plus compiling WebAssembly ('wasm-unsafe-eval': Scalar hashes
 * the document with xxhash-wasm and shows nothing without it; JavaScript
 * eval stays refused), styles inline (Scalar injects `<style>` elements at
 * run time, so they cannot be hashed in advance), images from data: URIs
 * (Scalar's icons), requests ("Try it") only to this origin, nothing else
 * loaded, no framing, no `<base>`, no form posts.
 */
export const docsPage = (spec: OpenApi.OpenAPISpec, script: string): DocsPage => {
  const configure = `document.getElementById("api-reference").dataset.configuration = ${JSON.stringify(scalarConfiguration)}`
  const html = `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(spec.info.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json">${escapeJsonInHtml(spec)}</script>
    <script>${configure}</script>
    <script>${script}</script>
  </body>
</html>`
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${[configure, script].map(scriptHash).join(" ")} 'wasm-unsafe-eval'`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
  return { html: new TextEncoder().encode(html), contentSecurityPolicy }
}

/** A CSP source for an inline script: the SHA-256 of its text as UTF-8, in base64. */
const scriptHash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c)

/** JSON inside a `<script>` element: `<` escaped so no `</script>` can end it early. */
const escapeJsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")
