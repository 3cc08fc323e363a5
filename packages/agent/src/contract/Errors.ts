/**
 * The agent's answers other than success, one body shape for all of them:
 * `{ok: false, error: "<message>", ...}` (the field conventions' shape; the
 * spec leaves them "not shown"). Each is a tagged error class for code, and
 * a wire schema that encodes it to that body with its status and decodes the
 * body back to the class, so the agent's server and the typed client agree.
 *
 * | Status | Class | Body |
 * |---|---|---|
 * | 400 | `AgentInvalidInput` | `{ok:false, error:"<field>: <why>", field}` |
 * | 401 | `AgentUnauthorized` | `{ok:false, error:"Authorization required"}` |
 * | 422 | `AgentModError` | `{ok:false, error:"<the mod's error>", id}`: the mod answered `ok:false` |
 * | 503 | `AgentUnavailable` | `{ok:false, error}`: the command could not be queued (folder not writable, too many waiting) |
 * | 504 | `AgentTimedOut` | `{ok:false, error:"Command timed out after 10000ms", id}` |
 *
 * `AgentUnreachable` (no answer over the network) and `AgentBadResponse`
 * (an answer that is none of the above) are the client's own.
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"

/** 401: no `Authorization: Bearer <key>`, or the wrong key. */
export class AgentUnauthorized extends Schema.TaggedError<AgentUnauthorized>()("AgentUnauthorized", {
  error: Schema.String
}) {
  override get message() {
    return this.error
  }
}

/** 400: a body, query or path field that breaks its rule; the command never reached the mod. */
export class AgentInvalidInput extends Schema.TaggedError<AgentInvalidInput>()("AgentInvalidInput", {
  error: Schema.String,
  /** The field as the API spells it (`coords`, `coords[2]`, `rain`), or `body`/`query` for the whole. */
  field: Schema.String
}) {
  override get message() {
    return this.error
  }
}

/** 422: the mod ran the command and answered `ok: false` (unknown player, vehicle gone, ...). */
export class AgentModError extends Schema.TaggedError<AgentModError>()("AgentModError", {
  error: Schema.String,
  /** The command's id (also in the `X-Command-Id` header). */
  id: Schema.String
}) {
  override get message() {
    return this.error
  }
}

/** 503: the command could not be queued (the mod folder is not writable, too many commands waiting). */
export class AgentUnavailable extends Schema.TaggedError<AgentUnavailable>()("AgentUnavailable", {
  error: Schema.String
}) {
  override get message() {
    return this.error
  }
}

/** 504: the mod did not answer within the command time-out; the command file was withdrawn. */
export class AgentTimedOut extends Schema.TaggedError<AgentTimedOut>()("AgentTimedOut", {
  error: Schema.String,
  id: Schema.String
}) {
  override get message() {
    return this.error
  }
}

/** Client only: the agent could not be reached (refused, reset, DNS, ...). */
export class AgentUnreachable extends Schema.TaggedError<AgentUnreachable>()("AgentUnreachable", {
  error: Schema.String,
  url: Schema.String
}) {
  override get message() {
    return this.error
  }
}

/** Client only: the agent answered something that is not one of its documented answers. */
export class AgentBadResponse extends Schema.TaggedError<AgentBadResponse>()("AgentBadResponse", {
  error: Schema.String,
  status: Schema.Number
}) {
  override get message() {
    return this.error
  }
}

/** Every way a call to the agent can fail, as the client reports it. */
export type AgentError =
  | AgentUnauthorized
  | AgentInvalidInput
  | AgentModError
  | AgentUnavailable
  | AgentTimedOut
  | AgentUnreachable
  | AgentBadResponse

const NotOk = Schema.Literal(false)

/** 401 on the wire. */
export const AgentUnauthorizedBody = Schema.transform(
  Schema.Struct({ ok: NotOk, error: Schema.String }),
  Schema.instanceOf(AgentUnauthorized),
  {
    strict: true,
    decode: (wire) => new AgentUnauthorized({ error: wire.error }),
    encode: (e) => ({ ok: false as const, error: e.error })
  }
).annotations(HttpApiSchema.annotations({ status: 401, description: "No `Authorization: Bearer <key>`, or the wrong key" }))

/** 400 on the wire. */
export const AgentInvalidInputBody = Schema.transform(
  Schema.Struct({ ok: NotOk, error: Schema.String, field: Schema.String }),
  Schema.instanceOf(AgentInvalidInput),
  {
    strict: true,
    decode: (wire) => new AgentInvalidInput({ error: wire.error, field: wire.field }),
    encode: (e) => ({ ok: false as const, error: e.error, field: e.field })
  }
).annotations(HttpApiSchema.annotations({ status: 400, description: "A field breaks its rule (`error` names it); nothing reached the mod" }))

/** 422 on the wire. */
export const AgentModErrorBody = Schema.transform(
  Schema.Struct({ ok: NotOk, error: Schema.String, id: Schema.String }),
  Schema.instanceOf(AgentModError),
  {
    strict: true,
    decode: (wire) => new AgentModError({ error: wire.error, id: wire.id }),
    encode: (e) => ({ ok: false as const, error: e.error, id: e.id })
  }
).annotations(HttpApiSchema.annotations({ status: 422, description: "The mod answered `ok: false`; `error` is its reason" }))

/** 503 on the wire. */
export const AgentUnavailableBody = Schema.transform(
  Schema.Struct({ ok: NotOk, error: Schema.String }),
  Schema.instanceOf(AgentUnavailable),
  {
    strict: true,
    decode: (wire) => new AgentUnavailable({ error: wire.error }),
    encode: (e) => ({ ok: false as const, error: e.error })
  }
).annotations(HttpApiSchema.annotations({ status: 503, description: "The command could not be queued" }))

/** 504 on the wire. */
export const AgentTimedOutBody = Schema.transform(
  Schema.Struct({ ok: NotOk, error: Schema.String, id: Schema.String }),
  Schema.instanceOf(AgentTimedOut),
  {
    strict: true,
    decode: (wire) => new AgentTimedOut({ error: wire.error, id: wire.id }),
    encode: (e) => ({ ok: false as const, error: e.error, id: e.id })
  }
).annotations(HttpApiSchema.annotations({ status: 504, description: "The mod did not answer in time; the command was withdrawn" }))

/** The message of a time-out, as the field conventions spell it. */
export const timedOutMessage = (timeoutMs: number) => `Command timed out after ${Math.round(timeoutMs)}ms`

/** The 401 message. */
export const UNAUTHORIZED_MESSAGE = "Authorization required"
