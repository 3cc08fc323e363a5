/**
 * One request to the controller under test, as a named caller, through
 * the `HttpClient` in context: the in-process controller's (paths are
 * relative to it) or a spawned one's (`spawnedController`).
 */
import type { Headers } from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import type { HttpClientError } from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as Effect from "effect/Effect"

export interface CallOptions {
  /**
   * The caller for the test authenticator, `"<user>:<perm,perm>"` (see
   * `caller`), sent as `Authorization: Bearer test:<as>`; no credentials
   * when left out.
   */
  readonly as?: string
  /** The request body, as JSON. */
  readonly json?: unknown
  /** A body sent as is, for malformed input. */
  readonly text?: { readonly body: string; readonly contentType: string }
  /** Sent as `X-Forwarded-For`: the client address, where the controller trusts a proxy hop. */
  readonly ip?: string
  /** More request headers. */
  readonly headers?: Readonly<Record<string, string>>
}

/** A reply as it came: status, headers and the body's text. */
export interface RawReply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** A reply with its body parsed. */
export interface Reply<Body = unknown> {
  readonly status: number
  readonly body: Body
}

const requestOf = (method: HttpMethod, path: string, options: CallOptions) => {
  let req = HttpClientRequest.make(method)(path)
  if (options.headers !== undefined) req = HttpClientRequest.setHeaders(req, options.headers)
  if (options.as !== undefined) req = HttpClientRequest.bearerToken(req, `test:${options.as}`)
  if (options.ip !== undefined) req = HttpClientRequest.setHeader(req, "x-forwarded-for", options.ip)
  if (options.json !== undefined) req = HttpClientRequest.bodyUnsafeJson(req, options.json)
  if (options.text !== undefined) req = HttpClientRequest.bodyText(req, options.text.body, options.text.contentType)
  return req
}

/** One request; the reply with its body as text. */
export const request = (method: HttpMethod, path: string, options: CallOptions = {}): Effect.Effect<RawReply, HttpClientError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const response = yield* HttpClient.execute(requestOf(method, path, options))
    const text = yield* response.text
    return { status: response.status, headers: response.headers, text } satisfies RawReply
  }).pipe(Effect.scoped)

/** A reply with its body as bytes (a download). */
export interface BytesReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly bytes: Uint8Array
}

/** One request; the reply with its body as bytes. */
export const requestBytes = (method: HttpMethod, path: string, options: CallOptions = {}): Effect.Effect<BytesReply, HttpClientError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const response = yield* HttpClient.execute(requestOf(method, path, options))
    const bytes = new Uint8Array(yield* response.arrayBuffer)
    return { status: response.status, headers: response.headers, bytes } satisfies BytesReply
  }).pipe(Effect.scoped)

/** The body's JSON (the test's assertions check its shape), or `empty` when there is no body. */
export const jsonBody = <Body>(text: string, empty: Body): Body => (text.length === 0 ? empty : (JSON.parse(text) as Body))

/** One request; its status and JSON body (`undefined` when there is none). */
export const call = (method: HttpMethod, path: string, options: CallOptions = {}): Effect.Effect<Reply, HttpClientError, HttpClient.HttpClient> =>
  Effect.map(request(method, path, options), ({ status, text }): Reply => ({ status, body: jsonBody<unknown>(text, undefined) }))

/** A reply with its body parsed and as text (for assertions on the words of an error). */
export interface TextReply<Body = unknown> extends Reply<Body> {
  readonly text: string
}

/** One request; its status, JSON body and the body's text. */
export const callWithText = (method: HttpMethod, path: string, options: CallOptions = {}): Effect.Effect<TextReply, HttpClientError, HttpClient.HttpClient> =>
  Effect.map(request(method, path, options), ({ status, text }): TextReply => ({ status, text, body: jsonBody<unknown>(text, undefined) }))
