/**
 * The first stage of every request, in plain functions over Node's request
 * and response: request id, security headers, one canonical request target
 * (refused with 400 when it has none), route lookup (404 for a path no
 * route has, 405 with `Allow` for a path that has routes for other
 * methods), the rate limit of the matched route, the declared size of the
 * body, and constant responses (liveness pings). It runs before any fiber exists, so a flood of rejected
 * or trivial requests costs little. What passes goes on to the Effect stage
 * (`FrontDoor`) with `request.url` canonical and its verdict attached.
 */
import type { RouteEntry } from "@garrison/runtime"
import * as FindMyWay from "find-my-way-ts"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { canonicalTarget, pathOf, TargetRefused } from "./CanonicalTarget.js"
import { socketClientIp } from "./ClientIp.js"
import type { ErrorCode } from "@garrison/runtime"
import { errorStatus } from "@garrison/runtime"
import { DEFAULT_RATE_LIMIT } from "@garrison/runtime"
import { type RateLimitRule, SlidingWindowLimiter } from "./RateLimiter.js"
import { apiCacheControl, gateAnswerHeaders, setSecurityHeaders } from "./SecurityHeaders.js"
import { isApiPath as underApi, type StaticHandler } from "./dashboard/StaticFiles.js"

export interface GateVerdict {
  readonly requestId: string
  readonly ip: string
  /** The canonical path (no query); `request.url` is the canonical target. */
  readonly path: string
  readonly route: RouteEntry
  /** The server the route is about (its `serverParam`), when it is about one. */
  readonly serverId?: string
}

export interface GateOptions {
  readonly routes: ReadonlyArray<RouteEntry>
  /** Each rate-limit scope's rule (`null`: exempt), from `resolveRateLimits`. */
  readonly rateLimits: ReadonlyMap<string, RateLimitRule | null>
  readonly trustProxyHops: number
  readonly bodyLimitBytes: number
  /** Milliseconds since epoch; from the Effect `Clock`, so tests can drive it. */
  readonly now: () => number
  readonly limiter?: SlidingWindowLimiter
  /**
   * Answers what no route claims outside `/api` (the web dashboard's
   * files and client routes); without it, those are 404 like the rest.
   */
  readonly statics?: StaticHandler
}

