/**
 * What a provider event holds that the store reads (the rest is ignored):
 * the event, its Checkout Session, and which event types mean paid.
 */
import * as Schema from "effect/Schema"

export const ProviderEvent = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  type: Schema.String.pipe(Schema.maxLength(255)),
  data: Schema.Struct({ object: Schema.Unknown })
})
export const ProviderSession = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  client_reference_id: Schema.optional(Schema.NullOr(Schema.String)),
  payment_status: Schema.optional(Schema.NullOr(Schema.String)),
  amount_total: Schema.optional(Schema.NullOr(Schema.Int)),
  currency: Schema.optional(Schema.NullOr(Schema.String)),
  metadata: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
})
export type ProviderSession = typeof ProviderSession.Type

/** Paid: the purchase's priority is granted. */
export const PAID_EVENTS: ReadonlySet<string> = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"])
