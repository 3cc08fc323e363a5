/**
 * The agent's HTTP server: the key check in plain Node before anything
 * else (401 without entering Effect), then the `AgentApi` served by
 * `HttpApiBuilder`, every catalogue endpoint handled by sending its command
 * through the `CommandChannel`. Every answer other than success has the one
 * shape `{ok: false, error, ...}`: the platform's decode failures become 400
 * naming the field, an unknown path 404, a wrong method 405 with `Allow`,
 * a body that is not JSON 400, a body too large 413 (a chunked body that
 * grows past the limit has its connection closed instead: the platform
 * stops reading it).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from "node:http"
import type { Category } from "../contract/Actions.js"
import { AgentApi, type AgentAction, catalogue } from "../contract/AgentApi.js"
import { AgentInvalidInput, UNAUTHORIZED_MESSAGE } from "../contract/Errors.js"
import { type Issue, invalidInputFromIssues } from "../contract/Issues.js"
import { makeKeyCheck } from "./Auth.js"
import * as Channel from "./CommandChannel.js"
import { type AgentSettings, modRoot, StartupError } from "./Settings.js"
import { errorText } from "../errorText.js"

/** Largest request body; the Agent API's bodies are small. */
export const MAX_BODY_BYTES = 64 * 1024

const isTagged = (value: unknown, tag: string): value is { readonly _tag: string } =>
  typeof value === "object" && value !== null && "_tag" in value && value._tag === tag

const failOk = (status: number, error: string, headers?: Record<string, string>) =>
  HttpServerResponse.unsafeJson({ ok: false, error }, { status, ...(headers === undefined ? {} : { headers }) })

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

interface HandlerRequest {
  readonly path?: Readonly<Record<string, unknown>>
  readonly payload?: Readonly<Record<string, unknown>>
  readonly urlParams?: Readonly<Record<string, unknown>>
}

const handlerFor = (channel: Channel.CommandChannelService, action: AgentAction) => {
  const name = action.name
  return (request: HandlerRequest) =>
    Effect.flatMap(channel.run(name, { ...request.path, ...(request.payload ?? request.urlParams) }), (result) =>
      Effect.as(
        HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "x-command-id", result.id))),
        { ok: true as const, data: result.data }
      )
    )
}

/** The handlers of one catalogue group: each endpoint sends its action. */
const groupLayer = (category: Category) =>
  HttpApiBuilder.group(AgentApi, category, (handlers) =>
    Effect.map(Channel.CommandChannel, (channel) => {
      let built: unknown = handlers
      for (const action of catalogue) {
        if (action.group !== category) continue
        built = (built as { handle: (name: string, handler: ReturnType<typeof handlerFor>) => unknown }).handle(action.endpoint, handlerFor(channel, action))
      }
      return built as HttpApiBuilder.Handlers<never, never, never>
    })
  )

const healthLayer = (version: string) =>
  HttpApiBuilder.group(AgentApi, "health", (handlers) =>
    Effect.gen(function* () {
      const channel = yield* Channel.CommandChannel
      const clock = yield* Effect.clock
      const startedAt = clock.unsafeCurrentTimeMillis()
      return handlers.handle("health", () =>
        Effect.map(channel.liveness, (mod) => ({
          status: "ok" as const,
          version,
          uptime: Math.round(clock.unsafeCurrentTimeMillis() - startedAt) / 1000,
          queueDir: channel.queueDir,
          mod
        }))
      )
    })
  )

// ---------------------------------------------------------------------------
// Errors in the one shape
// ---------------------------------------------------------------------------

const routes = catalogue
  .map((a) => ({ method: a.method, pattern: new RegExp(`^${a.path.replace(/:[A-Za-z]+/g, "[^/]+")}$`) }))
  .concat([{ method: "GET", pattern: /^\/health$/ }])

const notFound = (request: HttpServerRequest.HttpServerRequest) => {
  const path = request.url.split("?")[0] ?? request.url
  const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))]
  return allowed.length > 0
    ? failOk(405, `Method not allowed: ${path} takes ${allowed.join(", ")}`, { allow: allowed.join(", ") })
    : failOk(404, `Not found: ${request.method} ${path}`)
}

const wholeOf = (request: HttpServerRequest.HttpServerRequest) => (request.method === "GET" ? "query" : "body")

/**
 * Rewrites what the platform answers in its own shapes: a decode failure
 * (`{_tag: "HttpApiDecodeError", issues}`) becomes `AgentInvalidInput`
 * (400, naming the field), a missing route 404/405, a body that cannot be
 * read 400 or 413.
 */
const errorShapes = HttpApiBuilder.middleware(AgentApi, (app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    app.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(MAX_BODY_BYTES)),
      Effect.catchAllCause((cause) => {
        const failure = Option.getOrUndefined(Cause.failureOption(cause)) as unknown
        const defect = Option.getOrUndefined(Cause.dieOption(cause))
        const error = failure ?? defect
        if (isTagged(error, "HttpApiDecodeError") && "issues" in error && Array.isArray(error.issues)) {
          return Effect.fail(invalidInputFromIssues(error.issues as ReadonlyArray<Issue>, wholeOf(request)))
        }
        if (isTagged(error, "RouteNotFound")) return Effect.succeed(notFound(request))
        if (isTagged(error, "RequestError")) {
          const text = String((error as { readonly cause?: unknown }).cause ?? "")
          if (/maxBytes|max.*size|too large/i.test(text)) return Effect.succeed(failOk(413, `The body is larger than ${MAX_BODY_BYTES} bytes`))
          return Effect.fail(new AgentInvalidInput({ error: `the ${wholeOf(request)} is not valid JSON`, field: wholeOf(request) }))
        }
        return Effect.failCause(cause)
      })
    )
  )
)

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

