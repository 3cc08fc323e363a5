/**
 * The dashboard's API client, derived from the plugins' `HttpApi` contracts
 * with `HttpApiClient.make` over `FetchHttpClient`: the browser and the
 * controller share one set of request and response types, so a changed
 * endpoint fails `npm run typecheck` here.
 *
 * Signed in with the spec's cookie + CSRF mode: fetches send credentials
 * (the HttpOnly `auth-token` cookie), and every POST, PUT, PATCH and DELETE
 * carries the `csrf-token` cookie's value in `X-CSRF-Token`.
 *
 * Every call resolves to its success value or rejects with an `ApiError`
 * (HTTP status, the API's `error` code and `message`).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AccountsApi } from "../../../plugins/src/accounts/contract/Api.js"
import { AuditApi } from "../../../plugins/src/audit/contract/Api.js"
import { BackupsApi } from "../../../plugins/src/backups/contract/Api.js"
import { BansApi } from "../../../plugins/src/bans/contract/Api.js"
import { ChatApi } from "../../../plugins/src/chat/contract/Api.js"
import { CloudApi } from "../../../plugins/src/cloud/contract/Api.js"
import { GameLogApi } from "../../../plugins/src/gamelog/contract/Api.js"
import { LicenseApi } from "../../../plugins/src/license/contract/Api.js"
import { LogsApi } from "../../../plugins/src/logs/contract/Api.js"
import { NotificationsApi } from "../../../plugins/src/notifications/contract/Api.js"
import { PlayersApi } from "../../../plugins/src/players/contract/Api.js"
import { PriorityApi } from "../../../plugins/src/priority/contract/Api.js"
import { SchedulerApi } from "../../../plugins/src/scheduler/contract/Api.js"
import { ServersApi } from "../../../plugins/src/servers/contract/Api.js"
import { StoreApi } from "../../../plugins/src/store/contract/Api.js"
import { SystemApi } from "../../../plugins/src/system/contract/Api.js"
import { TrustApi } from "../../../plugins/src/trust/contract/Api.js"
import { WatchlistApi } from "../../../plugins/src/watchlist/contract/Api.js"
import { WebhooksApi } from "../../../plugins/src/webhooks/contract/Api.js"

/** Every typed contract the dashboard uses, as one API. (The actions API is built in a loop, so it is untyped: see `actions`.) */
export const GarrisonApi = HttpApi.make("garrison")
  .addHttpApi(AccountsApi)
  .addHttpApi(ServersApi)
  .addHttpApi(PlayersApi)
  .addHttpApi(BansApi)
  .addHttpApi(LogsApi)
  .addHttpApi(AuditApi)
  .addHttpApi(NotificationsApi)
  .addHttpApi(PriorityApi)
  .addHttpApi(SchedulerApi)
  .addHttpApi(BackupsApi)
  .addHttpApi(StoreApi)
  .addHttpApi(LicenseApi)
  .addHttpApi(CloudApi)
  .addHttpApi(WebhooksApi)
  .addHttpApi(ChatApi)
  .addHttpApi(TrustApi)
  .addHttpApi(GameLogApi)
  .addHttpApi(WatchlistApi)
  .addHttpApi(SystemApi)

/**
 * A refused or failed call: the status, the API's error code (`csrf-mismatch`, `mfa-required`, ...), its
 * message and, for a refused input, each field's own message (`details: [{path, message}]`, by path).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
    readonly fields: Readonly<Record<string, string>> = {}
  ) {
    super(message)
  }
}

/** The `details` of an error body as field → message (the items that name a path). */
const fieldsOf = (details: unknown): Record<string, string> => {
  const fields: Record<string, string> = {}
  if (!Array.isArray(details)) return fields
  for (const item of details as ReadonlyArray<unknown>) {
    if (typeof item !== "object" || item === null) continue
    const { path, message } = item as { readonly path?: unknown; readonly message?: unknown }
    if (typeof path === "string" && path !== "" && typeof message === "string") fields[path] = message
  }
  return fields
}

