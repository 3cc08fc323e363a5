/** The handlers behind `WebhooksApi` (admin only; the host has checked access). Errors become statuses here, once. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { auditActorOf, Conflict, CurrentPrincipal, cursorBadRequest, fieldBadRequest, notFoundWith, storeDefect } from "@garrison/runtime"
import { WEBHOOK_PAGE, WebhookDeliveryPage, WebhookEventTypes, WebhookPage, WebhooksApi, WebhookSecret } from "./contract/Api.js"
import type { DeliveryNotFound, WebhookConflict, WebhookNotFound } from "./errors.js"
import { webhookPaging, Webhooks } from "./Webhooks.js"

// Words for a person and a script alike: what is missing, by name where there is one, and what may have happened.
const webhookNotFound = notFoundWith((error: WebhookNotFound) => `There is no webhook with id "${error.id}": it may have been deleted`)
const deliveryNotFound = notFoundWith(
  (error: DeliveryNotFound) =>
    `Webhook "${error.webhookName}" has no delivery with id "${error.deliveryId}": it may have left the delivery log (old deliveries are removed)`
)
const conflict = (error: WebhookConflict) => Effect.fail(new Conflict({ message: error.message }))

/** Who asks, as audit rows name them. */
const caller = Effect.map(CurrentPrincipal, auditActorOf)

const errors = {
  WebhookNotFound: webhookNotFound,
  DeliveryNotFound: deliveryNotFound,
  InvalidWebhook: fieldBadRequest,
  WebhookConflict: conflict,
  InvalidCursor: cursorBadRequest,
  // A store failure is a real fault: a 500 with a request id.
  WebhookStoreError: storeDefect
} as const

const WebhookRoutes = HttpApiBuilder.group(WebhooksApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const after = yield* webhookPaging.decode(urlParams.cursor)
          // A controller has a handful of webhooks: read whole, paged here.
          const all = yield* webhooks.list
          return new WebhookPage({ ...webhookPaging.pageOf(all, urlParams.limit ?? WEBHOOK_PAGE.defaultLimit, after), total: all.length })
        }).pipe(Effect.catchTags({ InvalidCursor: errors.InvalidCursor, WebhookStoreError: errors.WebhookStoreError }))
      )
      .handle("create", ({ payload }) =>
        Effect.flatMap(caller, (by) => webhooks.create(payload, by)).pipe(
          Effect.catchTags({ InvalidWebhook: errors.InvalidWebhook, WebhookStoreError: errors.WebhookStoreError })
        )
      )
      .handle("events", () => Effect.map(webhooks.eventTypes, (items) => new WebhookEventTypes({ items })))
      .handle("get", ({ path }) =>
        webhooks.get(path.id).pipe(Effect.catchTags({ WebhookNotFound: errors.WebhookNotFound, WebhookStoreError: errors.WebhookStoreError }))
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => webhooks.update(path.id, payload, by)).pipe(
          Effect.catchTags({
            WebhookNotFound: errors.WebhookNotFound,
            InvalidWebhook: errors.InvalidWebhook,
            WebhookStoreError: errors.WebhookStoreError
          })
        )
      )
      .handle("remove", ({ path }) =>
        Effect.flatMap(caller, (by) => webhooks.remove(path.id, by)).pipe(
          Effect.catchTags({ WebhookNotFound: errors.WebhookNotFound, WebhookStoreError: errors.WebhookStoreError })
        )
      )
      .handle("rotateSecret", ({ path }) =>
        Effect.flatMap(caller, (by) => webhooks.rotateSecret(path.id, by)).pipe(
          Effect.map((secret) => new WebhookSecret({ secret })),
          Effect.catchTags({ WebhookNotFound: errors.WebhookNotFound, WebhookStoreError: errors.WebhookStoreError })
        )
      )
      .handle("deliveries", ({ path, urlParams }) =>
        webhooks.deliveries(path.id, urlParams).pipe(
          Effect.map((page) => new WebhookDeliveryPage(page)),
          Effect.catchTags({
            WebhookNotFound: errors.WebhookNotFound,
            InvalidCursor: errors.InvalidCursor,
            WebhookStoreError: errors.WebhookStoreError
          })
        )
      )
      .handle("replay", ({ path }) =>
        Effect.flatMap(caller, (by) => webhooks.replay(path.id, path.deliveryId, by)).pipe(
          Effect.catchTags({
            WebhookNotFound: errors.WebhookNotFound,
            DeliveryNotFound: errors.DeliveryNotFound,
            WebhookConflict: errors.WebhookConflict,
            WebhookStoreError: errors.WebhookStoreError
          })
        )
      )
      .handle("test", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => webhooks.test(path.id, payload?.event, by)).pipe(
          Effect.catchTags({
            WebhookNotFound: errors.WebhookNotFound,
            InvalidWebhook: errors.InvalidWebhook,
            WebhookStoreError: errors.WebhookStoreError
          })
        )
      )
  })
)

const BackupRoutes = HttpApiBuilder.group(WebhooksApi, "webhooksBackup", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    return handlers
      .handle("backup", ({ urlParams }) =>
        Effect.flatMap(caller, (by) => webhooks.backup(urlParams.secrets === "include", by)).pipe(
          Effect.catchTag("WebhookStoreError", errors.WebhookStoreError)
        )
      )
      .handle("restore", ({ payload }) =>
        Effect.flatMap(caller, (by) => webhooks.restore(payload, by)).pipe(
          Effect.catchTags({ InvalidWebhook: errors.InvalidWebhook, WebhookStoreError: errors.WebhookStoreError })
        )
      )
  })
)

export const WebhooksRoutes = Layer.merge(WebhookRoutes, BackupRoutes)
