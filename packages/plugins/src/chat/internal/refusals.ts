/**
 * The failures the services an action calls can answer, as the bot hears
 * them: the status and code every other route answers with, and the
 * service's words. A store error is not a refusal: it dies and the host
 * answers 500 with a request id, as everywhere.
 */
import * as Effect from "effect/Effect"
import { type ActorError, actorErrorToHttp } from "@garrison/runtime"
import { ChatActionRefused } from "../errors.js"

const refused = (status: number, code: string, message: string, details?: unknown) =>
  new ChatActionRefused({ status, code, message, ...(details === undefined ? {} : { details }) })

const HTTP_TAGS: Readonly<Record<string, readonly [number, string]>> = {
  BadRequest: [400, "invalid-request"],
  NotFound: [404, "not-found"],
  ServerNotFound: [404, "not-found"],
  Conflict: [409, "conflict"],
  ServerUnreadable: [409, "conflict"],
  Unavailable: [503, "unavailable"],
  BadGateway: [502, "bad-gateway"],
  GatewayTimeout: [504, "gateway-timeout"]
}

interface Tagged {
  readonly _tag: string
  readonly message?: unknown
  readonly details?: unknown
}

/** The refusal for a service failure, or undefined for one that is a fault (it dies). */
export const refusalOf = (error: Tagged): ChatActionRefused | undefined => {
  const message = typeof error.message === "string" ? error.message : undefined
  switch (error._tag) {
    case "ChatActionRefused":
      return error as ChatActionRefused
    case "ActorError": {
      const http = actorErrorToHttp(error as ActorError) as Tagged
      return http._tag === "ServerFault" ? undefined : refusalOf(http)
    }
    case "ProviderUnavailable":
      return refused(503, "provider-unavailable", message ?? "nothing can run this action now", error.details)
    // No agent set up: a setting to change, not a passing state (no Retry-After), as the actions routes answer it.
    case "AgentNotConfigured":
      return refused(409, "agent-not-configured", message ?? "this server has no agent", error.details)
    case "AgentInvalidInput": {
      const invalid = error as unknown as { readonly error: string; readonly field: string }
      return refused(400, "invalid-request", `params.${invalid.field}: ${invalid.error}`)
    }
    case "ModNotFound": {
      const missing = error as unknown as { readonly mod: string }
      return refused(404, "not-found", `no mod "${missing.mod}" is installed on this server`)
    }
    case "ModConflict":
      return refused(409, "conflict", message ?? "the mods cannot change now")
    case "InvalidModRequest":
    case "InvalidBan":
    case "InvalidPriorityEntry": {
      const field = (error as unknown as { readonly field: string }).field
      return refused(400, "invalid-request", `params.${field}: ${message ?? "invalid"}`)
    }
    case "WorkshopUnavailable":
      return refused(503, "unavailable", message ?? "the Steam Workshop cannot be reached")
    case "BanNotFound":
      return refused(404, "not-found", "no such ban")
    case "PriorityEntryNotFound":
      return refused(404, "not-found", "no such priority entry")
    default: {
      const http = HTTP_TAGS[error._tag]
      return http === undefined ? undefined : refused(http[0], http[1], message ?? error._tag, error.details)
    }
  }
}

/** Every failure of `self` as a refusal; the rest die. */
export const asRefusal = <A, E extends Tagged, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, ChatActionRefused, R> =>
  Effect.catchAll(self, (error) => {
    const refusal = refusalOf(error)
    return refusal === undefined ? Effect.die(error) : Effect.fail(refusal)
  })

export { refused }
