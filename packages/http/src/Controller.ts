/**
 * The controller: the runtime with a list of plugins, their routes mounted
 * on one router behind the front door, served over Node's HTTP server.
 */
import { HttpLayerRouter, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import {
  Access,
  type AnyPlugin,
  Authenticator,
  GarrisonConfig,
  PluginRegistry,
  Runtime,
  StartupError
} from "@garrison/runtime"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { makeFrontDoor } from "./FrontDoor.js"
import { combinedApi, DOCS_PATH, docsRoutes, OPENAPI_PATH } from "./OpenApiDocs.js"

export const hostRoutes = [
  { method: "GET", path: OPENAPI_PATH, access: Access.none },
  { method: "GET", path: DOCS_PATH, access: Access.none }
] as const

/**
 * Serves the router behind the front door. The server is acquired only
 * here, after the runtime and every route are built, so the port never
 * accepts a request the controller cannot answer yet.
 */
const serveRouter = <E, R>(acquireServer: Effect.Effect<HttpServer.HttpServer, E, R>) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const registry = yield* PluginRegistry
      const config = yield* GarrisonConfig
      const authenticator = yield* Authenticator
      const router = yield* HttpLayerRouter.HttpRouter
      const frontDoor = makeFrontDoor({
        routes: registry.plan.routes,
        bodyLimitBytes: config.bodyLimitBytes,
        trustProxyHops: config.trustProxyHops,
        authenticator
      })
      const server = yield* acquireServer
      yield* HttpServer.serveEffect(frontDoor(router.asHttpEffect())).pipe(
        Effect.provideService(HttpServer.HttpServer, server)
      )
    })
  ).pipe(
    // No trace exporter is configured, so per-request spans would be pure cost.
    HttpMiddleware.withTracerDisabledWhen(() => true)
  )

const controllerLayer = <E, R>(plugins: ReadonlyArray<AnyPlugin>, acquireServer: Effect.Effect<HttpServer.HttpServer, E, R>) => {
  const runtime = Runtime.layer(plugins, { hostRoutes })
  const routes = Layer.unwrapEffect(
    Effect.gen(function* () {
      const registry = yield* PluginRegistry
      const api = combinedApi(registry.plan.ordered, registry.plan.routes, registry.version)
      const pluginRoutes = registry.plan.ordered.flatMap((p) => (p.http ? [p.http.routes] : []))
      return Layer.mergeAll(docsRoutes(api), ...pluginRoutes) as Layer.Layer<never, unknown, HttpLayerRouter.HttpRouter>
    })
  ).pipe(Layer.provideMerge(HttpLayerRouter.layer))
  return serveRouter(acquireServer).pipe(Layer.provide(routes), Layer.provideMerge(runtime))
}

/**
 * The whole controller for a plugin list, on the `HttpServer` in context
 * (tests use `NodeHttpServer.layerTest`); `layer` below binds it to a port.
 */
export const layerWithoutServer = (plugins: ReadonlyArray<AnyPlugin>) => controllerLayer(plugins, HttpServer.HttpServer)

/** The controller listening on `HOST:PORT`; a taken port is a clear start-up error. */
export const layer = (plugins: ReadonlyArray<AnyPlugin>) =>
  Layer.unwrapEffect(
    Effect.map(GarrisonConfig, (config) =>
      controllerLayer(
        plugins,
        NodeHttpServer.make(createServer, { port: config.port, host: config.host }).pipe(
          Effect.mapError(
            (error) =>
              new StartupError({
                reason: "port-in-use",
                message: `cannot listen on ${config.host}:${config.port}: ${describeListenError(error.cause)}`
              })
          )
        )
      ).pipe(Layer.provide(NodeHttpServer.layerContext))
    )
  )

const describeListenError = (cause: unknown) => {
  const code = (cause as { code?: string } | undefined)?.code
  if (code === "EADDRINUSE") return "the port is already in use (set PORT to a free one)"
  if (code === "EACCES") return "permission denied for this port"
  if (code === "EADDRNOTAVAIL") return "the address is not available on this machine (check HOST)"
  return cause instanceof Error ? cause.message : String(cause)
}
