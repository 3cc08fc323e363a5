/**
 * A delivery as it goes out, and one attempt at it.
 *
 * An `http` target gets the stored payload, `{event, timestamp, data}`, as
 * it is on every attempt; a `discord` target gets a chat message made from
 * it (see chat.ts). Headers: `X-Garrison-Event`, `X-Garrison-Webhook-Id`,
 * `X-Garrison-Delivery` (the log's delivery id), `Idempotency-Key` (the same
 * on every attempt and replay), `X-Garrison-Attempt` and
 * `X-Garrison-Signature` (`t=<unix>,v1=<hex HMAC-SHA256 of "${t}.${body}">`).
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { EventSeverity } from "@garrison/runtime"
import type { WebhookKind } from "../contract/Api.js"
import { chatMessage } from "./chat.js"
import type { Outbound, OutboundResult } from "./outbound.js"
import { signatureHeader } from "./signature.js"

/** Largest body sent: a payload over it carries `{truncated: true, bytes}` as its data. */
export const MAX_BODY_BYTES = 256 * 1024
/** How much of an answer is read and kept in the log. */
export const MAX_RESPONSE_BYTES = 1024

export const USER_AGENT = "Garrison-Webhooks/1"

/** The payload's JSON text, `{event, timestamp, data}`, within `MAX_BODY_BYTES`. */
export const payloadText = (event: string, timestamp: string, data: Readonly<Record<string, unknown>>): string => {
  const text = JSON.stringify({ event, timestamp, data })
  const bytes = Buffer.byteLength(text, "utf8")
  return bytes <= MAX_BODY_BYTES ? text : JSON.stringify({ event, timestamp, data: { truncated: true, bytes } })
}

export interface Target {
  readonly id: string
  readonly kind: WebhookKind
  /** Opened (clear). */
  readonly url: string
  /** Opened (clear). */
  readonly secret: string
}

export interface Outgoing {
  readonly deliveryId: string
  readonly idempotencyKey: string
  readonly event: string
  readonly payload: string
  readonly summary: string
  readonly severity: EventSeverity
  readonly serverName: string | null
  readonly attempt: number
}

const chatBody = (outgoing: Outgoing): string => {
  const parsed = JSON.parse(outgoing.payload) as { readonly timestamp?: unknown; readonly data?: unknown }
  const data = typeof parsed.data === "object" && parsed.data !== null && !Array.isArray(parsed.data) ? (parsed.data as Record<string, unknown>) : {}
  return JSON.stringify(
    chatMessage({
      event: outgoing.event,
      timestamp: typeof parsed.timestamp === "string" ? parsed.timestamp : new Date(0).toISOString(),
      data,
      summary: outgoing.summary,
      severity: outgoing.severity,
      serverName: outgoing.serverName
    })
  )
}

/** The body and headers of one attempt, signed at `nowMs`. */
export const requestFor = (target: Target, outgoing: Outgoing, nowMs: number) => {
  const body = target.kind === "discord" ? chatBody(outgoing) : outgoing.payload
  return {
    url: target.url,
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "x-garrison-event": outgoing.event,
      "x-garrison-webhook-id": target.id,
      "x-garrison-delivery": outgoing.deliveryId,
      "idempotency-key": outgoing.idempotencyKey,
      "x-garrison-attempt": String(outgoing.attempt),
      "x-garrison-signature": signatureHeader(target.secret, Math.floor(nowMs / 1000), body)
    },
    maxResponseBytes: MAX_RESPONSE_BYTES
  }
}

export type AttemptResult = OutboundResult | { readonly _tag: "TimedOut"; readonly afterMs: number }

/** One attempt, within `timeout` on Effect's clock: the result, when it began and how long it took. */
export const attemptOnce = (outbound: Outbound, target: Target, outgoing: Outgoing, timeout: Duration.Duration) =>
  Effect.gen(function* () {
    const startedAt = yield* Clock.currentTimeMillis
    const afterMs = Duration.toMillis(timeout)
    const result: AttemptResult = yield* outbound.post(requestFor(target, outgoing, startedAt)).pipe(
      Effect.timeoutTo({
        duration: timeout,
        onSuccess: (answer): AttemptResult => answer,
        onTimeout: (): AttemptResult => ({ _tag: "TimedOut", afterMs })
      })
    )
    const endedAt = yield* Clock.currentTimeMillis
    return { result, startedAt, endedAt, durationMs: Math.max(0, endedAt - startedAt) }
  })
