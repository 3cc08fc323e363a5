/**
 * Writing errors in the controller's one shape, and rewriting the
 * platform's own error bodies (`{_tag, ...}`) into it. Whatever an error
 * says about the input goes through `ErrorRedaction`: no secret echoed,
 * nothing long, a bounded list of issues.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { codeForTag, type ErrorBody, type ErrorCode, errorStatus } from "@garrison/runtime"
import { safeDetails, safeIssueList, safeMessage, summarizeIssues } from "./ErrorRedaction.js"

/**
 * An error response. `code` is one of the table's codes, or an
 * authenticator's own (then `status` says which status goes with it).
 */
export const errorResponse = (
  code: ErrorCode | (string & {}),
  message: string,
  options: { readonly details?: unknown; readonly headers?: Record<string, string>; readonly status?: number } = {}
): HttpServerResponse.HttpServerResponse => {
  const text = safeMessage(message)
  const body: ErrorBody = options.details === undefined ? { error: code, message: text } : { error: code, message: text, details: options.details }
  const status = options.status ?? (code in errorStatus ? errorStatus[code as ErrorCode] : 500)
  return HttpServerResponse.unsafeJson(body, { status, headers: options.headers })
}

const decoder = new TextDecoder()

/**
 * HttpApi encodes a failure as its schema's JSON, e.g.
 * `{"_tag":"NotFound","message":"..."}` or a decode failure's
 * `{"_tag":"HttpApiDecodeError","issues":[...],"message":"..."}`; rewrite
 * those into `{error, message, details?}`. Only error responses pay for this.
 */
export const normalizeErrorBody = (
  response: HttpServerResponse.HttpServerResponse,
  /** The code for each error class (`_tag`): the table's and the plugins' (the plan's `errorCodes`). */
  codes: ReadonlyMap<string, string> | Readonly<Record<string, string>> = codeForTag
): HttpServerResponse.HttpServerResponse => (response.status < 400 ? response : withRetryHint(normalizedBody(response, codes)))

/** Seconds a 503 asks the client to wait when the error named no time of its own. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5

/**
 * A 503 is a passing state (a game server's RCON session not up yet, say),
 * not a fault: it always tells the client when to try again.
 */
const withRetryHint = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse =>
  response.status === 503 && response.headers["retry-after"] === undefined
    ? HttpServerResponse.setHeader(response, "retry-after", String(DEFAULT_RETRY_AFTER_SECONDS))
    : response

const codeOf = (codes: ReadonlyMap<string, string> | Readonly<Record<string, string>>, tag: string): string | undefined =>
  codes instanceof Map ? codes.get(tag) : Object.hasOwn(codes, tag) ? (codes as Readonly<Record<string, string>>)[tag] : undefined

const normalizedBody = (
  response: HttpServerResponse.HttpServerResponse,
  codes: ReadonlyMap<string, string> | Readonly<Record<string, string>>
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (body._tag === "Empty") {
    const code = codeForStatus(response.status)
    return HttpServerResponse.unsafeJson(
      { error: code, message: defaultMessage(response.status) },
      { status: response.status, headers: response.headers }
    )
  }
  if (body._tag !== "Uint8Array" || !body.contentType.startsWith("application/json")) return response
  let parsed: unknown
  try {
    parsed = JSON.parse(decoder.decode(body.body))
  } catch {
    return response
  }
  if (typeof parsed !== "object" || parsed === null || !("_tag" in parsed)) return response
  const { _tag, message, issues, details, ...rest } = parsed as Record<string, unknown>
  const code = codeOf(codes, String(_tag)) ?? codeForStatus(response.status)
  let text = typeof message === "string" && message.length > 0 ? safeMessage(message) : defaultMessage(response.status)
  let extra: unknown
  if (Array.isArray(issues)) {
    // The platform's own message is a tree of the same issues, values and all: never passed on.
    const { listed, count } = safeIssueList(issues)
    extra = listed
    text = listed[0] !== undefined ? summarizeIssues(listed[0], count) : "the request did not match the expected schema"
  } else if (details !== undefined) extra = safeDetails(details)
  else if (Object.keys(rest).length > 0) extra = safeDetails(rest)
  return HttpServerResponse.unsafeJson(
    extra === undefined ? { error: code, message: text } : { error: code, message: text, details: extra },
    { status: response.status, headers: response.headers }
  )
}

const codeForStatus = (status: number): ErrorCode => {
  for (const [code, s] of Object.entries(errorStatus)) if (s === status) return code as ErrorCode
  return status >= 500 ? "internal" : "invalid-request"
}

const defaultMessage = (status: number) =>
  status === 404 ? "not found" : status >= 500 ? "internal error" : `request failed with status ${status}`
