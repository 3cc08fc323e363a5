/**
 * The second stage of a request that passed the gate, now in Effect: the
 * body (type, size, UTF-8, JSON, depth, well-formed strings), authentication
 * and the endpoint's declared access, the license of a route that names a
 * licensed feature (402), then the plugin's handler, with
 * errors written in the one shape and the request logged on the way out
 * (or its abort, when the client hung up). No plugin can skip any of it.
 */
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as HashSet from "effect/HashSet"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import {
  allows,
  type AuditTrailShape,
  type AuthenticationFailed,
  type AuthenticatorsShape,
  canSeeServer,
  currentPrincipalRef,
  isReadMethod,
  type LicenseGateShape,
  type LicenseRefusal,
  currentRequestRef,
  missingPermissions,
  requestAuditsRef,
  needsCaller,
  type Principal,
  type RequestLoadShape,
  type RouteEntry,
  type SchemeAuthenticator,
  type TelemetryShape
} from "@garrison/runtime"
import type { IncomingMessage } from "node:http"
import { parseJsonBody } from "./body/JsonBody.js"
import { readBodyBytes } from "./body/readBody.js"
import { errorResponse, normalizeErrorBody } from "./ErrorResponses.js"
import { withETag } from "./ETags.js"
import type { GateVerdict } from "./Gate.js"

export interface FrontDoorOptions {
  readonly bodyLimitBytes: number
  /** The authenticators of the loaded plugins, by scheme; each route asks those it accepts. */
  readonly authenticators: AuthenticatorsShape
  readonly audit: AuditTrailShape
  /** Asked before the handler of a route that names a licensed feature; allows everything when left out. */
  readonly license?: LicenseGateShape
  /** Counts the requests being answered, for background work that gives way to them; not counted when left out. */
  readonly load?: RequestLoadShape
  /** Told of every request answered here (method, route template, status, duration); nothing told when left out. */
  readonly telemetry?: TelemetryShape
  /** Where the gate left its verdict for each request. */
  readonly verdicts: WeakMap<IncomingMessage, GateVerdict>
  /** The code each error class answers with (the plan's `errorCodes`); the table's when left out. */
  readonly errorCodes?: ReadonlyMap<string, string>
}

type App = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest | Scope.Scope>

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

/**
 * What a request the client abandoned "answers": nobody reads it (499 is
 * the usual code for it, as in the platform and nginx), and it tells the
 * request log to write an abort instead of a status.
 */
const clientGone = HttpServerResponse.empty({ status: 499 })

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
        if (body._tag === "Aborted") return Effect.succeed(clientGone)
        if (body._tag === "None") return authorize(route, request, verdict, options, app)
        // Providing a service copies the fiber's whole context: only done when the request changed.
        const next = withParsedBody(request, body)
        return authorize(route, next, verdict, options, Effect.provideService(app, HttpServerRequest.HttpServerRequest, next))
      }),
      Effect.catchAllCause((cause) =>
        isClientAbort(cause)
          ? Effect.succeed(clientGone)
          : Cause.isFailType(cause) && cause.error instanceof HttpServerError.RouteNotFound
            ? Effect.succeed(errorResponse("not-found", `no route for ${request.method} ${path}`))
            : Effect.as(
                Effect.logError("request failed", Cause.pretty(cause)),
                errorResponse("internal", `internal error; quote request id ${requestId}`)
              )
      ),
      Effect.map((response) => (response === clientGone ? response : normalizeErrorBody(response, options.errorCodes))),
      // Pollers save the body while nothing changed (see ETags).
      Effect.map((response) => (request.method === "GET" ? withETag(response, headerOf(request, "if-none-match")) : response)),
      Effect.locally(currentRequestRef, Option.some({ requestId, clientIp: verdict.ip }))
    )
    const logged = logRequest(handled, request.method, path, requestId, route, options.telemetry)
    return options.load === undefined ? logged : options.load.track(logged)
  })

/**
 * The platform interrupts a request's fiber with this id when the client
 * closes the connection before the response is written; the handler (the
 * only interruptible part) then fails with that interruption alone.
 */
