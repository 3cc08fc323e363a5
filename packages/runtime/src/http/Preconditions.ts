/**
 * Conditional changes: a client sends the version it read (`If-Match`, or an
 * `etag` field) and the change is refused (412) when the resource is at
 * another version now. Versions are the weak ETags of `etagOf`.
 *
 * A service refuses with `VersionMismatch` (the domain's words, no status);
 * its routes answer it with `versionMismatchHttp` (412 with the current
 * version in `details.etag`, so the client can read again and redo).
 *
 * One ETag per resource: a route that shows a version (an `etag` field)
 * answers with `versionedAnswer`, which sends the same tag as the `ETag`
 * header. The host keeps a handler's ETag (it hashes only answers without
 * one), so the header a client sees, the body's `etag`, `If-None-Match`
 * and `If-Match` all name one version.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { PreconditionFailed } from "./ApiErrors.js"

/** The resource is at another version than the one the change was made against (`current`: its version now, null when it is gone). */
export class VersionMismatch extends Schema.TaggedError<VersionMismatch>()("VersionMismatch", {
  message: Schema.String,
  current: Schema.NullOr(Schema.String)
}) {}

/** 412, with the current version for the client to read again. */
export const versionMismatchHttp = (error: VersionMismatch): Effect.Effect<never, PreconditionFailed> =>
  Effect.fail(new PreconditionFailed({ message: error.message, details: { etag: error.current } }))

/** Whether `header` (a list of tags, or `*`) names `etag`, compared weakly (RFC 9110 13.1.1). */
export const etagMatches = (header: string, etag: string): boolean => {
  if (header.trim() === "*") return true
  const opaque = etag.replace(/^W\//, "")
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === opaque)
}

/** The request's `If-Match`, when it sent one (the first, when sent twice). */
export const ifMatchHeader: Effect.Effect<string | undefined, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const value: unknown = request.headers["if-match"]
    return typeof value === "string" ? value : Array.isArray(value) && typeof value[0] === "string" ? value[0] : undefined
  }
)

/**
 * The answer for a resource whose version is `etag`: `value` encoded by
 * its schema (as the endpoint's success schema would), with `ETag: etag`.
 * The version must name everything the body shows, so that a 304 for it
 * is right (see `ServerConfigs`' versions).
 */
export const versionedAnswer = <A, I>(
  // An endpoint's success schema: its encoding needs no service (a schema built from `Schema.Any` fields says `unknown`).
  schema: Schema.Schema<A, I, unknown>,
  value: A,
  etag: string
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  // orDie: `value` is of `schema`'s own type (the handler made it), so encoding it to JSON cannot fail.
  Effect.orDie(HttpServerResponse.schemaJson(schema as Schema.Schema<A, I>)(value, { headers: { etag } }))
