/**
 * Published once per paid purchase, after its priority entry and purchase
 * record were committed and every server's `priority.txt` synced: for
 * webhooks, the cloud link and later plugins (`on(StorePurchaseCompleted, ...)`).
 */
import * as Schema from "effect/Schema"

export class StorePurchaseCompleted extends Schema.TaggedClass<StorePurchaseCompleted>()("StorePurchaseCompleted", {
  purchaseId: Schema.String,
  /** Steam64. */
  platformId: Schema.String,
  playerName: Schema.String,
  productId: Schema.String,
  productName: Schema.String,
  role: Schema.String,
  /** Days bought; null: permanent. */
  durationDays: Schema.NullOr(Schema.Number),
  /** Minor units of `currency`. */
  amount: Schema.Number,
  currency: Schema.String,
  /** The priority entry granted or extended, and its expiry after that (null: permanent). */
  entryId: Schema.String,
  expiresAt: Schema.NullOr(Schema.String),
  /** `added`, `extended` or `kept`. */
  outcome: Schema.String
}) {}
