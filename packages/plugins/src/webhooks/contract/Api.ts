/**
 * The webhooks contract (admin only): targets that receive the events
 * Garrison publishes, their delivery log, test deliveries, replays, the
 * event types, and the `webhooks` config backup. Made for the dashboard's
 * `HttpApiClient`: request bodies are plain structs, answers classes.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  ADMIN,
  BadRequest,
  BodyExample,
  Conflict,
  isEventPattern,
  NotFound,
  pageFields,
  pageParams,
  StoredText,
  totalField,
  TrimmedStoredText
} from "@garrison/runtime"
import { MAX_URL_LENGTH, urlProblem } from "../internal/url.js"

export const EVENT_SEVERITIES = ["info", "success", "warning", "error"] as const
/** How an event reads to a person (the chat embed's colour); a notification's level is its severity. */
export const EventSeverity = Schema.Literal(...EVENT_SEVERITIES)

export const WEBHOOK_KINDS = ["http", "discord"] as const
/** `http`: the JSON payload, signed. `discord`: a chat-platform (Discord-style) webhook, which gets an embed. */
export const WebhookKind = Schema.Literal(...WEBHOOK_KINDS)
export type WebhookKind = typeof WebhookKind.Type

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const
export const DeliveryStatus = Schema.Literal(...DELIVERY_STATUSES)
export type DeliveryStatus = typeof DeliveryStatus.Type

export const MAX_SUBSCRIPTIONS = 50
export const MAX_SERVERS = 100
/** The event name of a test delivery (`POST /api/webhooks/:id/test` without `event`). */
export const TEST_EVENT = "webhook.test"

/** `server.started`, `server.*` or `*`. */
export const EventPattern = StoredText.pipe(
  Schema.maxLength(200, { message: () => "must be at most 200 characters" }),
  Schema.filter((pattern) => isEventPattern(pattern) || "must be an event name (server.started), the first words of names and .* (server.*), or *")
).annotations({ description: "An event name, a prefix ending in `.*`, or `*` (see GET /api/webhooks/events)" })

const Severities = Schema.Array(EventSeverity).pipe(Schema.minItems(1), Schema.maxItems(EVENT_SEVERITIES.length))

/**
 * One subscription: an event name or pattern, and optionally the
 * severities it takes (`["warning", "error"]` of `notification.published`
 * are the warning and error notifications).
 */
export const EventSubscriptionInput = Schema.Struct({
  pattern: EventPattern,
  /** Left out or null: every severity. */
  severities: Schema.optional(Schema.NullOr(Severities))
}).annotations({ identifier: "WebhookEventSubscriptionInput" })
export type EventSubscriptionInput = typeof EventSubscriptionInput.Type

/** A subscription as stored and shown. */
export const EventSubscription = Schema.Struct({
  pattern: Schema.String,
  /** null: every severity. */
  severities: Schema.NullOr(Schema.Array(EventSeverity))
}).annotations({ identifier: "WebhookEventSubscription" })
export type EventSubscription = typeof EventSubscription.Type

/** An http(s) URL, at most 2,048 characters, without credentials. Its words never quote it (it may hold a token). */
export const WebhookUrl = Schema.String.pipe(
  Schema.filter((url) => urlProblem(url) ?? true)
).annotations({ description: `An http or https URL of at most ${MAX_URL_LENGTH} characters, without user:password@` })

const Name = TrimmedStoredText.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(100, { message: () => "must be at most 100 characters" })
)
const ServerId = StoredText.pipe(Schema.minLength(1), Schema.maxLength(100))
const Subscriptions = Schema.Array(EventSubscriptionInput).pipe(
  Schema.minItems(1, { message: () => "must name at least one event or pattern" }),
  Schema.maxItems(MAX_SUBSCRIPTIONS, { message: () => `must hold at most ${MAX_SUBSCRIPTIONS} subscriptions` })
)
/** null (or left out): events about every server and controller-wide ones; a list: events about those servers only. */
const Servers = Schema.NullOr(
  Schema.Array(ServerId).pipe(
    Schema.minItems(1, { message: () => "must name at least one server, or be null for every server" }),
    Schema.maxItems(MAX_SERVERS, { message: () => `must name at most ${MAX_SERVERS} servers` })
  )
)