const UNAUTHORIZED = JSON.stringify({ ok: false, error: UNAUTHORIZED_MESSAGE })
const UNSUPPORTED_TYPE = JSON.stringify({ ok: false, error: "Content-Type must be application/json" })
const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i

const answer = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers })
  response.end(body)
}

export interface ListenOptions {
  readonly port: number
  readonly host: string
}

/** The HTTP app of the agent (the API, its handlers and the error shapes), needing the `CommandChannel`. */
export const httpApp = (version: string) =>
  HttpApiBuilder.httpApp.pipe(
    Effect.provide(
      HttpApiBuilder.api(AgentApi).pipe(
        Layer.provide(
          Layer.mergeAll(
            groupLayer("player"),
            groupLayer("vehicle"),
            groupLayer("world"),
            groupLayer("spawn"),
            groupLayer("structure"),
            groupLayer("item"),
            groupLayer("config"),
            groupLayer("data"),
            groupLayer("bans"),
            groupLayer("metrics"),
            groupLayer("priority"),
            healthLayer(version)
          )
        ),
        Layer.merge(HttpApiBuilder.Router.Live),
        Layer.merge(errorShapes.pipe(Layer.provideMerge(HttpApiBuilder.Middleware.layer)))
      )
    )
  )

const describeListenError = (cause: unknown) => {
  const code = (cause as { code?: string } | undefined)?.code
  if (code === "EADDRINUSE") return "the port is already in use (set AGENT_PORT to a free one)"
  if (code === "EACCES") return "permission denied for this port"
  if (code === "EADDRNOTAVAIL") return "the address is not available on this machine (check AGENT_HOST)"
  return errorText(cause)
}

/** Listens with the key check in front of the app; the port opens only once everything is built. */
const listen = (settings: AgentSettings, version: string) =>
  Layer.scoped(
    HttpServer.HttpServer,
    Effect.gen(function* () {
      const app = yield* httpApp(version)
      const handle = yield* NodeHttpServer.makeHandler(app).pipe(HttpMiddleware.withTracerDisabledWhenEffect(() => true))
      const keyMatches = makeKeyCheck(settings.key)
      const listener = (request: IncomingMessage, response: ServerResponse) => {
        if (!keyMatches(request.headers.authorization)) return answer(response, 401, UNAUTHORIZED, { "www-authenticate": "Bearer" })
        const declared = Number(request.headers["content-length"] ?? "0")
        if (declared > MAX_BODY_BYTES) {
          return answer(response, 413, JSON.stringify({ ok: false, error: `The body is larger than ${MAX_BODY_BYTES} bytes` }), { connection: "close" })
        }
        const type = request.headers["content-type"]
        if (request.method !== "GET" && request.method !== "HEAD") {
          // A body sent without a type is taken as JSON; a body of another type is refused.
          if (type === undefined) request.headers["content-type"] = "application/json"
          else if (!JSON_TYPE.test(type) && (declared > 0 || request.headers["transfer-encoding"] !== undefined)) {
            return answer(response, 415, UNSUPPORTED_TYPE)
          }
        }
        handle(request, response)
      }
      let nodeServer: NodeServer | undefined
      const server = yield* NodeHttpServer.make(() => (nodeServer = createServer(listener)), { port: settings.port, host: settings.host }).pipe(
        Effect.mapError((error) => new StartupError({ message: `cannot listen on ${settings.host}:${settings.port}: ${describeListenError(error.cause)}` }))
      )
      // Stopping (runs before the port closes): waiting commands are answered 503 and withdrawn, then the
      // connections close, so a stop never waits for a mod that does not answer.
      const channel = yield* Channel.CommandChannel
      yield* Effect.addFinalizer(() =>
        Effect.gen(function* () {
          const answered = yield* channel.stop
          // Give those answers a moment to go out before the connections close.
          if (answered > 0) yield* Effect.sleep("100 millis")
          nodeServer?.closeAllConnections()
        })
      )
      const address = server.address
      const where = address._tag === "TcpAddress" ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}` : "?"
      yield* Effect.logInfo(`garrison-agent ${version} listening on ${where}; commands in ${modRoot(settings)}`)
      if (settings.key === undefined) yield* Effect.logWarning("no SIDECAR_API_KEY: every request is accepted, on loopback only (development)")
      return server
    })
  )

/** The whole agent for its settings: the command channel and the server. */
export const layer = (settings: AgentSettings, version: string) =>
  listen(settings, version).pipe(
    Layer.provide(
      Channel.layer({
        root: modRoot(settings),
        commandSuffix: settings.commandSuffix,
        responseSuffix: settings.responseSuffix,
        timeoutMs: settings.commandTimeoutMs,
        pollIntervalMs: settings.pollIntervalMs,
        maxPending: settings.maxPending,
        modStaleAfterMs: settings.modStaleAfterMs,
        heartbeatFile: settings.heartbeatFile
      })
    ),
    Layer.provide(NodeHttpServer.layerContext)
  )
