/**
 * The second stage of a request that passed the gate, now in Effect: body
 * type and size, authentication and the endpoint's declared access, then
 * the plugin's handler, with errors written in the one shape and the request
 * logged on the way out. No plugin can skip any of it.
 */
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import {
  type AccessRule,
  type AuditTrailShape,
  type AuthenticatorShape,
  currentPrincipalRef,
  currentRequestRef,
  principalCan
} from "@garrison/runtime"
import type { IncomingMessage } from "node:http"
import { errorResponse, normalizeErrorBody } from "./ErrorResponses.js"
import type { GateVerdict } from "./Gate.js"

export interface FrontDoorOptions {
  readonly bodyLimitBytes: number
  readonly authenticator: AuthenticatorShape
  readonly audit: AuditTrailShape
  /** Where the gate left its verdict for each request. */
  readonly verdicts: WeakMap<IncomingMessage, GateVerdict>
}

type App = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest | Scope.Scope>

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

export const makeFrontDoor = (options: FrontDoorOptions) => (app: App): App =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const verdict = options.verdicts.get(NodeHttpServerRequest.toIncomingMessage(request))
    if (verdict === undefined) {
      return Effect.succeed(errorResponse("internal", "request reached the handler without passing the gate"))
    }
    const { requestId, path, route } = verdict

    const handled = checkBody(request, options.bodyLimitBytes).pipe(
      Effect.flatMap((body) => {
        if (body._tag === "Rejected") return Effect.succeed(body.response)
        const next = body._tag === "Parsed" ? withParsedJson(request, body.value) : request
        return authorize(route.access, next, verdict, options, Effect.provideService(app, HttpServerRequest.HttpServerRequest, next))
      }),
      Effect.catchAllCause((cause) =>
        Cause.isFailType(cause) && cause.error instanceof HttpServerError.RouteNotFound
          ? Effect.succeed(errorResponse("not-found", `no route for ${request.method} ${path}`))
          : Effect.as(
              Effect.logError("request failed", Cause.pretty(cause)),
              errorResponse("internal", `internal error; quote request id ${requestId}`)
            )
      ),
      Effect.map(normalizeErrorBody),
      Effect.locally(currentRequestRef, Option.some({ requestId, clientIp: verdict.ip }))
    )
    return route.quiet ? handled : logRequest(handled, request.method, path, requestId)
  })

type BodyCheck =
  | { readonly _tag: "None" }
  | { readonly _tag: "Parsed"; readonly value: unknown }
  | { readonly _tag: "Rejected"; readonly response: HttpServerResponse.HttpServerResponse }

const noBody: BodyCheck = { _tag: "None" }
const rejected = (response: HttpServerResponse.HttpServerResponse): BodyCheck => ({ _tag: "Rejected", response })

/** 415 for a body that is not JSON, 413 past the limit, 400 for malformed JSON; else the parsed body. */
const checkBody = (request: HttpServerRequest.HttpServerRequest, limit: number): Effect.Effect<BodyCheck> => {
  if (!BODY_METHODS.has(request.method)) return Effect.succeed(noBody)
  const length = request.headers["content-length"]
  const chunked = request.headers["transfer-encoding"] !== undefined
  if (!chunked && (length === undefined || Number(length) === 0)) return Effect.succeed(noBody)
  const type = request.headers["content-type"] ?? ""
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    return Effect.succeed(
      rejected(
        errorResponse("unsupported-media-type", `request bodies must be JSON (Content-Type: application/json), got "${type || "none"}"`)
      )
    )
  }
  return request.text.pipe(
    HttpIncomingMessage.withMaxBodySize(Option.some(limit)),
    Effect.map((text): BodyCheck => {
      if (text.length === 0) return noBody
      try {
        return { _tag: "Parsed", value: JSON.parse(text) }
      } catch (error) {
        return rejected(errorResponse("invalid-json", `the request body is not valid JSON: ${(error as Error).message}`))
      }
    }),
    // Reading fails when a chunked body outgrows the limit (or the client went away).
    Effect.catchAll(() => Effect.succeed(rejected(errorResponse("payload-too-large", `request bodies are limited to ${limit} bytes`))))
  )
}

/**
 * The request, answering `json` with the body parsed above: the platform would
 * otherwise parse the text again for the handler's payload (150 ms for a 20 MB
 * ban import). Everything else is the original request, through its prototype.
 * If a router rebuilds the request (`modify`, for mounted prefixes), the copy
 * simply parses again.
 */
const withParsedJson = (request: HttpServerRequest.HttpServerRequest, value: unknown): HttpServerRequest.HttpServerRequest =>
  Object.create(request, { json: { value: Effect.succeed(value) } }) as HttpServerRequest.HttpServerRequest

const authorize = (
  access: AccessRule,
  request: HttpServerRequest.HttpServerRequest,
  verdict: GateVerdict,
  options: FrontDoorOptions,
  app: App
): App => {
  if (access._tag === "None") return audited(app, request, verdict, null, options.audit)
  return options.authenticator.authenticate(request, { path: verdict.path, method: request.method, clientIp: verdict.ip }).pipe(
    Effect.matchEffect({
      onFailure: (failure) =>
        Effect.succeed(
          errorResponse(failure.code, failure.message, {
            status: failure.status,
            headers: failure.retryAfterSeconds !== undefined ? { "retry-after": String(failure.retryAfterSeconds) } : undefined
          })
        ),
      onSuccess: Option.match({
        onNone: () => Effect.succeed(errorResponse("unauthenticated", "sign in first: this endpoint needs an authenticated caller")),
        onSome: (principal) =>
          access._tag === "Permission" && !principalCan(principal, access.permission)
            ? Effect.as(
                options.audit.record({
                  actor: principal.id,
                  ip: verdict.ip,
                  action: "access.denied",
                  target: `${request.method} ${verdict.path}`,
                  result: "denied",
                  details: { permission: access.permission, role: principal.role, requestId: verdict.requestId }
                }),
                errorResponse("forbidden", `missing permission "${access.permission}"`, {
                  details: { permission: access.permission, role: principal.role }
                })
              )
            : audited(Effect.locally(app, currentPrincipalRef, Option.some(principal)), request, verdict, principal.id, options.audit)
      })
    })
  )
}

/** Every mutating request leaves an audit row (never its body: it may hold secrets). */
const audited = (
  app: App,
  request: HttpServerRequest.HttpServerRequest,
  verdict: GateVerdict,
  actor: string | null,
  audit: AuditTrailShape
): App =>
{
  if (!BODY_METHODS.has(request.method)) return app
  const record = (status: number) =>
    audit.record({
      actor,
      ip: verdict.ip,
      action: `http.${request.method} ${verdict.route.path}`,
      target: verdict.path,
      result: status < 400 ? "success" : "failure",
      details: { status, requestId: verdict.requestId }
    })
  return app.pipe(
    Effect.tap((response) => record(response.status)),
    // A handler fault becomes a 500 further out; it is still a request that happened.
    Effect.tapErrorCause(() => record(500))
  )
}

const logRequest = <E, R>(
  self: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  method: string,
  path: string,
  requestId: string
) =>
  Effect.flatMap(Clock.currentTimeMillis, (start) =>
    Effect.tap(self, (response) =>
      Effect.flatMap(Clock.currentTimeMillis, (end) => Effect.logInfo(`${method} ${path} ${response.status} ${end - start}ms`))
    )
  ).pipe(Effect.annotateLogs({ requestId }))