/** The `csrf-token` cookie the controller sets at sign-in (readable by scripts by design). */
export const csrfToken = (): string | undefined => {
  for (const part of document.cookie.split(";")) {
    const [name, ...value] = part.trim().split("=")
    if (name === "csrf-token") return decodeURIComponent(value.join("="))
  }
  return undefined
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"])

/**
 * Conditional GETs: the controller tags in-memory answers with an ETag, and
 * answers 304 (no body) when `If-None-Match` names the one the client
 * holds. The last tagged body of each GET is kept here (answers are
 * `no-store`, so the browser keeps none), sent back as a 200 on a 304:
 * polls of an unchanged server list move a few bytes.
 */
const validated = new Map<string, { readonly etag: string; readonly body: string; readonly headers: Readonly<Record<string, string>> }>()
const MAX_VALIDATED = 100

/** Path and query: the same whether the base URL is on the request yet or not. */
const keyOf = (request: HttpClientRequest.HttpClientRequest) => `${request.url.replace(/^[a-z]+:\/\/[^/]+/i, "")}?${UrlParams.toString(request.urlParams)}`

const withConditionalGets = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  client.pipe(
    HttpClient.mapRequest((request) => {
      const held = request.method === "GET" ? validated.get(keyOf(request)) : undefined
      return held === undefined ? request : HttpClientRequest.setHeader(request, "if-none-match", held.etag)
    }),
    HttpClient.transformResponse((effect) =>
      Effect.flatMap(effect, (response) => {
        if (response.request.method !== "GET") return Effect.succeed(response)
        const key = keyOf(response.request)
        const held = validated.get(key)
        if (response.status === 304 && held !== undefined) {
          return Effect.succeed(HttpClientResponse.fromWeb(response.request, new Response(held.body, { status: 200, headers: held.headers })))
        }
        const etag = response.headers["etag"]
        if (response.status !== 200 || etag === undefined) return Effect.succeed(response)
        return Effect.map(response.text, (body) => {
          validated.delete(key)
          validated.set(key, { etag, body, headers: response.headers })
          // The oldest URL goes first (a Map keeps insertion order).
          if (validated.size > MAX_VALIDATED) validated.delete(validated.keys().next().value!)
          return HttpClientResponse.fromWeb(response.request, new Response(body, { status: 200, headers: response.headers }))
        })
      })
    )
  )

/** Status-coded replies fail with the API's own `{error, message}` before the client decodes them. */
const withCsrfAndErrors = (client: HttpClient.HttpClient): HttpClient.HttpClient =>
  withConditionalGets(client).pipe(
    HttpClient.mapRequest((request) => {
      const token = csrfToken()
      return WRITES.has(request.method) && token !== undefined ? HttpClientRequest.setHeader(request, "x-csrf-token", token) : request
    }),
    HttpClient.transformResponse((effect) =>
      Effect.flatMap(effect, (response) =>
        response.status < 400
          ? Effect.succeed(response)
          : Effect.flatMap(
              Effect.orElseSucceed(response.json, () => ({})),
              (body) =>
                Effect.fail(
                  new HttpClientError.ResponseError({
                    request: response.request,
                    response,
                    reason: "StatusCode",
                    description: JSON.stringify(body)
                  })
                )
            )
      )
    )
  )

const transport = FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { credentials: "include" })))

const origin = typeof window === "undefined" ? "http://localhost" : window.location.origin

export const client = Effect.runSync(
  HttpApiClient.make(GarrisonApi, { baseUrl: origin, transformClient: withCsrfAndErrors }).pipe(Effect.provide(transport))
)
export type Client = typeof client

/** A plain client with the same credentials, CSRF and errors, for the loosely typed actions API and downloads. */
export const http = Effect.runSync(Effect.map(HttpClient.HttpClient, withCsrfAndErrors).pipe(Effect.provide(transport)))

const toApiError = (error: unknown): ApiError => {
  if (error instanceof ApiError) return error
  if (error instanceof HttpClientError.ResponseError) {
    const status = error.response.status
    let body: { error?: unknown; message?: unknown; details?: unknown } = {}
    try {
      body = JSON.parse(error.description ?? "{}") as typeof body
    } catch {
      body = {}
    }
    const retry = Number(error.response.headers["retry-after"])
    return new ApiError(
      status,
      typeof body.error === "string" ? body.error : "http-" + status,
      typeof body.message === "string" ? body.message : `the controller answered ${status}`,
      Number.isFinite(retry) ? retry : undefined,
      fieldsOf(body.details)
    )
  }
  if (error instanceof HttpClientError.RequestError) return new ApiError(0, "network", "the controller cannot be reached")
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return new ApiError(0, "client", error.message)
  }
  return new ApiError(0, "client", String(error))
}

type Listener = (error: ApiError) => void
const listeners = new Set<Listener>()
/** Called with every failure (the session watches for 401 and `password-change-required`). */
export const onApiError = (listener: Listener): (() => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Runs a call: its value, or a rejection with an `ApiError`. */
export const call = <A, E>(effect: Effect.Effect<A, E>): Promise<A> =>
  Effect.runPromise(Effect.either(effect)).then((result) => {
    if (result._tag === "Right") return result.right
    const error = toApiError(result.left)
    for (const listener of listeners) listener(error)
    throw error
  })

/** `call` for the typed client: `api((c) => c.servers.list({ urlParams: {} }))`. */
export const api = <A, E>(f: (c: Client) => Effect.Effect<A, E>): Promise<A> => call(Effect.suspend(() => f(client)))

/**
 * `api` for a contract outside `GarrisonApi`: a page's own plugin contract,
 * built the first time that page's chunk asks, so the contract's schemas load
 * with the page instead of in the first load. Same transport, CSRF, ETags and
 * errors as `api`.
 *
 * ```ts
 * const modsApi = apiFor(ModsApi)
 * const mods = await modsApi((c) => c.mods.list({ path: { id } }))
 * ```
 */
export const apiFor = <ApiId extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, ApiE>(contract: HttpApi.HttpApi<ApiId, Groups, ApiE, never>) => {
  type ContractClient = HttpApiClient.Client<Groups, ApiE | HttpClientError.HttpClientError, never>
  let made: ContractClient | undefined
  // The plugins' contracts declare no client-side middleware, so the client needs nothing more to be built.
  const build = HttpApiClient.makeWith(contract, { httpClient: http, baseUrl: origin }) as Effect.Effect<ContractClient>
  const clientOf = (): ContractClient => (made ??= Effect.runSync(build))
  return <A, E>(f: (c: ContractClient) => Effect.Effect<A, E>): Promise<A> => call(Effect.suspend(() => f(clientOf())))
}

/** JSON to a path with the same client (the actions API, whose endpoints are built from the agent's catalogue). */
export const send = (method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> =>
  call(
    Effect.flatMap(
      http.execute(
        method === "GET"
          ? HttpClientRequest.get(origin + path)
          : HttpClientRequest.post(origin + path).pipe(HttpClientRequest.bodyUnsafeJson(body ?? {}))
      ),
      (response) => (response.status === 204 ? Effect.succeed(undefined) : response.json)
    )
  )