const isClientAbort = (cause: Cause.Cause<unknown>) =>
  Cause.isInterruptedOnly(cause) && HashSet.has(Cause.interruptors(cause), HttpServerError.clientAbortFiberId)

type BodyCheck =
  | { readonly _tag: "None" }
  | { readonly _tag: "Parsed"; readonly value: unknown; readonly text: string }
  | { readonly _tag: "Rejected"; readonly response: HttpServerResponse.HttpServerResponse }
  | { readonly _tag: "Aborted" }

const noBody: BodyCheck = { _tag: "None" }
const aborted: BodyCheck = { _tag: "Aborted" }
const rejected = (response: HttpServerResponse.HttpServerResponse): BodyCheck => ({ _tag: "Rejected", response })

/**
 * 415 for a body that is not JSON, 413 past the limit, 400 for bytes that
 * are not UTF-8, text that is not JSON, nesting past the bound or strings
 * that are not well-formed Unicode (see `body/JsonBody.ts`); else the
 * parsed body. A client that leaves while its body is read is `Aborted`.
 */
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
  return readBodyBytes(NodeHttpServerRequest.toIncomingMessage(request), limit).pipe(
    Effect.map((bytes): BodyCheck => {
      const body = parseJsonBody(bytes)
      switch (body._tag) {
        case "Empty":
          return noBody
        case "Parsed":
          // The bytes are not kept: 20 MB of buffer alive through the handler only adds garbage-collection work.
          return { _tag: "Parsed", value: body.value, text: body.text }
        case "Invalid":
          return rejected(errorResponse("invalid-json", body.message, body.details === undefined ? {} : { details: body.details }))
      }
    }),
    Effect.catchTags({
      BodyAborted: () => Effect.succeed(aborted),
      BodyTooLarge: () =>
        Effect.sync(() => {
          // The rest of the body stays unread: close the connection after the answer.
          NodeHttpServerRequest.toServerResponse(request).shouldKeepAlive = false
          return rejected(errorResponse("payload-too-large", `request bodies are limited to ${limit} bytes`))
        })
    })
  )
}

/**
 * The request, answering `json`, `text` and `arrayBuffer` from the body
 * read and checked above: the stream is consumed, and the platform would
 * otherwise parse the text again for the handler's payload (150 ms for a
 * 20 MB ban import). Everything else is the original request, through its
 * prototype; a copy made with `modify` (mounted prefixes) answers the same.
 */
const withParsedBody = (
  request: HttpServerRequest.HttpServerRequest,
  body: { readonly value: unknown; readonly text: string }
): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    json: { value: Effect.succeed(body.value) },
    text: { value: Effect.succeed(body.text) },
    // Rarely asked for (bodies are JSON): encoded again from the checked text (a leading BOM is gone).
    arrayBuffer: { value: Effect.sync(() => new TextEncoder().encode(body.text).buffer) },
    modify: { value: (options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]) => withParsedBody(request.modify(options), body) }
  }) as HttpServerRequest.HttpServerRequest

/**
 * The caller, from the first of the route's schemes whose credentials the
 * request carries and that recognizes them (a scheme whose credentials are
 * absent is not asked). A scheme that finds bad credentials answers for the
 * request: its failure is the response.
 */
const callerOf = (
  accepted: ReadonlyArray<SchemeAuthenticator>,
  request: HttpServerRequest.HttpServerRequest,
  context: Parameters<SchemeAuthenticator["authenticate"]>[1]
): Effect.Effect<Option.Option<Principal>, AuthenticationFailed> => {
  const from = (index: number): Effect.Effect<Option.Option<Principal>, AuthenticationFailed> => {
    const authenticator = accepted[index]
    if (authenticator === undefined) return Effect.succeed(Option.none())
    if (!authenticator.carries(request)) return from(index + 1)
    return Effect.flatMap(authenticator.authenticate(request, context), (caller) => (Option.isSome(caller) ? Effect.succeed(caller) : from(index + 1)))
  }
  return from(0)
}

