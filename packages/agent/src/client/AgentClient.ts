/**
 * The controller's client for one agent, made from the `AgentApi` with
 * `HttpApiClient.make`: a base URL and the key, every call typed by the
 * catalogue, every failure one of the `AgentError` classes:
 *
 * - `AgentUnauthorized` (401: wrong or missing key),
 * - `AgentInvalidInput` (400 from the agent, or input the client refuses to
 *   send; `field` names the field),
 * - `AgentTimedOut` (504: the mod did not answer in time),
 * - `AgentModError` (422: the mod answered `ok: false`),
 * - `AgentUnavailable` (503: the command could not be queued),
 * - `AgentUnreachable` (no answer over the network, or none in time),
 * - `AgentBadResponse` (an answer outside the contract).
 *
 * Two ways in: `client.api.player.heal({ payload: { platformId } })` (typed
 * per endpoint, answers `{ok: true, data}`), and `client.call(action, input)`
 * for code that picks the action at run time (the Admin-actions routes
 * through `actionsByAdminRoute`), which answers the mod's `data`.
 */
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { Simplify } from "effect/Types"
import { AgentOk } from "../contract/Actions.js"
import { type AgentAction, AgentApi, actionsByName } from "../contract/AgentApi.js"
import {
  AgentBadResponse,
  type AgentError,
  AgentInvalidInput,
  AgentInvalidInputBody,
  AgentModError,
  AgentModErrorBody,
  AgentTimedOut,
  AgentTimedOutBody,
  AgentUnauthorized,
  AgentUnauthorizedBody,
  AgentUnavailable,
  AgentUnavailableBody,
  AgentUnreachable
} from "../contract/Errors.js"
import { invalidInputFromParseError } from "../contract/Issues.js"
import { AgentHealth } from "../contract/Protocol.js"
import { errorText } from "../errorText.js"

export interface AgentClientOptions {
  /** The agent's base URL, e.g. `http://10.0.0.5:9100`. */
  readonly baseUrl: string | URL
  /** The agent key (`SIDECAR_API_KEY`); undefined for a development agent without one. */
  readonly key: string | Redacted.Redacted<string> | undefined
  /**
   * How long one call may take before it counts as unreachable. Default 15 s:
   * longer than the agent's own command time-out (10 s), so a silent mod is
   * reported as `AgentTimedOut`, not as an unreachable agent.
   */
  readonly timeout?: Duration.DurationInput
}

type Groups = typeof AgentApi extends HttpApi.HttpApi<infer _Id, infer G, infer _E, infer _R> ? G : never

type Method<Endpoint> =
  Endpoint extends HttpApiEndpoint.HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer Path,
    infer UrlParams,
    infer Payload,
    infer Headers,
    infer Success,
    infer _Error,
    infer _R,
    infer _RE
  >
    ? (request: Simplify<HttpApiEndpoint.HttpApiEndpoint.ClientRequest<Path, UrlParams, Payload, Headers, false>>) => Effect.Effect<Success, AgentError>
    : never

type GroupClient<Group> =
  Group extends HttpApiGroup.HttpApiGroup<infer _Id, infer Endpoints, infer _E, infer _R, infer _TopLevel>
    ? { readonly [E in Endpoints as HttpApiEndpoint.HttpApiEndpoint.Name<E>]: Method<E> }
    : never

/** The typed API: `api.<category>.<endpoint>(request)`, and `api.health()`. */
export type AgentApiClient = {
  readonly [G in Extract<Groups, { readonly topLevel: false }> as HttpApiGroup.HttpApiGroup.Name<G>]: GroupClient<G>
} & {
  readonly health: () => Effect.Effect<AgentHealth, AgentError>
}

export interface AgentClient {
  /** The typed API, one method per catalogue endpoint. */
  readonly api: AgentApiClient
  /**
   * Runs one action by catalogue entry or mod action name. `input` is the
   * action's body or query with its path parameters (as in the catalogue's
   * `example`); answers the mod's `data`.
   */
  readonly call: (action: AgentAction | string, input?: Readonly<Record<string, unknown>>) => Effect.Effect<unknown, AgentError>
  /** `GET /health`. */
  readonly health: Effect.Effect<AgentHealth, AgentError>
}

const isAgentError = (error: unknown): error is AgentError =>
  error instanceof AgentUnauthorized ||
  error instanceof AgentInvalidInput ||
  error instanceof AgentModError ||
  error instanceof AgentUnavailable ||
  error instanceof AgentTimedOut ||
  error instanceof AgentUnreachable ||
  error instanceof AgentBadResponse


/** Any failure of a call as one of the `AgentError` classes. */
const normalize =
  (url: string, whole: "input" | "body" | "query" = "input") =>
  (error: unknown): AgentError => {
    if (isAgentError(error)) return error
    if (typeof error === "object" && error !== null && "_tag" in error) {
      if (error._tag === "RequestError") return new AgentUnreachable({ error: `cannot reach the agent at ${url}: ${errorText(error)}`, url })
      if (error._tag === "TimeoutException") return new AgentUnreachable({ error: `the agent at ${url} did not answer in time`, url })
      if (error._tag === "ResponseError") {
        const status = "response" in error && typeof error.response === "object" && error.response !== null && "status" in error.response ? Number(error.response.status) : 0
        return new AgentBadResponse({ error: `the agent at ${url} answered outside its contract (status ${status})`, status })
      }
    }
    if (ParseResult.isParseError(error)) return invalidInputFromParseError(error, whole)
    return new AgentBadResponse({ error: `unexpected failure calling the agent at ${url}: ${errorText(error)}`, status: 0 })
  }

