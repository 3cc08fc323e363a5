/** The webhooks plugin's errors; its routes map them to statuses in one place (routes.ts). */
import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a webhooks read or write. */
export class WebhookStoreError extends Schema.TaggedError<WebhookStoreError>()("WebhookStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(WebhookStoreError)

export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {
  id: Schema.String
}) {}

export class DeliveryNotFound extends Schema.TaggedError<DeliveryNotFound>()("DeliveryNotFound", {
  webhookId: Schema.String,
  /** The webhook's name, for the message (the webhook exists; its delivery does not). */
  webhookName: Schema.String,
  deliveryId: Schema.String
}) {}

/** Input the schema let through but the rules refuse; `field` names it as the caller spelled it (`events.0`, `webhooks.2.url`). */
export class InvalidWebhook extends Schema.TaggedError<InvalidWebhook>()("InvalidWebhook", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The webhook's state forbids it now (a replay of a delivery still pending, or of a disabled webhook). */
export class WebhookConflict extends Schema.TaggedError<WebhookConflict>()("WebhookConflict", {
  message: Schema.String
}) {}
