/**
 * Conditional changes: a client sends the version it read (`If-Match`, or an
 * `etag` field) and the change is refused (412) when the resource is at
 * another version now. Versions are the weak ETags of `etagOf`.
 *
 * A service refuses with `VersionMismatch` (the domain's words, no status);
 * its routes answer it with `versionMismatchHttp` (412 with the current
 * version in `details.etag`, so the client can read again and redo).
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
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