/** Wraps every method of the platform's client so it fails with `AgentError` only and times out. */
const wrapClient = (raw: Record<string, unknown>, url: string, timeout: Duration.DurationInput): AgentApiClient => {
  const wrapFn =
    (fn: (request: unknown) => Effect.Effect<unknown, unknown>) =>
    (request: unknown): Effect.Effect<unknown, AgentError> =>
      fn(request).pipe(Effect.timeout(timeout), Effect.mapError(normalize(url)))
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === "function") out[key] = wrapFn(value as (request: unknown) => Effect.Effect<unknown, unknown>)
    else if (typeof value === "object" && value !== null) {
      const group: Record<string, unknown> = {}
      for (const [name, fn] of Object.entries(value as Record<string, unknown>)) {
        if (typeof fn === "function") group[name] = wrapFn(fn as (request: unknown) => Effect.Effect<unknown, unknown>)
      }
      out[key] = group
    }
  }
  return out as unknown as AgentApiClient
}

const errorBodies = new Map<number, Schema.Schema.AnyNoContext>([
  [400, AgentInvalidInputBody],
  [401, AgentUnauthorizedBody],
  [422, AgentModErrorBody],
  [503, AgentUnavailableBody],
  [504, AgentTimedOutBody]
])

const decodeOk = Schema.decodeUnknown(AgentOk)

/** The split of a flat input into path parameters and the body or query, as the action takes them. */
const splitInput = (action: AgentAction, input: Readonly<Record<string, unknown>>) => {
  const pathNames = [...action.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!)
  const path: Record<string, unknown> = {}
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (pathNames.includes(key)) path[key] = value
    else rest[key] = value
  }
  return { path, rest, pathNames }
}

/** Makes a client for the agent at `baseUrl`; needs an `HttpClient` (e.g. `FetchHttpClient.layer`). */
export const make = (options: AgentClientOptions): Effect.Effect<AgentClient, never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const url = options.baseUrl.toString().replace(/\/+$/, "")
    const timeout = options.timeout ?? Duration.seconds(15)
    const key = options.key === undefined ? undefined : Redacted.isRedacted(options.key) ? options.key : Redacted.make(options.key)
    const withKey = (client: HttpClient.HttpClient) =>
      key === undefined ? client : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(Redacted.value(key)))
    const raw = yield* HttpApiClient.make(AgentApi, {
      baseUrl: url,
      transformClient: withKey,
      // A body that does not decode is the agent's fault, not the caller's input.
      transformResponse: (effect) =>
        Effect.catchIf(effect, ParseResult.isParseError, (e) =>
          Effect.fail(new AgentBadResponse({ error: `the agent's answer does not match its contract: ${e.message.split("\n")[0] ?? ""}`, status: 0 }))
        )
    })
    const api = wrapClient(raw as unknown as Record<string, unknown>, url, timeout)
    const http = withKey(yield* HttpClient.HttpClient)

    const call: AgentClient["call"] = (which, input = {}) =>
      Effect.gen(function* () {
        const action = typeof which === "string" ? actionsByName.get(which) : which
        if (action === undefined) return yield* Effect.fail(new AgentInvalidInput({ error: `action: unknown action "${String(which)}"`, field: "action" }))
        const { path, rest, pathNames } = splitInput(action, input)
        let target = action.path
        if (action.pathParams !== undefined) {
          const encoded = (yield* Schema.encodeUnknown(action.pathParams)(path).pipe(
            Effect.mapError((e) => invalidInputFromParseError(e, "path"))
          )) as Record<string, string>
          for (const name of pathNames) target = target.replace(`:${name}`, encodeURIComponent(encoded[name] ?? ""))
        }
        let request = HttpClientRequest.make(action.method)(`${url}${target}`).pipe(HttpClientRequest.acceptJson)
        if (action.payload !== undefined) {
          const encoded = yield* Schema.encodeUnknown(action.payload)(rest).pipe(
            Effect.mapError((e) => invalidInputFromParseError(e, action.payloadIn === "query" ? "query" : "body"))
          )
          request =
            action.payloadIn === "query"
              ? HttpClientRequest.setUrlParams(request, encoded as Record<string, string>)
              : HttpClientRequest.bodyUnsafeJson(request, encoded)
        } else if (Object.keys(rest).length > 0) {
          const field = Object.keys(rest)[0]!
          return yield* Effect.fail(new AgentInvalidInput({ error: `${field}: is not a field of this request (it takes none)`, field }))
        }
        const response = yield* http.execute(request)
        const body = yield* response.json.pipe(Effect.orElseSucceed(() => undefined as unknown))
        if (response.status === 200) {
          const ok = yield* decodeOk(body).pipe(
            Effect.mapError(() => new AgentBadResponse({ error: `the agent's answer to ${action.name} does not match its contract`, status: 200 }))
          )
          return ok.data
        }
        const schema = errorBodies.get(response.status)
        if (schema === undefined) {
          const text = typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? `: ${body.error}` : ""
          return yield* Effect.fail(new AgentBadResponse({ error: `the agent answered ${response.status}${text}`, status: response.status }))
        }
        const error = yield* Schema.decodeUnknown(schema)(body).pipe(
          Effect.mapError(() => new AgentBadResponse({ error: `the agent answered ${response.status} outside its contract`, status: response.status }))
        )
        return yield* Effect.fail(error as AgentError)
      }).pipe(Effect.scoped, Effect.timeout(timeout), Effect.mapError(normalize(url)))

    const health = api.health()
    return { api, call, health } satisfies AgentClient
  })
