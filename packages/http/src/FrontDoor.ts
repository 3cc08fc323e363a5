/**
 * Everything that happens to a request before a plugin's handler sees it,
 * in one place so no plugin can skip it: request id, rate limits, route
 * lookup, body size and type, authentication and the endpoint's declared
 * access, then error shaping and request logging on the way out.
 */
import { HttpIncomingMessage, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import {
  type AccessRule,
  type AuthenticatorShape,
  currentPrincipalRef,
  principalCan,
  type RouteEntry
} from "@garrison/runtime"
import { Cause, Clock, Effect, Option, type Scope } from "effect"
import * as FindMyWay from "find-my-way-ts"
import { randomUUID } from "node:crypto"
import { clientIp } from "./ClientIp.js"
import { errorResponse, normalizeErrorBody } from "./ErrorResponses.js"
import { ruleFor, SlidingWindowLimiter } from "./RateLimiter.js"

export interface FrontDoorOptions {
  readonly routes: ReadonlyArray<RouteEntry>
  readonly bodyLimitBytes: number
  readonly trustProxyHops: number
  readonly authenticator: AuthenticatorShape
  readonly limiter?: SlidingWindowLimiter
}

type App = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest | Scope.Scope>

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

export const makeFrontDoor = (options: FrontDoorOptions) => {
  const table = FindMyWay.make<RouteEntry>({ ignoreTrailingSlash: true })
  for (const route of options.routes) table.on(route.method, route.path as FindMyWay.PathInput, route)
  const limiter = options.limiter ?? new SlidingWindowLimiter()

  return (app: App): App =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const incomingId = request.headers["x-request-id"]
      const requestId = incomingId !== undefined && REQUEST_ID.test(incomingId) ? incomingId : randomUUID()
      const queryAt = request.url.indexOf("?")
      const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt)
      const ip = clientIp(request, options.trustProxyHops)
      const found = table.find(request.method, request.url) ?? (request.method === "HEAD" ? table.find("GET", request.url) : undefined)
      const route = found?.handler

      const handled = Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const rule = ruleFor(path)
        if (rule) {
          const decision = limiter.hit(rule, ip, now)
          if (!decision.allowed) {
            return Effect.succeed(
              errorResponse("rate-limited", `too many requests; retry in ${decision.retryAfterSeconds} s`, {
                headers: { "retry-after": String(decision.retryAfterSeconds) }
              })
            )
          }
        }
        if (route === undefined) {
          return Effect.succeed(errorResponse("not-found", `no route for ${request.method} ${path}`))
        }
        return checkBody(request, options.bodyLimitBytes).pipe(
          Effect.flatMap((rejected) =>
            rejected !== undefined ? Effect.succeed(rejected) : authorize(route.access, request, path, ip, options.authenticator, app)
          )
        )
      })

      return handled.pipe(
        Effect.catchAllCause((cause) =>
          Cause.isFailType(cause) && cause.error instanceof HttpServerError.RouteNotFound
            ? Effect.succeed(errorResponse("not-found", `no route for ${request.method} ${path}`))
            : Effect.as(
                Effect.logError("request failed", Cause.pretty(cause)),
                errorResponse("internal", `internal error; quote request id ${requestId}`)
              )
        ),
        Effect.map((response) => HttpServerResponse.setHeader(normalizeErrorBody(response), "x-request-id", requestId)),
        route?.quiet === true ? (self) => self : logRequest(request.method, path, requestId),
        Effect.annotateLogs({ requestId })
      )
    })
}

/** 413 and 415 before anything reads the body, 400 for a body that is not JSON. */
const checkBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<HttpServerResponse.HttpServerResponse | undefined> => {
  if (!BODY_METHODS.has(request.method)) return Effect.succeed(undefined)
  const length = request.headers["content-length"]
  const chunked = request.headers["transfer-encoding"] !== undefined
  if (length !== undefined && Number(length) > limit) return Effect.succeed(tooLarge(limit))
  if (!chunked && (length === undefined || Number(length) === 0)) return Effect.succeed(undefined)
  const type = request.headers["content-type"] ?? ""
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    return Effect.succeed(
      errorResponse("unsupported-media-type", `request bodies must be JSON (Content-Type: application/json), got "${type || "none"}"`)
    )
  }
  return request.text.pipe(
    HttpIncomingMessage.withMaxBodySize(Option.some(limit)),
    Effect.map((text) => {
      if (text.length === 0) return undefined
      try {
        JSON.parse(text)
        return undefined
      } catch (error) {
        return errorResponse("invalid-json", `the request body is not valid JSON: ${(error as Error).message}`)
      }
    }),
    // A read fails when the body outgrows the limit (or the client went away).
    Effect.catchAll(() => Effect.succeed(tooLarge(limit)))
  )
}

const tooLarge = (limit: number) => errorResponse("payload-too-large", `request bodies are limited to ${limit} bytes`)

const authorize = (
  access: AccessRule,
  request: HttpServerRequest.HttpServerRequest,
  path: string,
  ip: string,
  authenticator: AuthenticatorShape,
  app: App
): App => {
  if (access._tag === "None") return app
  return authenticator.authenticate(request, { path, method: request.method, clientIp: ip }).pipe(
    Effect.matchEffect({
      onFailure: (failure) =>
        Effect.succeed(
          HttpServerResponse.unsafeJson(
            { error: failure.code, message: failure.message },
            {
              status: failure.status,
              headers: failure.retryAfterSeconds !== undefined ? { "retry-after": String(failure.retryAfterSeconds) } : undefined
            }
          )
        ),
      onSuccess: Option.match({
        onNone: () => Effect.succeed(errorResponse("unauthenticated", "sign in first: this endpoint needs an authenticated caller")),
        onSome: (principal) =>
          access._tag === "Permission" && !principalCan(principal, access.permission)
            ? Effect.succeed(
                errorResponse("forbidden", `missing permission "${access.permission}"`, {
                  details: { permission: access.permission, role: principal.role }
                })
              )
            : Effect.locally(app, currentPrincipalRef, Option.some(principal))
      })
    })
  )
}

const logRequest =
  (method: string, path: string, requestId: string) =>
  <E, R>(self: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.flatMap(Clock.currentTimeMillis, (start) =>
      Effect.tap(self, (response) =>
        Effect.flatMap(Clock.currentTimeMillis, (end) =>
          Effect.logInfo(`${method} ${path} ${response.status} ${end - start}ms`).pipe(Effect.annotateLogs({ requestId }))
        )
      )
    )
