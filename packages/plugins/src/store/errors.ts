/** The VIP store's domain errors; its routes map each to one HTTP answer. */
import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** A body the schema accepted but the store's rules refuse; `field` names the body field in the caller's words. */
export class InvalidStoreInput extends Schema.TaggedError<InvalidStoreInput>()("InvalidStoreInput", {
  field: Schema.String,
  message: Schema.String
}) {}

export class ProductNotFound extends Schema.TaggedError<ProductNotFound>()("ProductNotFound", { id: Schema.String }) {}

/** A state that refuses the request: the store closed, too many products. */
export class StoreRefused extends Schema.TaggedError<StoreRefused>()("StoreRefused", { message: Schema.String }) {}

/** The payment provider refused the checkout, answered something else than a session, or did not answer in time. */
export class PaymentProviderFailed extends Schema.TaggedError<PaymentProviderFailed>()("PaymentProviderFailed", {
  reason: Schema.Literal("refused", "bad-answer", "unreachable", "timeout"),
  message: Schema.String
}) {}

/** A webhook delivery that is not the provider's: no or a bad signature, a stale one, or a body that is not an event. */
export class WebhookRejected extends Schema.TaggedError<WebhookRejected>()("WebhookRejected", {
  /** `Stripe-Signature` or `body`. */
  field: Schema.String,
  message: Schema.String
}) {}

/** No webhook signing secret is set: nothing can be verified yet (the provider retries later). */
export class WebhookNotConfigured extends Schema.TaggedError<WebhookNotConfigured>()("WebhookNotConfigured", { message: Schema.String }) {}

/** The database refused a read or write, or returned rows we cannot read. */
export class StoreDataError extends Schema.TaggedError<StoreDataError>()("StoreDataError", storeErrorFields) {}

export const storeError = storeErrorMapper(StoreDataError)