const authorize = (
  route: RouteEntry,
  request: HttpServerRequest.HttpServerRequest,
  verdict: GateVerdict,
  options: FrontDoorOptions,
  app: App
): App => {
  if (!needsCaller(route.access)) return audited(licensed(route, request, options, app), request, verdict, null, null, options.audit)
  const accepted = route.schemes.flatMap((scheme) => {
    const authenticator = options.authenticators.get(scheme)
    return authenticator === undefined ? [] : [authenticator]
  })
  const context = {
    path: verdict.path,
    method: request.method,
    clientIp: verdict.ip,
    csrfExempt: route.csrfExempt,
    duringPasswordChange: route.duringPasswordChange
  }
  return callerOf(accepted, request, context).pipe(
    Effect.matchEffect({
      onFailure: (failure) =>
        Effect.succeed(
          errorResponse(failure.code, failure.message, {
            status: failure.status,
            headers: failure.retryAfterSeconds !== undefined ? { "retry-after": String(failure.retryAfterSeconds) } : undefined
          })
        ),
      onSuccess: Option.match({
        onNone: () => Effect.succeed(noCaller(route, request, options)),
        onSome: (principal) => permitted(route, principal, request, verdict, options, app)
      })
    })
  )
}

/** 401: credentials of a scheme the route does not take are named, so the client learns its mistake. */
const noCaller = (route: RouteEntry, request: HttpServerRequest.HttpServerRequest, options: FrontDoorOptions) => {
  const foreign = options.authenticators.all
    .filter(([scheme, authenticator]) => !route.schemes.includes(scheme) && authenticator.carries(request))
    .map(([scheme]) => scheme)
  return foreign.length === 0
    ? errorResponse("unauthenticated", "sign in first: this endpoint needs an authenticated caller")
    : errorResponse(
        "unauthenticated",
        `this endpoint does not accept ${foreign.join(" or ")} credentials; it accepts ${route.schemes.join(" or ")}`,
        { details: { sent: foreign, accepted: route.schemes } }
      )
}

/**
 * The caller's role against the route's rule, on the server the route is
 * about: a caller whose grants are all scoped to other servers gets 403
 * before anything about this one (its name, that it exists) is read.
 */
const permitted = (
  route: RouteEntry,
  principal: Principal,
  request: HttpServerRequest.HttpServerRequest,
  verdict: GateVerdict,
  options: FrontDoorOptions,
  app: App
): App => {
  const serverId = verdict.serverId
  const deny = (message: string, details: Record<string, unknown>) =>
    Effect.as(
      options.audit.record({
        actor: principal.id,
        actorName: principal.name,
        ip: verdict.ip,
        action: "access.denied",
        target: `${request.method} ${verdict.path}`,
        result: "denied",
        details: { ...details, role: principal.role, requestId: verdict.requestId }
      }),
      errorResponse("forbidden", message, { details: { ...details, role: principal.role } })
    )
  if (serverId !== undefined && !canSeeServer(principal, serverId)) {
    return deny(`your role "${principal.role}" has no access to server ${serverId}`, { serverId })
  }
  if (!allows(route.access, principal, serverId)) {
    const missing = missingPermissions(route.access, principal, serverId)
    const where = serverId === undefined ? "" : ` on server ${serverId}`
    const message =
      route.access._tag === "Any"
        ? `missing one of the permissions ${missing.map((p) => `"${p}"`).join(", ")}${where}`
        : missing.length === 1
          ? `missing permission "${missing[0]}"${where}`
          : `missing permissions ${missing.map((p) => `"${p}"`).join(", ")}${where}`
    return deny(message, {
      permission: missing[0],
      ...(missing.length > 1 ? { permissions: missing } : {}),
      ...(serverId === undefined ? {} : { serverId })
    })
  }
  return audited(
    Effect.locally(licensed(route, request, options, app), currentPrincipalRef, Option.some(principal)),
    request,
    verdict,
    principal.id,
    principal.name,
    options.audit
  )
}

/**
 * A route of a licensed feature runs only when the license gate allows it
 * (reads and writes apart: a read-only license lets GET and HEAD through);
 * otherwise 402 with the refusal, `details` repeating `feature` and
 * `status` for clients that read only the one error shape. The refused
 * write still gets its audit row (`audited`, around this).
 */
