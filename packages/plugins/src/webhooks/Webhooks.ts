/**
 * `Webhooks`: targets that receive the events Garrison publishes
 * (`PublishedEvents`), their persisted queue and delivery log, test
 * deliveries, replays and the `webhooks` config backup. See README.md.
 *
 * Built as a scoped layer: it registers one durable event-bus handler per
 * published event class (each writes one outbox row per event some webhooks
 * take, in the publisher's transaction when it stages the event) and forks
 * the dispatcher (internal/queue.ts: outbox rows become deliveries, sent
 * with the limits and retries, giving way to the requests), both for the
 * life of the plugin.
 *
 * This file holds the service's interface, tag and layer; the parts it
 * wires live in internal/ by concept: targets.ts (the webhooks and their
 * secrets), enqueue.ts (the bus handlers), fanOut.ts (outbox to
 * deliveries), manualDeliveries.ts (test, replay), deliveryLog.ts (the log
 * and its retention), backup.ts.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import {
  type AuditActor,
  AuditTrail,
  cursorCodec,
  EventBus,
  GroupCommit,
  type InvalidCursor,
  Keyset,
  type PageOf,
  PublishedEvents,
  RequestLoad,
  SEALED_PREFIX,
  SealedSecrets,
  type SealingKey
} from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import { Servers } from "../servers/index.js"
import type {
  DeliveryStatus,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookEventType,
  WebhookInput,
  WebhookPatch,
  WebhooksBackup,
  WebhooksRestoreBody,
  WebhooksRestored
} from "./contract/Api.js"
import { webhooksConfig, type WebhooksSettings } from "./config.js"
import type { DeliveryNotFound, InvalidWebhook, WebhookConflict, WebhookNotFound, WebhookStoreError } from "./errors.js"
import { makeActiveWebhooks } from "./internal/active.js"
import { makeBackup } from "./internal/backup.js"
import { makeDeliveryLog } from "./internal/deliveryLog.js"
import { fail, type WebhooksDeps } from "./internal/deps.js"
import { registerEnqueue } from "./internal/enqueue.js"
import { makeInputChecks } from "./internal/inputChecks.js"
import { makeManualDeliveries } from "./internal/manualDeliveries.js"
import { makeOutbound } from "./internal/outbound.js"
import { makeQueue } from "./internal/queue.js"
import { makeTargetRows } from "./internal/targetRows.js"
import { makeTargets } from "./internal/targets.js"

export { MAX_LOGGED_PER_WEBHOOK } from "./internal/deliveryLog.js"

/** The key that seals webhook URLs and signing secrets at rest. */
export const WEBHOOKS_KEY = {
  name: "webhooks-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts stored webhook URLs and signing secrets (AES-256-GCM)",
    ifReplaced: "every webhook's URL must be entered again and its secret rotated"
  }
} as const satisfies SealingKey

export interface DeliveryListRequest {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly status?: DeliveryStatus | undefined
}

type Lookup = WebhookNotFound | WebhookStoreError

export interface WebhooksShape {
  /** Every webhook, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Webhook>, WebhookStoreError>
  readonly get: (id: string) => Effect.Effect<Webhook, Lookup>
  /** Stores a webhook; the answer carries its signing secret (shown this once). */
  readonly create: (input: WebhookInput, by: AuditActor) => Effect.Effect<WebhookCreated, InvalidWebhook | WebhookStoreError>
  readonly update: (id: string, patch: WebhookPatch, by: AuditActor) => Effect.Effect<Webhook, Lookup | InvalidWebhook>
  /** The webhook, its queue and its log. */
  readonly remove: (id: string, by: AuditActor) => Effect.Effect<void, Lookup>
  /** A new signing secret (answered once); the old one stops working at once. */
  readonly rotateSecret: (id: string, by: AuditActor) => Effect.Effect<string, Lookup>
  /** The delivery log, newest first. */
  readonly deliveries: (id: string, page: DeliveryListRequest) => Effect.Effect<PageOf<WebhookDelivery>, Lookup | InvalidCursor>
  /** Queues a finished delivery's payload again (same idempotency key). */
  readonly replay: (id: string, deliveryId: string, by: AuditActor) => Effect.Effect<WebhookDelivery, Lookup | DeliveryNotFound | WebhookConflict>
  /** Sends one test delivery now and answers it as logged. */
  readonly test: (id: string, event: string | undefined, by: AuditActor) => Effect.Effect<WebhookDelivery, Lookup | InvalidWebhook>
  /** Every published event, with an example payload. */
  readonly eventTypes: Effect.Effect<ReadonlyArray<WebhookEventType>>
  readonly backup: (includeSecrets: boolean, by: AuditActor) => Effect.Effect<WebhooksBackup, WebhookStoreError>
  readonly restore: (body: WebhooksRestoreBody, by: AuditActor) => Effect.Effect<WebhooksRestored, InvalidWebhook | WebhookStoreError>
  /** Retention of the delivery log; answers how many deliveries went. */
  readonly prune: Effect.Effect<number, WebhookStoreError>
}

/** The webhook list's order is creation; a cursor holds a page's last (createdAt, id). */
export const webhookPaging = Keyset.make({
  cursor: cursorCodec("webhooks", Schema.Tuple(Schema.String, Schema.String)),
  key: [
    { column: "created_at", direction: "asc", value: ([createdAt]) => createdAt },
    { column: "id", direction: "asc", value: ([, id]) => id }
  ],
  positionOf: (hook: Webhook) => [hook.createdAt, hook.id] as const
})

export class Webhooks extends Context.Tag("@garrison/plugins/Webhooks")<Webhooks, WebhooksShape>() {
  static readonly make = (settings: WebhooksSettings) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const bus = yield* EventBus
      const published = yield* PublishedEvents
      const notifications = yield* Notifications
      const servers = yield* Servers
      const audit = yield* AuditTrail
      const group = yield* GroupCommit

      const [sealedRows] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM webhooks WHERE url LIKE ${`${SEALED_PREFIX}%`}`.pipe(
        fail("count the stored webhooks")
      )
      const box = yield* (yield* SealedSecrets).box(WEBHOOKS_KEY, {
        sealedValuesExist: Number(sealedRows?.n ?? 0) > 0,
        sealedWhat: "webhook URLs and signing secrets"
      })
      const outbound = makeOutbound(settings.allowPrivate)
      const { active, current, reload } = yield* makeActiveWebhooks(sql)
      const deps: WebhooksDeps = { sql, box, settings, published, servers, audit, reload }

      const load = yield* RequestLoad
      const queue = yield* makeQueue({ sql, group, box, settings, outbound, notifications, audit, reload, load })
      const rows = makeTargetRows(deps)
      const checks = makeInputChecks(deps)

      yield* registerEnqueue(deps, bus, { active, current }, queue, group)
      yield* Effect.forkScoped(queue.run)

      return Webhooks.of({
        ...makeTargets(deps, rows, checks),
        ...makeDeliveryLog(deps, rows),
        ...makeManualDeliveries(deps, rows, outbound, queue),
        ...makeBackup(deps, rows, checks)
      })
    })

  /** Settings from the configuration (the environment by default). */
  static readonly layer = Layer.scoped(Webhooks, Effect.flatMap(webhooksConfig, Webhooks.make))
}