export const WebhookInput = Schema.Struct({
  name: Name,
  url: WebhookUrl,
  /** Left out: `discord` for a discord.com webhook URL, else `http`. */
  kind: Schema.optional(WebhookKind),
  events: Subscriptions,
  servers: Schema.optional(Servers),
  enabled: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "WebhookInput" })
export type WebhookInput = typeof WebhookInput.Type

/** Fields left out keep their value; `servers: null` means every server again. */
export const WebhookPatch = Schema.Struct({
  name: Schema.optional(Name),
  url: Schema.optional(WebhookUrl),
  kind: Schema.optional(WebhookKind),
  events: Schema.optional(Subscriptions),
  servers: Schema.optional(Servers),
  /** true also clears the reason of an automatic disable and starts its failure clock again. */
  enabled: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "WebhookPatch" })
export type WebhookPatch = typeof WebhookPatch.Type

/** A webhook's newest delivery (its log's first row), for lists. */
export const LastDelivery = Schema.Struct({
  id: Schema.String,
  /** The event's public name (`server.restarted`, or `webhook.test`). */
  event: Schema.String,
  status: DeliveryStatus,
  /** The last answer's status; null when there was none yet or no answer. */
  responseStatus: Schema.NullOr(Schema.Int),
  /** Its last attempt, or when it was queued if there was none yet (ISO-8601). */
  at: Schema.String
}).annotations({ identifier: "WebhookLastDelivery" })
export type LastDelivery = typeof LastDelivery.Type

export class Webhook extends Schema.Class<Webhook>("Webhook")({
  id: Schema.String,
  name: Schema.String,
  kind: WebhookKind,
  /** Masked: scheme, host and the harmless part of the path (`https://discord.com/api/webhooks/123/••••`). */
  url: Schema.String,
  events: Schema.Array(EventSubscription),
  servers: Schema.NullOr(Schema.Array(Schema.String)),
  enabled: Schema.Boolean,
  /** Why it was disabled automatically (every attempt failed for a day); null otherwise. */
  disabledReason: Schema.NullOr(Schema.String),
  /** Since when every attempt has failed (ISO-8601); null while the last attempt succeeded. */
  failingSince: Schema.NullOr(Schema.String),
  /** Deliveries waiting for their next attempt. */
  pending: Schema.Int,
  /** Its newest delivery (tests and replays included); null before the first. */
  lastDelivery: Schema.NullOr(LastDelivery),
  createdAt: Schema.String,
  updatedAt: Schema.String
}) {}

/** A webhook just made: with its signing secret, shown this once. */
export class WebhookCreated extends Schema.Class<WebhookCreated>("WebhookCreated")({
  ...Webhook.fields,
  /** The HMAC-SHA256 key of `X-Garrison-Signature`; shown only here (and by a rotation). */
  secret: Schema.String
}) {}

export class WebhookSecret extends Schema.Class<WebhookSecret>("WebhookSecret")({
  /** The new signing secret; the old one stops working at once. Shown only here. */
  secret: Schema.String
}) {}

export const WEBHOOK_PAGE = { defaultLimit: 100, maxLimit: 500 } as const
export const WebhookListParams = Schema.Struct(pageParams(WEBHOOK_PAGE))

/** Oldest first (by creation). */
export class WebhookPage extends Schema.Class<WebhookPage>("WebhookPage")({
  ...pageFields(Webhook),
  ...totalField
}) {}

