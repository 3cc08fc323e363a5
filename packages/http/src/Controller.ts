/**
 * The controller: the runtime with a list of plugins, their routes mounted
 * on one router behind the front door, served over Node's HTTP server.
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Config from "effect/Config"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import {
  Announcements,
  type AnyPlugin,
  AuditTrail,
  Authenticators,
  builtInRateLimits,
  errorMessage,
  GarrisonConfig,
  type HostRoute,
  LicenseGate,
  RequestLoad,
  PluginRegistry,
  type RateLimitRule,
  rateLimitSettingName,
  Runtime,
  StartupError,
  Telemetry
} from "@garrison/runtime"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createServer as createNetServer } from "node:net"
import { answerClientErrors } from "./ClientErrors.js"
import { makeFrontDoor } from "./FrontDoor.js"
import { type GateVerdict, makeGate } from "./Gate.js"
import { type Dashboard, loadDashboard } from "./dashboard/DashboardFiles.js"
import { makeStaticHandler } from "./dashboard/StaticFiles.js"
import { docsHostRoutes, docsRoutes } from "./OpenApiDocs.js"
import { resolveRateLimits } from "./RateLimiter.js"

export const hostRoutes: ReadonlyArray<HostRoute> = docsHostRoutes

export interface ListenOptions {
  readonly port: number
  readonly host: string
}

/**
 * Serves the router behind the gate and the front door. The port is opened
 * only here, after the runtime and every route are built, so it never
 * accepts a request the controller cannot answer yet.
 */
const serveRouter = (listen: ListenOptions, rateLimits: ReadonlyMap<string, RateLimitRule | null>, dashboard: Dashboard) =>
  Layer.scoped(
    HttpServer.HttpServer,
    Effect.gen(function* () {
      const registry = yield* PluginRegistry
      const config = yield* GarrisonConfig
      const authenticators = yield* Authenticators
      const audit = yield* AuditTrail
      // The license plugin's gate when it is loaded; else the slot's default, which allows every feature.
      const license = yield* LicenseGate
      const load = yield* RequestLoad
      const telemetry = yield* Telemetry
      const router = yield* HttpLayerRouter.HttpRouter
      const clock = yield* Effect.clock
      const verdicts = new WeakMap<IncomingMessage, GateVerdict>()
      const gate = makeGate({
        routes: registry.plan.routes,
        rateLimits,
        trustProxyHops: config.trustProxyHops,
        bodyLimitBytes: config.bodyLimitBytes,
        now: () => clock.unsafeCurrentTimeMillis(),
        statics: makeStaticHandler(dashboard)
      })
      const frontDoor = makeFrontDoor({
        bodyLimitBytes: config.bodyLimitBytes,
        authenticators,
        audit,
        license,
        load,
        telemetry,
        verdicts,
        errorCodes: registry.plan.errorCodes
      })
      const handle = yield* NodeHttpServer.makeHandler(frontDoor(router.asHttpEffect())).pipe(
        // No trace exporter is configured, so per-request spans would be pure cost.
        HttpMiddleware.withTracerDisabledWhenEffect(() => true)
      )
      const listener = (request: IncomingMessage, response: ServerResponse) => {
        const verdict = gate(request, response)
        if (verdict === undefined) return
        verdicts.set(request, verdict)
        handle(request, response)
      }
      const server = () => {
        const made = createServer(listener)
        answerClientErrors(made)
        return made
      }
      yield* Effect.logInfo(
        dashboard._tag === "Built"
          ? `web dashboard: ${dashboard.files.size} files (${Math.round(dashboard.totalBytes / 1024)} KiB) from ${dashboard.dir}`
          : `web dashboard: not built${dashboard.dir === undefined ? "" : ` (no ${dashboard.dir}/index.html)`}; run \`npm run build\``
      )
      const httpServer = yield* NodeHttpServer.make(server, listen).pipe(
        Effect.mapError(
          (error) =>
            new StartupError({
              reason: "port-in-use",
              message: `cannot listen on ${listen.host}:${listen.port}: ${describeListenError(error.cause)}`
            })
        )
      )
      const address = httpServer.address
      yield* Effect.logInfo(
        address._tag === "TcpAddress" ? `listening on http://${formatHost(address.hostname)}:${address.port}` : "listening"
      )
      // Only now that it can be reached: the first admin's one-time password and other start-up notes.
      yield* Effect.flatMap(Announcements, (announcements) => announcements.release)
      return httpServer
    })
  )

const formatHost = (hostname: string) => (hostname.includes(":") ? `[${hostname}]` : hostname)