const licensed = (route: RouteEntry, request: HttpServerRequest.HttpServerRequest, options: FrontDoorOptions, app: App): App => {
  const feature = route.feature
  if (feature === undefined || options.license === undefined) return app
  return Effect.flatMap(options.license.check(feature, !isReadMethod(request.method)), (refusal) =>
    refusal === undefined ? app : Effect.succeed(licenseRefused(refusal))
  )
}

const licenseRefused = (refusal: LicenseRefusal): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(
    {
      error: refusal.error,
      message: refusal.message,
      feature: refusal.feature,
      status: refusal.status,
      details: { feature: refusal.feature, status: refusal.status }
    },
    { status: 402 }
  )

/**
 * Every mutating request leaves an audit row (never its body: it may hold
 * secrets): the handler's own (`bans.add`, in its write's transaction), or,
 * when the handler recorded none, this one after it, naming the route and
 * the status. So one write is one row and one commit, not two. A client
 * that hangs up while its handler runs still gets one: the handler may have
 * committed before it was interrupted, so the row stays, marked `aborted`
 * with status 499 and result `failure` (the client saw no success). A
 * client that hangs up while its body is still being read never reaches
 * this point: nothing ran, so there is no row.
 */
const audited = (
  app: App,
  request: HttpServerRequest.HttpServerRequest,
  verdict: GateVerdict,
  actor: string | null,
  actorName: string | null,
  audit: AuditTrailShape
): App =>
{
  if (!BODY_METHODS.has(request.method)) return app
  const handlerRows = { count: 0 }
  const record = (status: number, aborted = false) =>
    handlerRows.count > 0
      ? Effect.void
      : audit.record({
          actor,
          actorName,
          ip: verdict.ip,
          action: `http.${request.method} ${verdict.route.path}`,
          target: verdict.path,
          result: status < 400 ? "success" : "failure",
          details: aborted ? { status, aborted: true, requestId: verdict.requestId } : { status, requestId: verdict.requestId }
        })
  return Effect.locally(app, requestAuditsRef, Option.some(handlerRows)).pipe(
    Effect.tap((response) => record(response.status)),
    // A handler fault becomes a 500 further out; it is still a request that happened.
    Effect.tapErrorCause((cause) => (isClientAbort(cause) ? record(clientGone.status, true) : record(500)))
  )
}

/**
 * One line per request at Info: `POST /api/x 201 12ms`, or for a client
 * that went away `POST /api/x aborted by the client after 12ms` (no stack,
 * no status: nothing failed on our side). Quiet routes (health pings) log
 * nothing, and their aborts only at Debug. Every request, quiet or not, is
 * told to `telemetry` by its route's template (a plain call, no fiber).
 */
const logRequest = <E, R>(
  self: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  method: string,
  path: string,
  requestId: string,
  route: RouteEntry,
  telemetry: TelemetryShape | undefined
) =>
  Effect.flatMap(Clock.currentTimeMillis, (start) =>
    Effect.tap(self, (response) => {
      const quiet = route.quiet
      if (quiet && response !== clientGone && telemetry === undefined) return Effect.void
      return Effect.flatMap(Clock.currentTimeMillis, (end) => {
        telemetry?.requestAnswered(method, route.path, response.status, end - start)
        if (quiet && response !== clientGone) return Effect.void
        return response === clientGone
          ? Effect.logWithLevel(quiet ? LogLevel.Debug : LogLevel.Info, `${method} ${path} aborted by the client after ${end - start}ms`)
          : Effect.logInfo(`${method} ${path} ${response.status} ${end - start}ms`)
      })
    })
  ).pipe(Effect.annotateLogs({ requestId }))

/** A request header as one string (Node joins repeated ones for most headers; the first of an array otherwise). */
const headerOf = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => {
  const value: unknown = request.headers[name]
  return typeof value === "string" ? value : Array.isArray(value) && typeof value[0] === "string" ? value[0] : undefined
}