export class WebhookDelivery extends Schema.Class<WebhookDelivery>("WebhookDelivery")({
  id: Schema.String,
  webhookId: Schema.String,
  /** The event's public name (`server.restarted`, or `webhook.test`). */
  event: Schema.String,
  /** Sent as `Idempotency-Key`: the same on every attempt and replay of this event's delivery to this webhook. */
  idempotencyKey: Schema.String,
  severity: EventSeverity,
  /** The event in one line. */
  summary: Schema.String,
  serverId: Schema.NullOr(Schema.String),
  status: DeliveryStatus,
  attempts: Schema.Int,
  /**
   * Of `attempts`, those a controller stop cut short: the target may or may not have had them, so it got between
   * `attempts - cutAttempts` and `attempts` requests for this delivery (all with its `Idempotency-Key`).
   */
  cutAttempts: Schema.Int,
  /** When the event was queued (ISO-8601). */
  createdAt: Schema.String,
  lastAttemptAt: Schema.NullOr(Schema.String),
  /** While pending: when the next attempt is due. */
  nextAttemptAt: Schema.NullOr(Schema.String),
  /** The last answer's status; null when there was none (time-out, connection failure, refused address). */
  responseStatus: Schema.NullOr(Schema.Int),
  /** How long the last attempt took. */
  durationMs: Schema.NullOr(Schema.Int),
  /** The first KiB of the last answer's body, control characters replaced. */
  responseBody: Schema.NullOr(Schema.String),
  /** Why the last attempt failed. */
  error: Schema.NullOr(Schema.String),
  /** A test delivery (`POST /api/webhooks/:id/test`): one attempt, no retries. */
  test: Schema.Boolean,
  /** The delivery this one replays. */
  replayOf: Schema.NullOr(Schema.String)
}) {}

export const DELIVERY_PAGE = { defaultLimit: 50, maxLimit: 200 } as const
export const DeliveryListParams = Schema.Struct({
  ...pageParams(DELIVERY_PAGE),
  status: Schema.optional(DeliveryStatus).annotations({ description: "Only deliveries in this state" })
})

/** Newest first. */
export class WebhookDeliveryPage extends Schema.Class<WebhookDeliveryPage>("WebhookDeliveryPage")({
  ...pageFields(WebhookDelivery)
}) {}

/** A delivery's body to an `http` target. */
export const EventPayload = Schema.Struct({
  event: Schema.String,
  timestamp: Schema.String,
  data: Schema.Record({ key: Schema.String, value: Schema.Unknown })
}).annotations({ identifier: "WebhookEventPayload" })

export class WebhookEventType extends Schema.Class<WebhookEventType>("WebhookEventType")({
  name: Schema.String,
  description: Schema.String,
  /**
   * The severities its events can have, mildest first: one for most; several when it depends on what happened
   * (`scheduler.job`: info, success or error), every one for `notification.published` (the notification's level).
   */
  severities: Schema.Array(EventSeverity),
  /** The plugin that publishes it. */
  plugin: Schema.String,
  /** The payload an `http` target would receive. */
  example: EventPayload
}) {}

export class WebhookEventTypes extends Schema.Class<WebhookEventTypes>("WebhookEventTypes")({
  items: Schema.Array(WebhookEventType)
}) {}

export const TestBody = Schema.Struct({
  /** A published event whose example to send; left out: a `webhook.test` event. */
  event: Schema.optional(StoredText.pipe(Schema.maxLength(200)))
}).annotations({ identifier: "WebhookTestBody" })

export const WebhookPath = Schema.Struct({ id: Schema.String })
export const DeliveryPath = Schema.Struct({ id: Schema.String, deliveryId: Schema.String })

const EXAMPLE_INPUT = {
  name: "Ops channel",
  url: "https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz",
  events: [{ pattern: "server.*" }, { pattern: "notification.published", severities: ["warning", "error"] }],
  servers: null
}

