/** Rows as stored, and their API form. */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { DeliveryStatus, EventSeverity, type EventSubscription, Webhook, WebhookDelivery, WebhookKind } from "../contract/Api.js"

export interface WebhookRow {
  readonly id: string
  readonly name: string
  readonly kind: string
  /** Sealed. */
  readonly url: string
  readonly url_masked: string
  /** Sealed. */
  readonly secret: string
  readonly events: string
  readonly servers: string | null
  readonly enabled: number | string
  readonly disabled_reason: string | null
  readonly failing_since: string | null
  readonly created_at: string
  readonly updated_at: string
}

/** A webhook as its views read it: the row, its pending count and its newest delivery (`last_*`, null without one). */
export interface WebhookViewRow extends WebhookRow {
  readonly pending: number | string
  readonly last_id: string | null
  readonly last_event: string | null
  readonly last_status: string | null
  readonly last_response_status: number | string | null
  readonly last_at: string | null
}

export interface DeliveryRow {
  readonly id: string
  readonly webhook_id: string
  readonly idempotency_key: string
  readonly event: string
  readonly severity: string
  readonly summary: string
  readonly server_id: string | null
  readonly server_name: string | null
  readonly payload: string
  readonly status: string
  readonly test: number | string
  readonly replay_of: string | null
  readonly attempts: number | string
  /** Of `attempts`, those a stop cut short (absent in a row built here: the column's default, 0). */
  readonly cut_attempts?: number | string
  readonly created_at: string
  readonly next_attempt_at: string | null
  readonly last_attempt_at: string | null
  readonly response_status: number | string | null
  readonly duration_ms: number | string | null
  readonly response_body: string | null
  readonly error: string | null
}

const isSeverity = Schema.is(EventSeverity)
const isStatus = Schema.is(DeliveryStatus)
const isKind = Schema.is(WebhookKind)
const SubscriptionsJson = Schema.parseJson(
  Schema.Array(Schema.Struct({ pattern: Schema.String, severities: Schema.NullOr(Schema.Array(EventSeverity)) }))
)
const ServersJson = Schema.parseJson(Schema.Array(Schema.String))
const readSubscriptions = Schema.decodeUnknownOption(SubscriptionsJson)
const readServers = Schema.decodeUnknownOption(ServersJson)

/** Stored by this plugin, so always readable; a row edited by hand reads as subscribing to nothing rather than failing the list. */
export const subscriptionsOf = (row: Pick<WebhookRow, "events">): ReadonlyArray<EventSubscription> =>
  Option.getOrElse(readSubscriptions(row.events), (): ReadonlyArray<EventSubscription> => [])

export const serversOf = (row: Pick<WebhookRow, "servers">): ReadonlyArray<string> | null =>
  row.servers === null ? null : Option.getOrElse(readServers(row.servers), (): ReadonlyArray<string> => [])

export const kindOf = (row: Pick<WebhookRow, "kind">) => (isKind(row.kind) ? row.kind : "http")

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value))

export const toWebhook = (row: WebhookViewRow): Webhook =>
  new Webhook(
    {
      id: row.id,
      name: row.name,
      kind: kindOf(row),
      url: row.url_masked,
      events: subscriptionsOf(row),
      servers: serversOf(row),
      enabled: Number(row.enabled) !== 0,
      disabledReason: row.disabled_reason,
      failingSince: row.failing_since,
      pending: Number(row.pending),
      lastDelivery:
        row.last_id === null
          ? null
          : {
              id: row.last_id,
              event: row.last_event ?? "",
              status: isStatus(row.last_status) ? row.last_status : "failed",
              responseStatus: numberOrNull(row.last_response_status),
              at: row.last_at ?? row.created_at
            },
      createdAt: row.created_at,
      updatedAt: row.updated_at
    },
    true
  )

export const toDelivery = (row: DeliveryRow): WebhookDelivery =>
  new WebhookDelivery(
    {
      id: row.id,
      webhookId: row.webhook_id,
      event: row.event,
      idempotencyKey: row.idempotency_key,
      severity: isSeverity(row.severity) ? row.severity : "info",
      summary: row.summary,
      serverId: row.server_id,
      status: isStatus(row.status) ? row.status : "failed",
      attempts: Number(row.attempts),
      cutAttempts: Number(row.cut_attempts ?? 0),
      createdAt: row.created_at,
      lastAttemptAt: row.last_attempt_at,
      nextAttemptAt: row.status === "pending" ? row.next_attempt_at : null,
      responseStatus: numberOrNull(row.response_status),
      durationMs: numberOrNull(row.duration_ms),
      responseBody: row.response_body,
      error: row.error,
      test: Number(row.test) !== 0,
      replayOf: row.replay_of
    },
    true
  )

/** Times as stored and answered: the runtime's ISO 8601 text. */
export { isoOf as iso } from "@garrison/runtime"
