/**
 * The provider's signed webhook: the signature over the raw body checked
 * first, then the event read and sent on by type (paid, expired, failed);
 * any other event is acknowledged and ignored.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { WebhookNotConfigured, WebhookRejected } from "../errors.js"
import type { VipStoreShape } from "../VipStore.js"
import type { StoreDeps } from "./deps.js"
import { PAID_EVENTS, ProviderEvent, ProviderSession } from "./providerEvent.js"
import { type makePurchaseCompletion, receipt } from "./purchaseCompletion.js"
import { verifySignature } from "./signature.js"

export const makeWebhook = (
  { settings, record }: StoreDeps,
  { complete, end }: ReturnType<typeof makePurchaseCompletion>
): Pick<VipStoreShape, "webhook"> => {
  const rejected = (field: string, message: string) =>
    Effect.zipRight(record(null, "store.webhook-rejected", null, "failure", { reason: message }), Effect.fail(new WebhookRejected({ field, message })))

  const webhook: VipStoreShape["webhook"] = (body, signature) =>
    Effect.gen(function* () {
      const config = yield* settings.read
      if (config.webhookSecret === null) {
        return yield* new WebhookNotConfigured({ message: "the store has no webhook signing secret yet: nothing can be verified" })
      }
      const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      // The raw body's signature first: an event that fails it is never read.
      const check = verifySignature({ header: signature, body, secret: config.webhookSecret, nowSeconds })
      if (!check.ok) return yield* rejected("Stripe-Signature", check.message)
      const event = yield* Effect.try(() => JSON.parse(body) as unknown).pipe(
        Effect.flatMap(Schema.decodeUnknown(ProviderEvent)),
        Effect.catchAll(() => rejected("body", "body: expected a provider event {id, type, data: {object}}"))
      )
      if (!PAID_EVENTS.has(event.type) && event.type !== "checkout.session.expired" && event.type !== "checkout.session.async_payment_failed") {
        return receipt("ignored")
      }
      const session = yield* Schema.decodeUnknown(ProviderSession)(event.data.object).pipe(
        Effect.catchAll(() => rejected("body", "body: data.object is not a Checkout Session {id, payment_status, ...}"))
      )
      if (event.type === "checkout.session.expired") return yield* end(session, "expired", event.id)
      if (event.type === "checkout.session.async_payment_failed") return yield* end(session, "failed", event.id)
      // `checkout.session.completed` with a payment still under way (a bank transfer) is not paid yet: its async event will be.
      if (session.payment_status !== "paid") return receipt("ignored")
      return yield* complete(event.id, session)
    })

  return { webhook }
}
