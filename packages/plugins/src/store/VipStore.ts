/**
 * The `VipStore` service: products, the payment settings, checkouts at a
 * Stripe-compatible provider and its signed webhook, which grants the
 * priority the player paid for through the priority plugin's
 * `PriorityQueue` (so every server's `priority.txt` follows), records the
 * purchase, tells the admins and publishes `StorePurchaseCompleted`.
 *
 * A paid session grants once, however often and however concurrently it is
 * delivered: the purchase row's `UPDATE ... WHERE status <> 'completed'`
 * and the priority entry's write are one transaction, so exactly one
 * delivery finds the row still open (on PostgreSQL the others wait for its
 * row lock, then find it completed) and the others answer `duplicate`.
 *
 * This file holds the service's interface, tag and layer; the parts it
 * wires live in internal/ by concept: products.ts, paymentConfig.ts,
 * checkout.ts, webhook.ts (the signed delivery), purchaseCompletion.ts
 * (the grant transaction) and purchases.ts (the log).
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type AuditActor, AuditTrail, EventBus, type InvalidCursor } from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import { PriorityQueue } from "../priority/index.js"
import type {
  CheckoutInput,
  CheckoutResult,
  PaymentConfig,
  PaymentConfigInput,
  PurchaseListParams,
  StoreProduct,
  StoreProductInput,
  StoreProductPatch,
  StoreProducts,
  StorePurchasePage,
  StoreStatus,
  WebhookReceipt
} from "./contract/Api.js"
import type {
  InvalidStoreInput,
  PaymentProviderFailed,
  ProductNotFound,
  StoreDataError,
  StoreRefused,
  WebhookNotConfigured,
  WebhookRejected
} from "./errors.js"
import { makeCheckout } from "./internal/checkout.js"
import { makeStoreDeps } from "./internal/deps.js"
import { makePaymentConfig } from "./internal/paymentConfig.js"
import { makeProducts } from "./internal/products.js"
import { makePurchaseCompletion } from "./internal/purchaseCompletion.js"
import { makePurchases } from "./internal/purchases.js"
import { makeSettings } from "./internal/settings.js"
import { makeWebhook } from "./internal/webhook.js"

export { durationDays } from "./internal/products.js"
export { STORE_GRANTER } from "./internal/purchaseCompletion.js"

export interface VipStoreShape {
  /** Open, configured, and the store's currency: the public status. */
  readonly status: Effect.Effect<StoreStatus, StoreDataError>
  /** Oldest first; `activeOnly` for the public list. */
  readonly products: (options: { readonly activeOnly: boolean }) => Effect.Effect<StoreProducts, StoreDataError>
  readonly createProduct: (input: StoreProductInput, by: AuditActor) => Effect.Effect<StoreProduct, InvalidStoreInput | StoreRefused | StoreDataError>
  readonly updateProduct: (
    id: string,
    patch: StoreProductPatch,
    by: AuditActor
  ) => Effect.Effect<StoreProduct, InvalidStoreInput | ProductNotFound | StoreDataError>
  readonly deleteProduct: (id: string, by: AuditActor) => Effect.Effect<void, ProductNotFound | StoreDataError>
  /** The settings without their secrets (which are set, with a hint). */
  readonly paymentConfig: Effect.Effect<PaymentConfig, StoreDataError>
  readonly setPaymentConfig: (input: PaymentConfigInput, by: AuditActor) => Effect.Effect<PaymentConfig, InvalidStoreInput | StoreDataError>
  /** Records a pending purchase and creates the provider's Checkout Session for it. */
  readonly checkout: (
    input: CheckoutInput,
    by: AuditActor
  ) => Effect.Effect<CheckoutResult, InvalidStoreInput | StoreRefused | PaymentProviderFailed | StoreDataError>
  /** One delivery of the provider's webhook: `body` exactly as received, `signature` its `Stripe-Signature` header. */
  readonly webhook: (
    body: string,
    signature: string | undefined
  ) => Effect.Effect<WebhookReceipt, WebhookRejected | WebhookNotConfigured | StoreDataError>
  /** Newest first, in pages. */
  readonly purchases: (params: PurchaseListParams) => Effect.Effect<StorePurchasePage, InvalidCursor | StoreDataError>
}

export class VipStore extends Context.Tag("@garrison/plugins/VipStore")<VipStore, VipStoreShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const http = yield* HttpClient.HttpClient
    const queue = yield* PriorityQueue
    const notifications = yield* Notifications
    const bus = yield* EventBus
    const audit = yield* AuditTrail
    const settings = yield* makeSettings(sql)
    const deps = makeStoreDeps(sql, settings, audit)

    return VipStore.of({
      ...makePaymentConfig(deps),
      ...makeProducts(deps),
      ...makeCheckout(deps, http),
      ...makeWebhook(deps, makePurchaseCompletion(deps, queue, notifications, bus)),
      ...makePurchases(deps)
    })
  })

  /** Needs the kernel (`SqlClient`, `EventBus`, `SealedSecrets`, `AuditTrail`), the priority queue and notifications. */
  static readonly layer = Layer.effect(VipStore, VipStore.make).pipe(Layer.provide(FetchHttpClient.layer))
}