export class WebhooksGroup extends HttpApiGroup.make("webhooks").annotate(OpenApi.Description, "Webhooks that deliver events to other services.")
  .add(
    HttpApiEndpoint.get("list", "/api/webhooks")
      .setUrlParams(WebhookListParams)
      .addSuccess(WebhookPage)
      .annotate(OpenApi.Summary, "List webhooks")
      .annotate(OpenApi.Description, "Every webhook, oldest first, its URL masked, with its newest delivery; never a secret.")
  )
  .add(
    HttpApiEndpoint.post("create", "/api/webhooks")
      .setPayload(WebhookInput)
      .addSuccess(WebhookCreated, { status: 201 })
      .annotate(OpenApi.Summary, "Create a webhook")
      .annotate(
        OpenApi.Description,
        "Subscribes a target to events by name or pattern (`server.*`, `*`), for some servers or all. The answer holds " +
          "the signing secret, shown this once. 400 naming the field for a pattern that matches no published event, a " +
          "server that does not exist, or a private address while `WEBHOOKS_ALLOW_PRIVATE` is off."
      )
      .annotate(BodyExample, EXAMPLE_INPUT)
  )
  .add(
    HttpApiEndpoint.get("events", "/api/webhooks/events")
      .addSuccess(WebhookEventTypes)
      .annotate(OpenApi.Summary, "List event types")
      .annotate(OpenApi.Description, "Every event the loaded plugins publish, with a description, the severities it can have and an example payload.")
  )
  .add(
    HttpApiEndpoint.get("get", "/api/webhooks/:id")
      .setPath(WebhookPath)
      .addSuccess(Webhook)
      .annotate(OpenApi.Summary, "Read a webhook")
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/webhooks/:id")
      .setPath(WebhookPath)
      .setPayload(WebhookPatch)
      .addSuccess(Webhook)
      .annotate(OpenApi.Summary, "Change a webhook")
      .annotate(OpenApi.Description, "Fields left out keep their value. `enabled: true` turns a disabled webhook on again.")
      .annotate(BodyExample, { events: [{ pattern: "server.crashed" }, { pattern: "server.restarted" }], enabled: true })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/webhooks/:id")
      .setPath(WebhookPath)
      .annotate(OpenApi.Summary, "Delete a webhook")
      .annotate(OpenApi.Description, "The webhook, its queue and its delivery log.")
  )
  .add(
    HttpApiEndpoint.post("rotateSecret", "/api/webhooks/:id/rotate-secret")
      .setPath(WebhookPath)
      .addSuccess(WebhookSecret)
      .annotate(OpenApi.Summary, "Rotate a webhook's signing secret")
      .annotate(OpenApi.Description, "A new secret, shown this once; the old one stops working at once (deliveries still queued are signed with the new one).")
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/api/webhooks/:id/deliveries")
      .setPath(WebhookPath)
      .setUrlParams(DeliveryListParams)
      .addSuccess(WebhookDeliveryPage)
      .annotate(OpenApi.Summary, "List a webhook's deliveries")
      .annotate(
        OpenApi.Description,
        "The delivery log, newest first: status, attempts, the last answer's status, duration and first KiB. Finished " +
          "deliveries are kept for `WEBHOOKS_LOG_RETENTION` (the newest 1,000 per webhook)."
      )
  )
  .add(
    HttpApiEndpoint.post("replay", "/api/webhooks/:id/deliveries/:deliveryId/replay")
      .setPath(DeliveryPath)
      .addSuccess(WebhookDelivery, { status: 202 })
      .annotate(OpenApi.Summary, "Replay a delivery")
      .annotate(
        OpenApi.Description,
        "Queues the same payload again as a new delivery (with the same `Idempotency-Key`, so a receiver that got it " +
          "already can tell), retried like any other. 409 while the delivery is still pending or the webhook is disabled."
      )
  )
  .add(
    HttpApiEndpoint.post("test", "/api/webhooks/:id/test")
      .setPath(WebhookPath)
      // No body at all (decoded as null) means the same as `{}`.
      .setPayload(Schema.NullOr(TestBody))
      .addSuccess(WebhookDelivery)
      .annotate(OpenApi.Summary, "Send a test delivery")
      .annotate(
        OpenApi.Description,
        "Sends one delivery now (a `webhook.test` event, or the example of the published event named in `event`) and " +
          "answers it as logged: one attempt, no retries, whether or not the webhook is enabled."
      )
      .annotate(BodyExample, { event: "server.restarted" })
  )
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, Access.permission(ADMIN)) {}

// Config backups (spec "Config backups"): the servers and accounts plugins serve their types the same way.

