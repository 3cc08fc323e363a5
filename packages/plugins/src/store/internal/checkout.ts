/**
 * A checkout: the pending purchase recorded first, then the provider's
 * Checkout Session created for it; the outcome audited either way.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { randomUUID } from "node:crypto"
import { CheckoutResult } from "../contract/Api.js"
import { InvalidStoreInput, storeError, StoreRefused } from "../errors.js"
import type { VipStoreShape } from "../VipStore.js"
import type { StoreDeps } from "./deps.js"
import { createSession } from "./provider.js"
import { missingOf } from "./settings.js"

export const makeCheckout = (
  { sql, settings, productColumns, nowIso, transaction, readProducts, record }: StoreDeps,
  http: HttpClient.HttpClient
): Pick<VipStoreShape, "checkout"> => {
  const checkout: VipStoreShape["checkout"] = (input, by) =>
    Effect.gen(function* () {
      const config = yield* settings.read
      if (!config.enabled) return yield* new StoreRefused({ message: "the store is closed" })
      const missing = missingOf(config)
      if (missing.length > 0 || config.secretKey === null || config.successUrl === null || config.cancelUrl === null) {
        return yield* new StoreRefused({ message: `the store is closed: its payment settings lack ${missing.join(", ")}` })
      }
      const [product] = yield* readProducts("read a product")(sql`SELECT ${productColumns} FROM store_products WHERE id = ${input.productId} AND active = 1`)
      if (product === undefined) return yield* new InvalidStoreInput({ field: "productId", message: "productId: no product with this id is on sale" })

      const purchaseId = randomUUID()
      // Stored before the provider hears of it, so a payment for it always finds its purchase (its id is the session's reference).
      yield* sql`INSERT INTO store_purchases ${sql.insert({
        id: purchaseId,
        created_at: yield* nowIso,
        status: "pending",
        platform_id: input.platformId,
        player_name: input.playerName,
        product_id: product.id,
        product_name: product.name,
        role: product.role,
        duration: product.duration,
        duration_days: product.duration_days,
        amount: product.amount,
        currency: product.currency,
        started_by: by.name
      })}`.pipe(Effect.mapError(storeError("record a purchase")))

      const session = yield* Effect.either(
        createSession(http, {
          baseUrl: config.baseUrl,
          secretKey: config.secretKey,
          successUrl: config.successUrl,
          cancelUrl: config.cancelUrl,
          purchaseId,
          productId: product.id,
          productName: product.name,
          description: product.description,
          amount: product.amount,
          currency: product.currency,
          platformId: input.platformId,
          playerName: input.playerName
        })
      )
      const details = { purchaseId, productId: product.id, platformId: input.platformId }
      if (Either.isLeft(session)) {
        // The session may still exist at the provider (an answer lost on the way): a payment for it completes this row all the same.
        yield* transaction(
          "record a failed checkout",
          Effect.zipRight(
            sql`UPDATE store_purchases SET status = 'failed' WHERE id = ${purchaseId} AND status = 'pending'`,
            record(by, "store.checkout", purchaseId, "failure", { ...details, reason: session.left.reason })
          )
        )
        return yield* session.left
      }
      yield* transaction(
        "record a checkout",
        Effect.zipRight(
          sql`UPDATE store_purchases SET provider_session_id = ${session.right.id} WHERE id = ${purchaseId}`,
          record(by, "store.checkout", purchaseId, "success", { ...details, sessionId: session.right.id })
        )
      )
      return new CheckoutResult({ url: session.right.url, sessionId: session.right.id, purchaseId })
    })

  return { checkout }
}
