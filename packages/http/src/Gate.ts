/**
 * The first stage of every request, in plain functions over Node's request
 * and response: request id, client IP, rate limits, route lookup, the
 * declared size of the body, and constant responses (liveness pings). It
 * runs before any fiber exists, so a flood of rejected or trivial requests
 * costs little. What passes goes on to the Effect stage (`FrontDoor`) with
 * its verdict attached.
 */
import type { RouteEntry } from "@garrison/runtime"
import * as FindMyWay from "find-my-way-ts"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { socketClientIp } from "./ClientIp.js"
import type { ErrorCode } from "@garrison/runtime"
import { errorStatus } from "@garrison/runtime"
import { ruleFor, SlidingWindowLimiter } from "./RateLimiter.js"

export interface GateVerdict {
  readonly requestId: string
  readonly ip: string
  readonly path: string
  readonly route: RouteEntry
}

export interface GateOptions {
  readonly routes: ReadonlyArray<RouteEntry>
  readonly trustProxyHops: number
  readonly bodyLimitBytes: number
  /** Milliseconds since epoch; from the Effect `Clock`, so tests can drive it. */
  readonly now: () => number
  readonly limiter?: SlidingWindowLimiter
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** Returns the verdict to pass on, or `undefined` when the gate answered itself. */
export const makeGate = (options: GateOptions) => {
  const table = FindMyWay.make<RouteEntry>({ ignoreTrailingSlash: true })
  for (const route of options.routes) table.on(route.method, route.path as FindMyWay.PathInput, route)
  const limiter = options.limiter ?? new SlidingWindowLimiter()

  return (request: IncomingMessage, response: ServerResponse): GateVerdict | undefined => {
    const incomingId = request.headers["x-request-id"]
    const requestId = typeof incomingId === "string" && REQUEST_ID.test(incomingId) ? incomingId : randomUUID()
    response.setHeader("x-request-id", requestId)

    const url = request.url ?? "/"
    const method = request.method ?? "GET"
    const queryAt = url.indexOf("?")
    const path = queryAt === -1 ? url : url.slice(0, queryAt)
    const ip = socketClientIp(request.socket.remoteAddress, request.headers["x-forwarded-for"], options.trustProxyHops)

    const rule = ruleFor(path)
    if (rule) {
      const decision = limiter.hit(rule, ip, options.now())
      if (!decision.allowed) {
        writeError(response, "rate-limited", `too many requests; retry in ${decision.retryAfterSeconds} s`, {
          "retry-after": String(decision.retryAfterSeconds)
        })
        return undefined
      }
    }

    const found = table.find(method, url) ?? (method === "HEAD" ? table.find("GET", url) : undefined)
    if (found === undefined) {
      writeError(response, "not-found", `no route for ${method} ${path}`)
      return undefined
    }
    const route = found.handler
    if (route.constant !== undefined) {
      writeJson(response, route.constant.status, route.constant.json)
      return undefined
    }
    const length = request.headers["content-length"]
    if (length !== undefined && Number(length) > options.bodyLimitBytes) {
      writeError(response, "payload-too-large", `request bodies are limited to ${options.bodyLimitBytes} bytes`)
      // Do not read the body we refused; close instead of keeping the connection.
      response.shouldKeepAlive = false
      return undefined
    }
    return { requestId, ip, path, route }
  }
}

const writeJson = (response: ServerResponse, status: number, json: string, headers?: Record<string, string>) => {
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json)
  })
  response.end(json)
}

const writeError = (response: ServerResponse, code: ErrorCode, message: string, headers?: Record<string, string>) =>
  writeJson(response, errorStatus[code], JSON.stringify({ error: code, message }), headers)