/** A webhook in a backup. `url` is masked and `secret` left out unless the backup was taken with `?secrets=include`. */
export const BackupWebhook = Schema.Struct({
  /** Letters, digits, `-` and `_` (what `POST /api/webhooks` makes: a UUID). */
  id: Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/, { message: () => "must be 1 to 64 letters, digits, - or _" })
  ),
  name: Name,
  kind: WebhookKind,
  /** The full URL, or the masked one (which keeps the URL a webhook of this id has). */
  url: StoredText.pipe(Schema.maxLength(MAX_URL_LENGTH, { message: () => `must be at most ${MAX_URL_LENGTH} characters` })),
  /** The signing secret; left out: kept (an existing webhook) or made anew (a new one, answered once). */
  secret: Schema.optional(StoredText.pipe(Schema.minLength(16), Schema.maxLength(256))),
  events: Subscriptions,
  servers: Servers,
  enabled: Schema.Boolean
}).annotations({ identifier: "BackupWebhook" })
export type BackupWebhook = typeof BackupWebhook.Type

export class WebhooksBackup extends Schema.Class<WebhooksBackup>("WebhooksBackup")({
  kind: Schema.Literal("garrison.webhooks"),
  version: Schema.Literal(1),
  exportedAt: Schema.optional(Schema.String),
  webhooks: Schema.Array(BackupWebhook).pipe(Schema.maxItems(1000))
}) {}

export const WebhooksRestoreBody = Schema.Struct(WebhooksBackup.fields).annotations({ identifier: "WebhooksRestoreBody" })
export type WebhooksRestoreBody = typeof WebhooksRestoreBody.Type

export const NewSecret = Schema.Struct({ id: Schema.String, name: Schema.String, secret: Schema.String }).annotations({
  identifier: "WebhookNewSecret"
})

export class WebhooksRestored extends Schema.Class<WebhooksRestored>("WebhooksRestored")({
  created: Schema.Array(Schema.String),
  updated: Schema.Array(Schema.String),
  /** Secrets made for restored webhooks that had none in the backup; shown only here. */
  secrets: Schema.Array(NewSecret)
}) {}

export const BackupParams = Schema.Struct({
  /** `include`: full URLs and signing secrets (audited). */
  secrets: Schema.optional(Schema.Literal("include"))
})

export class WebhooksBackupGroup extends HttpApiGroup.make("webhooksBackup").annotate(OpenApi.Description, "Backing up and restoring webhooks.")
  .add(
    HttpApiEndpoint.get("backup", "/api/backup/webhooks")
      .setUrlParams(BackupParams)
      .addSuccess(WebhooksBackup)
      .annotate(OpenApi.Summary, "Back up webhooks")
      .annotate(
        OpenApi.Description,
        "Every webhook with its subscriptions, URLs masked and no signing secret; `?secrets=include` gives the full " +
          "URLs and the secrets (audited), for a restore on another controller."
      )
  )
  .add(
    HttpApiEndpoint.post("restore", "/api/restore/webhooks")
      .setPayload(WebhooksRestoreBody)
      .addSuccess(WebhooksRestored)
      .annotate(OpenApi.Summary, "Restore webhooks")
      .annotate(BodyExample, {
        kind: "garrison.webhooks",
        version: 1,
        exportedAt: "2026-01-31T12:00:00.000Z",
        webhooks: [
          {
            id: "5f0c8e2a-3b1d-4c7e-9a6f-2d4b8e1c0a93",
            name: "Ops channel",
            kind: "discord",
            url: "https://discord.com/api/webhooks/123456789012345678/••••",
            events: [{ pattern: "server.*", severities: null }],
            servers: null,
            enabled: true
          }
        ]
      })
      .annotate(
        OpenApi.Description,
        "Webhooks are matched by id and created or updated; webhooks not in the backup are kept. A masked URL keeps the " +
          "URL of the webhook with that id (400 naming it for a new one); a left-out secret is kept, or made anew and " +
          "answered once in `secrets`."
      )
  )
  .addError(BadRequest)
  .annotate(Access, Access.permission(ADMIN)) {}

export class WebhooksApi extends HttpApi.make("webhooks").add(WebhooksGroup).add(WebhooksBackupGroup) {}