/** A route with what the gate decides for it, worked out once when the gate is made. */
interface GateRoute {
  readonly route: RouteEntry
  readonly rule: RateLimitRule | null
  readonly noStore: boolean
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** Returns the verdict to pass on, or `undefined` when the gate answered itself. */
export const makeGate = (options: GateOptions) => {
  // The same router settings as HttpLayerRouter's, so both match the same route for a canonical target.
  const table = FindMyWay.make<GateRoute>({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: false })
  const ruleOf = (scope: string): RateLimitRule | null => {
    const rule = options.rateLimits.get(scope)
    // The plan refuses routes of undeclared scopes; a gate made without the scope is a programming error.
    if (rule === undefined) throw new Error(`rate-limit scope "${scope}" has no rule`)
    return rule
  }
  for (const route of options.routes) {
    const gateRoute: GateRoute = { route, rule: ruleOf(route.rateLimit), noStore: isApiPath(route.path) }
    table.on(route.method, route.path as FindMyWay.PathInput, gateRoute)
  }
  // 404 probing counts too: a request no route matches counts against the default scope.
  const unroutedRule = ruleOf(DEFAULT_RATE_LIMIT)
  const limiter = options.limiter ?? new SlidingWindowLimiter()
  const statics = options.statics
  const methods = [...new Set(options.routes.map((route) => route.method.toUpperCase()))]

  /** For a path without a route for `method`: the methods it has (HEAD wherever GET is), and one of their routes. */
  const otherMethods = (method: string, url: string) => {
    let route: GateRoute | undefined
    const allow: Array<string> = []
    for (const candidate of methods) {
      if (candidate === method) continue
      const found = table.find(candidate, url)
      if (found === undefined) continue
      route ??= found.handler
      allow.push(candidate)
      if (candidate === "GET" && method !== "HEAD") allow.push("HEAD")
    }
    return route === undefined ? undefined : { route, allow: allow.sort() }
  }

  return (request: IncomingMessage, response: ServerResponse): GateVerdict | undefined => {
    const incomingId = request.headers["x-request-id"]
    const requestId = typeof incomingId === "string" && REQUEST_ID.test(incomingId) ? incomingId : randomUUID()

    const raw = request.url ?? "/"
    const url = canonicalTarget(raw)
    if (url instanceof TargetRefused) {
      writeError(response, requestId, "invalid-request", `invalid request target: ${url.reason}`)
      return undefined
    }
    // Everything after the gate (routers, front door, audit, request log) sees one spelling.
    if (url !== raw) request.url = url
    const path = pathOf(url)
    const method = request.method ?? "GET"
    const ip = socketClientIp(request.socket.remoteAddress, request.headers["x-forwarded-for"], options.trustProxyHops)

    const found = table.find(method, url) ?? (method === "HEAD" ? table.find("GET", url) : undefined)
    const other = found === undefined ? otherMethods(method, url) : undefined
    // The dashboard: only for what no route claims and is not under /api, so a routed request never pays for it.
    // Not rate-limited: answered from memory, and a page load is a burst of a few files.
    if (found === undefined && other === undefined && statics !== undefined && !underApi(path)) {
      statics(request, response, path, requestId)
      return undefined
    }
    // The scope is the matched route's (a 405's: the path's other route); a request no route matches counts by its path.
    const rule = found !== undefined ? found.handler.rule : other !== undefined ? other.route.rule : unroutedRule
    if (rule) {
      const decision = limiter.hit(rule, ip, options.now())
      if (!decision.allowed) {
        writeError(response, requestId, "rate-limited", `too many requests; retry in ${decision.retryAfterSeconds} s`, {
          "retry-after": String(decision.retryAfterSeconds)
        })
        return undefined
      }
    }

    if (found === undefined) {
      if (other !== undefined) {
        const allow = other.allow.join(", ")
        writeError(response, requestId, "method-not-allowed", `${method} is not allowed on ${shown(path)}; it takes ${allow}`, { allow })
      } else {
        writeError(response, requestId, "not-found", `no route for ${method} ${shown(path)}`)
      }
      return undefined
    }
    const { route, noStore } = found.handler
    const serverId = route.serverParam === undefined ? undefined : found.params[route.serverParam]
    if (route.constant !== undefined) {
      writeJson(response, requestId, route.constant.status, route.constant.json)
      return undefined
    }
    const length = request.headers["content-length"]
    if (length !== undefined && Number(length) > options.bodyLimitBytes) {
      writeError(response, requestId, "payload-too-large", `request bodies are limited to ${options.bodyLimitBytes} bytes`)
      // Do not read the body we refused; close instead of keeping the connection.
      response.shouldKeepAlive = false
      return undefined
    }
    // Set now, written with the handler's answer: Node lets the handler's own headers win.
    setSecurityHeaders(response)
    response.setHeader("x-request-id", requestId)
    if (noStore) response.setHeader("cache-control", apiCacheControl)
    return serverId === undefined ? { requestId, ip, path, route } : { requestId, ip, path, route, serverId }
  }
}

/**
 * The gate's own answers: JSON, never cached, every header in one
 * `writeHead` (Node validates headers passed there once; `setHeader`
 * first would validate them twice).
 */
const writeJson = (response: ServerResponse, requestId: string, status: number, json: string, extra?: Record<string, string>) => {
  const headers = gateAnswerHeaders(requestId, Buffer.byteLength(json))
  if (extra !== undefined) Object.assign(headers, extra)
  response.writeHead(status, headers)
  response.end(json)
}

const writeError = (response: ServerResponse, requestId: string, code: ErrorCode, message: string, extra?: Record<string, string>) =>
  writeJson(response, requestId, errorStatus[code], JSON.stringify({ error: code, message }), extra)

/** Whether a route path is `/api` or below it (answers there are never cached). */
const isApiPath = (path: string) => /^\/api(\/|$)/i.test(path)

/** A path as an error message quotes it: at most 200 characters, so a 16 KiB probe is not echoed back. */
const shown = (path: string) => (path.length <= 200 ? path : `${path.slice(0, 200)}… (${path.length} characters)`)
