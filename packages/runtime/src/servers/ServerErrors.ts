/**
 * The errors every route about a server answers with, in one place, so a
 * missing server reads the same from every plugin (and in logs and the
 * scheduler), and an actor's refusal maps to one status everywhere.
 *
 * - `ServerNotFound` (404): no entry with this id, or it was just deleted.
 * - `ServerUnreadable` (409, `details.reason: "invalid-entry"`): the entry
 *   is stored but cannot be read; nothing can run it until it is restored
 *   or deleted.
 * - `ServerFault` (500): a real fault starting or stopping the process.
 * - `actorErrorToHttp`: an actor's refusal as the status a caller can act on
 *   (409 fix the state, 503 try again shortly, 404 gone, 500 fault, 502 the
 *   agent answered badly, 504 the agent's mod did not answer in time).
 */
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { BadGateway, Conflict, GatewayTimeout, Unavailable } from "../http/ApiErrors.js"
import type { ActorError } from "./ActorError.js"

export class ServerNotFound extends Schema.TaggedError<ServerNotFound>()(
  "ServerNotFound",
  { message: Schema.String, details: Schema.Struct({ serverId: Schema.String }) },
  HttpApiSchema.annotations({ status: 404 })
) {
  static of(serverId: string): ServerNotFound {
    return new ServerNotFound({ message: `no server with id ${serverId}`, details: { serverId } })
  }
}

export class ServerUnreadable extends Schema.TaggedError<ServerUnreadable>()(
  "ServerUnreadable",
  {
    message: Schema.String,
    details: Schema.Struct({ serverId: Schema.String, reason: Schema.Literal("invalid-entry"), why: Schema.String })
  },
  HttpApiSchema.annotations({ status: 409 })
) {
  static of(entry: { readonly id: string; readonly name: string; readonly reason: string }): ServerUnreadable {
    return new ServerUnreadable({
      message: `server "${entry.name}" (${entry.id}) cannot be read (${entry.reason}); delete it, or restore a servers backup`,
      details: { serverId: entry.id, reason: "invalid-entry", why: entry.reason }
    })
  }
}

/** A real fault starting or stopping a server (the spawn failed, SIGKILL did not end it): 500 with the reason. */
export class ServerFault extends Schema.TaggedError<ServerFault>()(
  "ServerFault",
  { message: Schema.String, details: Schema.optional(Schema.Unknown) },
  HttpApiSchema.annotations({ status: 500 })
) {}

export type ActorHttpError = Conflict | Unavailable | ServerFault | ServerNotFound | BadGateway | GatewayTimeout

/** The errors a route that acts on a server declares (add each with `.addError`). */
export const serverActionErrors = [ServerNotFound, ServerUnreadable, Conflict, Unavailable, ServerFault, BadGateway, GatewayTimeout] as const

export const actorErrorToHttp = (error: ActorError): ActorHttpError => {
  const details = { reason: error.reason }
  switch (error.reason) {
    case "removed":
      return ServerNotFound.of(error.serverId)
    case "already-running":
    case "not-running":
    case "hook-failed":
    case "invalid-entry":
    case "ports-in-use":
    case "busy":
    case "cancelled":
    case "unsupported":
    case "refused":
    case "runs-as-root":
      return new Conflict({ message: error.message, details })
    case "agent-failed":
      return new BadGateway({ message: error.message, details })
    case "agent-timed-out":
      return new GatewayTimeout({ message: error.message, details })
    case "rcon-unavailable":
    case "rcon-failed":
    case "provider-unavailable":
      return new Unavailable({ message: error.message, details })
    case "spawn-failed":
    case "stop-failed":
    case "restart-failed":
      return new ServerFault({ message: error.message, details })
  }
}
