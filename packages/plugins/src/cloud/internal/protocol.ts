/**
 * The relay's messages as one connection reads them: size-limited JSON,
 * decoded against `Inbound`, and dispatched (`welcome`, `ping`, `action`);
 * anything else is answered with an `error`. Also the `hello` the
 * controller opens with.
 */
import type * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { MAX_INBOUND_BYTES } from "../config.js"
import { type ActionRequest, Inbound, type Outbound, PROTOCOL_VERSION } from "../contract/Protocol.js"

const decodeInbound = Schema.decodeUnknownEither(Inbound)

/** What a connection does with each message the relay sends. */
export interface InboundHandlers {
  /** Sends on this connection. */
  readonly send: (message: Outbound) => Effect.Effect<void>
  readonly welcomed: () => boolean
  readonly onWelcome: Effect.Effect<void>
  readonly onAction: (request: ActionRequest) => Effect.Effect<void>
}

/** The first message on a connection: the protocol, the link token, this controller's version. */
export const helloOf = (token: string, version: string): Outbound => ({ type: "hello", protocol: PROTOCOL_VERSION, token, controller: { version } })

export const handleInbound = (handlers: InboundHandlers, data: string | Uint8Array): Effect.Effect<void> => {
  const { send } = handlers
  const size = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength
  if (size > MAX_INBOUND_BYTES) return send({ type: "error", message: `messages are limited to ${MAX_INBOUND_BYTES} bytes` })
  let parsed: unknown
  try {
    parsed = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data))
  } catch {
    return send({ type: "error", message: "messages are JSON objects" })
  }
  const message = decodeInbound(parsed)
  if (Either.isLeft(message)) return send({ type: "error", message: "unknown message: expected welcome, ping or action" })
  switch (message.right.type) {
    case "welcome":
      return handlers.onWelcome
    case "ping":
      return send({ type: "pong" })
    case "action": {
      const request = message.right
      if (!handlers.welcomed()) {
        return send({ type: "action.result", id: request.id, ok: false, error: { code: "not-connected", message: "no action before welcome" } })
      }
      return handlers.onAction(request)
    }
  }
}
