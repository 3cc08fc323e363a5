/**
 * Webhooks: HTTP and chat-platform targets that receive the events the
 * loaded plugins publish (`PublishedEvents`), by name or pattern, for some
 * servers or all; delivered at least once from a persisted queue, retried
 * with backoff, signed, logged, replayable; a target failing for a day is
 * disabled and the admins are told. Admin only: `/api/webhooks` and the
 * `webhooks` config backup. See README.md.
 */
import * as Effect from "effect/Effect"
import { AuditTrail, Plugin } from "@garrison/runtime"
import * as Layer from "effect/Layer"
import { webhooksConfig } from "./config.js"
import { webhookGauges } from "./internal/gauges.js"
import { WebhooksApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { WebhooksRoutes } from "./routes.js"
import { Webhooks } from "./Webhooks.js"

export const WebhooksPlugin = Plugin.make({
  id: "webhooks",
  description: "Webhooks: events delivered to HTTP and chat-platform targets, signed, retried and logged",
  // Notifications: a disabled webhook is told to the admins. Servers: the server names in chat embeds, the servers a webhook names.
  dependsOn: ["notifications", "servers"],
  // Records audit rows (changes, disables) through the trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  migrations,
  // The queue's depth, for an exporter's scrape (see internal/gauges.ts).
  layer: Layer.merge(Webhooks.layer, webhookGauges),
  http: Plugin.http(WebhooksApi, WebhooksRoutes),
  checkSettings: Effect.asVoid(webhooksConfig),
  jobs: [
    {
      name: "log-retention",
      every: "1 hour",
      run: Effect.flatMap(Webhooks, (webhooks) => webhooks.prune).pipe(
        Effect.flatMap((removed) => (removed > 0 ? Effect.logInfo(`webhooks: log retention removed ${removed} deliveries`) : Effect.void))
      )
    }
  ]
})

export {
  BackupWebhook,
  DELIVERY_STATUSES as WEBHOOK_DELIVERY_STATUSES,
  DeliveryListParams as WebhookDeliveryListParams,
  DeliveryStatus as WebhookDeliveryStatus,
  EVENT_SEVERITIES as WEBHOOK_EVENT_SEVERITIES,
  EventPayload as WebhookEventPayload,
  EventSubscription as WebhookEventSubscription,
  EventSubscriptionInput as WebhookEventSubscriptionInput,
  TEST_EVENT as WEBHOOK_TEST_EVENT,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEventType,
  WebhookEventTypes,
  WebhookInput,
  WEBHOOK_KINDS,
  WebhookKind,
  WebhookPage,
  WebhookPatch,
  WebhooksApi,
  WebhooksBackup,
  WebhooksBackupGroup,
  WebhookSecret,
  WebhooksGroup,
  WebhooksRestoreBody,
  WebhooksRestored
} from "./contract/Api.js"
export { webhooksConfig } from "./config.js"
export type { WebhooksSettings } from "./config.js"
export { DeliveryNotFound, InvalidWebhook, WebhookConflict, WebhookNotFound, WebhookStoreError } from "./errors.js"
export { maskUrl as maskWebhookUrl } from "./internal/url.js"
export { signature as webhookSignature } from "./internal/signature.js"
export { MAX_LOGGED_PER_WEBHOOK, Webhooks, WEBHOOKS_KEY } from "./Webhooks.js"
export type { DeliveryListRequest, WebhooksShape } from "./Webhooks.js"
