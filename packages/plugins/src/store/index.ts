/**
 * The VIP store: products on sale, a checkout at a Stripe-compatible payment
 * provider for the buyer's Steam64 id, and the provider's signed webhook,
 * which grants the paid priority through the priority queue (source
 * `purchase`; every server's `priority.txt` follows), records the purchase
 * and tells the admins. See README.md.
 */
import * as Layer from "effect/Layer"
import { AuditTrail, Plugin } from "@garrison/runtime"
import { StoreApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { STORE_EVENTS } from "./published.js"
import { StoreAdminRoutes, StoreRoutes } from "./routes.js"
import { VipStore } from "./VipStore.js"

export const StorePlugin = Plugin.make({
  id: "store",
  description: "VIP store: products, checkout at a Stripe-compatible payment provider, paid priority granted by its signed webhook",
  dependsOn: ["priority", "notifications"],
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  migrations,
  layer: VipStore.layer,
  http: Plugin.http(StoreApi, Layer.mergeAll(StoreRoutes, StoreAdminRoutes)),
  publishes: STORE_EVENTS
})

export {
  CheckoutInput as StoreCheckoutInput,
  CheckoutResult as StoreCheckoutResult,
  DURATION_DAYS as STORE_DURATION_DAYS,
  MAX_CUSTOM_DAYS as STORE_MAX_CUSTOM_DAYS,
  MAX_PRODUCTS as STORE_MAX_PRODUCTS,
  PaymentConfig as StorePaymentConfig,
  PaymentConfigInput as StorePaymentConfigInput,
  PURCHASE_STATUSES as STORE_PURCHASE_STATUSES,
  STORE_DURATIONS,
  STORE_ROLES,
  StoreAdminGroup,
  StoreApi,
  StoreGroup,
  StoreProduct,
  StoreProductInput,
  StoreProductPatch,
  StoreProducts,
  StorePurchase,
  StorePurchasePage,
  StoreStatus,
  WebhookReceipt as StoreWebhookReceipt
} from "./contract/Api.js"
export {
  currencyDigits as storeCurrencyDigits,
  isCurrency as isStoreCurrency,
  MAXIMUM_AMOUNT as STORE_MAXIMUM_AMOUNT,
  minimumAmount as storeMinimumAmount,
  toDecimal as storeDecimal,
  toMinorUnits as storeMinorUnits
} from "./contract/money.js"
export {
  InvalidStoreInput,
  PaymentProviderFailed,
  ProductNotFound,
  StoreDataError,
  StoreRefused,
  WebhookNotConfigured,
  WebhookRejected
} from "./errors.js"
export { StorePurchaseCompleted } from "./events.js"
export { STORE_EVENTS } from "./published.js"
export { sessionForm as storeSessionForm } from "./internal/provider.js"
export {
  SIGNATURE_TOLERANCE_SECONDS as STORE_SIGNATURE_TOLERANCE_SECONDS,
  signatureHeader as storeSignatureHeader,
  verifySignature as verifyStoreSignature
} from "./internal/signature.js"
export { STORE_KEY } from "./internal/settings.js"
export { durationDays as storeDurationDays, STORE_GRANTER, VipStore } from "./VipStore.js"
export type { VipStoreShape } from "./VipStore.js"