/**
 * Whether the port can be bound, checked before the runtime writes anything
 * (data directory, database, first admin): a start that fails on a taken
 * port must leave a first start a first start. The real bind happens once
 * every route is built; the moment between the two is the only window.
 */
const checkPortFree = (listen: ListenOptions) =>
  listen.port === 0
    ? Effect.void
    : Effect.async<void, StartupError>((resume) => {
        const probe = createNetServer()
        probe.once("error", (error) =>
          resume(
            Effect.fail(
              new StartupError({
                reason: "port-in-use",
                message: `cannot listen on ${listen.host}:${listen.port}: ${describeListenError(error)}`
              })
            )
          )
        )
        probe.listen({ port: listen.port, host: listen.host, exclusive: true }, () => probe.close(() => resume(Effect.void)))
      })

/**
 * Each rate-limit scope's rule, with the `RATE_LIMIT_<SCOPE>` settings
 * applied: read before anything is written, so a bad setting leaves a first
 * start a first start. (Whether each route's scope exists is the plan's check.)
 */
const readRateLimits = (plugins: ReadonlyArray<AnyPlugin>) =>
  Effect.gen(function* () {
    const declared = [...builtInRateLimits, ...plugins.flatMap((plugin) => plugin.rateLimits)]
    const settings = new Map<string, string>()
    for (const scope of declared) {
      const name = rateLimitSettingName(scope.scope)
      const value = yield* Config.option(Config.string(name)).pipe(Effect.orElseSucceed(() => Option.none<string>()))
      if (Option.isSome(value)) settings.set(name, value.value)
    }
    return yield* Either.match(resolveRateLimits(declared, (name) => settings.get(name)), {
      onLeft: (error) => Effect.fail(error),
      onRight: (rules) => Effect.succeed(rules)
    })
  })

const controllerLayer = (plugins: ReadonlyArray<AnyPlugin>, listen: ListenOptions) => {
  // Settings and the port are checked before the runtime writes anything (data directory, database, first admin).
  const checked = Effect.all({
    rateLimits: readRateLimits(plugins),
    // Read whole now: requests are answered from memory, and a bad DASHBOARD_DIR stops the start here.
    dashboard: Effect.flatMap(GarrisonConfig, (config) => loadDashboard(config.dashboardDir)),
    port: checkPortFree(listen)
  })
  const runtime = Runtime.layer(plugins, { hostRoutes, hostReleasesAnnouncements: true })
  const routes = Layer.unwrapEffect(
    Effect.gen(function* () {
      const registry = yield* PluginRegistry
      const pluginRoutes = registry.plan.ordered.flatMap((p) => (p.http ? [p.http.routes] : []))
      return Layer.mergeAll(docsRoutes(registry.plan, registry.version), ...pluginRoutes) as Layer.Layer<never, unknown, HttpLayerRouter.HttpRouter>
    })
  ).pipe(Layer.provideMerge(HttpLayerRouter.layer))
  return Layer.unwrapEffect(
    Effect.map(checked, ({ dashboard, rateLimits }) =>
      serveRouter(listen, rateLimits, dashboard).pipe(
        Layer.provide(routes),
        Layer.provideMerge(runtime),
        Layer.provide(NodeHttpServer.layerContext)
      )
    )
  )
}

/**
 * The controller for a plugin list, listening on `HOST:PORT` from the
 * configuration (or `listen`); a taken port is a clear start-up error.
 */
export const layer = (plugins: ReadonlyArray<AnyPlugin>, listen?: ListenOptions) =>
  listen !== undefined
    ? controllerLayer(plugins, listen)
    : Layer.unwrapEffect(Effect.map(GarrisonConfig, (config) => controllerLayer(plugins, { port: config.port, host: config.host })))

/** The controller on a random loopback port, with an `HttpClient` aimed at it: for tests. */
export const layerTest = (plugins: ReadonlyArray<AnyPlugin>) =>
  HttpServer.layerTestClient.pipe(
    Layer.provide(NodeHttpClient.layerWithoutAgent),
    Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
    Layer.provideMerge(layer(plugins, { port: 0, host: "127.0.0.1" }))
  )

const describeListenError = (cause: unknown) => {
  const code = (cause as { code?: string } | undefined)?.code
  if (code === "EADDRINUSE") return "the port is already in use (set PORT to a free one)"
  if (code === "EACCES") return "permission denied for this port"
  if (code === "EADDRNOTAVAIL") return "the address is not available on this machine (check HOST)"
  return errorMessage(cause)
}
