/**
 * The controller's one error shape, `{ error, message, details? }`, and the
 * table of codes and statuses. Plugins add these classes to their endpoints
 * (`.addError(NotFound)`) and fail with them; the host writes every error,
 * including the platform's own, in this shape.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"

/** Every error code the controller answers with, and its HTTP status. */
export const errorStatus = {
  "invalid-request": 400,
  "invalid-json": 400,
  unauthenticated: 401,
  "mfa-required": 401,
  forbidden: 403,
  "csrf-mismatch": 403,
  "password-change-required": 403,
  "not-found": 404,
  "method-not-allowed": 405,
  "request-timeout": 408,
  conflict: 409,
  "precondition-failed": 412,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  "payment-required": 402,
  "rate-limited": 429,
  "headers-too-large": 431,
  internal: 500,
  "bad-gateway": 502,
  unavailable: 503,
  "gateway-timeout": 504
} as const

export type ErrorCode = keyof typeof errorStatus

const fields = { message: Schema.String, details: Schema.optional(Schema.Unknown) }

export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  fields,
  HttpApiSchema.annotations({ status: 400 })
) {}

export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()(
  "Unauthenticated",
  fields,
  HttpApiSchema.annotations({ status: 401 })
) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  fields,
  HttpApiSchema.annotations({ status: 403 })
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  fields,
  HttpApiSchema.annotations({ status: 404 })
) {}

export class Conflict extends Schema.TaggedError<Conflict>()(
  "Conflict",
  fields,
  HttpApiSchema.annotations({ status: 409 })
) {}

export class Unavailable extends Schema.TaggedError<Unavailable>()(
  "Unavailable",
  fields,
  HttpApiSchema.annotations({ status: 503 })
) {}

/** A payment or a licence tier is needed first (the store, licensed features). */
/** 412: a conditional change (`If-Match`) named a version that is no longer the current one. */
export class PreconditionFailed extends Schema.TaggedError<PreconditionFailed>()(
  "PreconditionFailed",
  fields,
  HttpApiSchema.annotations({ status: 412 })
) {}

export class PaymentRequired extends Schema.TaggedError<PaymentRequired>()(
  "PaymentRequired",
  fields,
  HttpApiSchema.annotations({ status: 402 })
) {}

/** An upstream service (the payment provider, the Steam Web API, a game server's agent) answered badly. */
export class BadGateway extends Schema.TaggedError<BadGateway>()(
  "BadGateway",
  fields,
  HttpApiSchema.annotations({ status: 502 })
) {}

/** An upstream service did not answer in time (an agent command's 10 s, say). */
export class GatewayTimeout extends Schema.TaggedError<GatewayTimeout>()(
  "GatewayTimeout",
  fields,
  HttpApiSchema.annotations({ status: 504 })
) {}

/** The code written for an error class's tag (and the platform's own tags). */
export const codeForTag: Readonly<Record<string, ErrorCode>> = {
  BadRequest: "invalid-request",
  HttpApiDecodeError: "invalid-request",
  Unauthenticated: "unauthenticated",
  Unauthorized: "unauthenticated",
  Forbidden: "forbidden",
  NotFound: "not-found",
  Conflict: "conflict",
  PreconditionFailed: "precondition-failed",
  Unavailable: "unavailable",
  PaymentRequired: "payment-required",
  BadGateway: "bad-gateway",
  GatewayTimeout: "gateway-timeout",
  InternalServerError: "internal"
}

/**
 * A code a plugin adds to the table: its own error class (by `_tag`, with
 * an `HttpApiSchema` status annotation) answers `{error: code, ...}` with
 * `status`. `Plugin.make({ errorCodes: [...] })`; the host refuses a code
 * that the table or another plugin gives another status.
 */
export interface ErrorCodeDeclaration {
  /** The `_tag` of the plugin's error class. */
  readonly tag: string
  /** Lower case, dashes and dots: `chat.sig-rejected`, `licence-expired`. */
  readonly code: string
  readonly status: number
  /** When it is answered, for the README-style table in the docs. */
  readonly description: string
}

export interface ErrorBody {
  readonly error: string
  readonly message: string
  readonly details?: unknown
}
