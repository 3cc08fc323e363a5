/**
 * Conditional GETs for the API's answers: a 200 whose body is in memory
 * gets a weak ETag (a hash of the body), and a GET whose `If-None-Match`
 * names it is answered 304 with no body. Pollers (the dashboard's server
 * list and status every few seconds) then move a few bytes while nothing
 * changes. Streamed answers (exports) and bodies over 1 MiB get none: the
 * hash would cost more than it saves. An answer that already carries its
 * ETag (an export kept in memory, see `makeJsonArrayCache`) keeps it. Answers stay `no-store`: clients keep
 * the body themselves (the dashboard's client does).
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { etagMatches, etagOf } from "@garrison/runtime"

const MAX_HASHED_BYTES = 1 << 20


/** Whether `If-None-Match` (a list of tags, or `*`) names `etag`, compared weakly (RFC 9110 13.1.2): as `If-Match` is. */
export const matchesIfNoneMatch = etagMatches

/** The answer to a GET with its ETag, or 304 when the client already holds it. */
export const withETag = (response: HttpServerResponse.HttpServerResponse, ifNoneMatch: string | undefined): HttpServerResponse.HttpServerResponse => {
  if (response.status !== 200 || response.body._tag !== "Uint8Array") return response
  // A handler that knows its body's tag (a kept export) sets it, and the body is not hashed again.
  const known = response.headers["etag"]
  if (known === undefined && response.body.body.byteLength > MAX_HASHED_BYTES) return response
  const etag = known ?? etagOf(response.body.body)
  if (ifNoneMatch !== undefined && ifNoneMatch.length <= 4096 && matchesIfNoneMatch(ifNoneMatch, etag)) {
    return HttpServerResponse.empty({ status: 304, headers: { etag } })
  }
  return known === undefined ? HttpServerResponse.setHeader(response, "etag", etag) : response
}
