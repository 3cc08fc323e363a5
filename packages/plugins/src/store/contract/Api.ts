/**
 * The VIP store's HTTP contract: products, the buyer's checkout through a
 * Stripe-compatible payment provider, the provider's signed webhook, and the
 * admin's products, payment settings and purchases. Money is integers in the
 * currency's minor unit (`amount: 499` with `currency: "EUR"` is 4.99 EUR);
 * prices are also written and shown as decimal strings (`price: "4.99"`),
 * never as JSON numbers with a fraction.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  ADMIN,
  BadGateway,
  BadRequest,
  BodyExample,
  Conflict,
  CsrfExempt,
  NotFound,
  pageFields,
  pageParams,
  Steam64,
  StoredText,
  TrimmedStoredText,
  Unavailable
} from "@garrison/runtime"
import { DECIMAL_PRICE, isCurrency } from "./money.js"

/** The priority queue's roles (the priority plugin's `PRIORITY_ROLES`; the store's service checks they agree). */
export const STORE_ROLES = ["VIP", "Supporter", "Premium"] as const
export const StoreRole = Schema.Literal(...STORE_ROLES).annotations({ message: () => `expected one of ${STORE_ROLES.join(", ")}` })
export type StoreRole = typeof StoreRole.Type

/** How long a purchase gives priority: 30 days, 90 days, one year (365 days), for good, or `customDays`. */
export const STORE_DURATIONS = ["30d", "90d", "1y", "permanent", "custom"] as const
export const StoreDuration = Schema.Literal(...STORE_DURATIONS).annotations({ message: () => `expected one of ${STORE_DURATIONS.join(", ")}` })
export type StoreDuration = typeof StoreDuration.Type
/** Days of each fixed duration; `permanent` is null, `custom` the product's `customDays`. */
export const DURATION_DAYS = { "30d": 30, "90d": 90, "1y": 365 } as const
export const MAX_CUSTOM_DAYS = 3650
/** Products a store may hold (the lists are answered whole). */
export const MAX_PRODUCTS = 100

export const PURCHASE_STATUSES = ["pending", "completed", "expired", "failed"] as const
export const PurchaseStatus = Schema.Literal(...PURCHASE_STATUSES).annotations({ message: () => `expected one of ${PURCHASE_STATUSES.join(", ")}` })
export type PurchaseStatus = typeof PurchaseStatus.Type

export const PURCHASES_PAGE = { defaultLimit: 50, maxLimit: 500 } as const

/** An ISO 4217 code; lower case is taken and stored upper case. */
export const CurrencyCode = Schema.Uppercase.pipe(
  Schema.filter((code) => isCurrency(code) || "expected an ISO 4217 currency code such as EUR or USD")
)

/** A price as typed: a decimal string (`"4.99"`); its places and minimum depend on the currency, checked with it. */
export const Price = Schema.String.pipe(Schema.filter((text) => DECIMAL_PRICE.test(text) || 'expected a decimal amount as a string, such as "4.99"'))

const oneLine = (max: number) =>
  TrimmedStoredText.pipe(
    Schema.minLength(1, { message: () => "must not be empty" }),
    Schema.maxLength(max, { message: () => `must be at most ${max} characters` }),
    Schema.pattern(/^[^\r\n]*$/, { message: () => "must be a single line" })
  )

export const ProductName = oneLine(100)
/** A player's in-game name, as the priority queue takes it. */
export const PlayerName = oneLine(128)
export const ProductDescription = StoredText.pipe(Schema.maxLength(1000, { message: () => "must be at most 1000 characters" }))
export const CustomDays = Schema.Int.pipe(
  Schema.between(1, MAX_CUSTOM_DAYS, { message: () => `must be a whole number of days from 1 to ${MAX_CUSTOM_DAYS}` })
)

export class StoreProduct extends Schema.Class<StoreProduct>("StoreProduct")({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  role: Schema.String,
  /** The price as a decimal string in `currency` (`"4.99"`). */
  price: Schema.String,
  /** The same price in the currency's minor unit (499). */
  amount: Schema.Number,
  currency: Schema.String,
  duration: Schema.String,
  /** Days of priority a purchase gives; null: permanent. */
  durationDays: Schema.NullOr(Schema.Number),
  /** Shown in the store (inactive products are the admin's only). */
  active: Schema.Boolean,
  /** ISO-8601, UTC. */
  createdAt: Schema.String,
  updatedAt: Schema.String
}) {}

export class StoreProducts extends Schema.Class<StoreProducts>("StoreProducts")({ items: Schema.Array(StoreProduct) }) {}

export class StoreProductInput extends Schema.Class<StoreProductInput>("StoreProductInput")({
  name: ProductName,
  description: Schema.optionalWith(ProductDescription, { default: () => "" }),
  role: StoreRole,
  /** At least 0.50, with at most the currency's decimal places. */
  price: Price,
  /** Absent: the store's currency (payment settings). */
  currency: Schema.optional(CurrencyCode),
  duration: StoreDuration,
  /** Required with `duration: "custom"`, refused with the others. */
  customDays: Schema.optional(CustomDays),
  active: Schema.optionalWith(Schema.Boolean, { default: () => true })
}) {}

/** Only the fields sent change; a duration other than `custom` drops the custom days. */
export class StoreProductPatch extends Schema.Class<StoreProductPatch>("StoreProductPatch")({
  name: Schema.optional(ProductName),
  description: Schema.optional(ProductDescription),
  role: Schema.optional(StoreRole),
  price: Schema.optional(Price),
  currency: Schema.optional(CurrencyCode),
  duration: Schema.optional(StoreDuration),
  customDays: Schema.optional(CustomDays),
  active: Schema.optional(Schema.Boolean)
}) {}

export const ProductPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })

export class StoreStatus extends Schema.Class<StoreStatus>("StoreStatus")({
  /** The admin opened the store. */
  enabled: Schema.Boolean,
  /** The payment provider's keys and return addresses are set. Buying needs both. */
  configured: Schema.Boolean,
  /** The store's currency (a product may name its own). */
  currency: Schema.String
}) {}

export class CheckoutInput extends Schema.Class<CheckoutInput>("StoreCheckoutInput")({
  productId: Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }), Schema.maxLength(100)),
  /** The buyer's Steam64 id: 17 digits starting 7656119. */
  platformId: Steam64,
  /** The buyer's in-game name. */
  playerName: PlayerName
}) {}

export class CheckoutResult extends Schema.Class<CheckoutResult>("StoreCheckoutResult")({
  /** The provider's payment page: send the buyer there. */
  url: Schema.String,
  /** The provider's Checkout Session id. */
  sessionId: Schema.String,
  /** The purchase recorded for it (pending until the provider says it is paid). */
  purchaseId: Schema.String
}) {}

/** What the webhook did with an event (the provider only looks at the status). */
export class WebhookReceipt extends Schema.Class<WebhookReceipt>("StoreWebhookReceipt")({
  received: Schema.Boolean,
  /**
   * `granted`: a paid purchase, priority granted; `duplicate`: that purchase
   * was already granted (a repeated delivery); `expired` / `failed`: a
   * pending purchase ended unpaid; `ignored`: an event the store does not act
   * on (another type, a payment still under way, a session it did not make).
   */
  outcome: Schema.Literal("granted", "duplicate", "expired", "failed", "ignored")
}) {}

/** A secret as the API shows it: whether it is set and a hint to recognise it by, never the secret. */
export class SecretState extends Schema.Class<SecretState>("StoreSecretState")({
  set: Schema.Boolean,
  /** `sk_test_…4242`: its kind and last four characters (null when unset or too short to hint at). */
  hint: Schema.NullOr(Schema.String)
}) {}

export class PaymentConfig extends Schema.Class<PaymentConfig>("StorePaymentConfig")({
  enabled: Schema.Boolean,
  currency: Schema.String,
  /** The provider's API (`https://api.stripe.com`). */
  baseUrl: Schema.String,
  secretKey: SecretState,
  webhookSecret: SecretState,
  /** Where the provider sends the buyer after paying (may hold `{CHECKOUT_SESSION_ID}`). */
  successUrl: Schema.NullOr(Schema.String),
  cancelUrl: Schema.NullOr(Schema.String),
  /** Everything checkout needs is set. */
  configured: Schema.Boolean,
  /** The fields still missing for that. */
  missing: Schema.Array(Schema.String),
  updatedAt: Schema.NullOr(Schema.String),
  updatedBy: Schema.NullOr(Schema.String)
}) {}

/** An absolute http(s) URL without user or password. */
const HttpUrl = TrimmedStoredText.pipe(
  Schema.maxLength(2048, { message: () => "must be at most 2048 characters" }),
  Schema.filter((s) => {
    try {
      const url = new URL(s)
      return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === ""
        ? true
        : "must be an http(s) URL without user or password"
    } catch {
      return "must be an absolute http(s) URL"
    }
  })
)

/** An API key or signing secret: printable ASCII without spaces (it travels in a header). */
const Secret = Schema.String.pipe(
  Schema.pattern(/^[\x21-\x7e]{8,500}$/, { message: () => "must be 8 to 500 printable ASCII characters without spaces" })
)

/**
 * Payment settings to change; absent fields stay. A secret set to null is
 * forgotten, as is a URL. The store cannot be enabled until the secret key,
 * the webhook signing secret and both return URLs are set.
 */
export class PaymentConfigInput extends Schema.Class<PaymentConfigInput>("StorePaymentConfigInput")({
  enabled: Schema.optional(Schema.Boolean),
  currency: Schema.optional(CurrencyCode),
  /** https, or http to this machine (a local stand-in). */
  baseUrl: Schema.optional(HttpUrl),
  secretKey: Schema.optional(Schema.NullOr(Secret)),
  webhookSecret: Schema.optional(Schema.NullOr(Secret)),
  successUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  cancelUrl: Schema.optional(Schema.NullOr(HttpUrl))
}) {}

export class PurchaseProduct extends Schema.Class<PurchaseProduct>("StorePurchaseProduct")({
  id: Schema.String,
  name: Schema.String,
  role: Schema.String,
  duration: Schema.String,
  durationDays: Schema.NullOr(Schema.Number)
}) {}

export class PurchaseGrant extends Schema.Class<PurchaseGrant>("StorePurchaseGrant")({
  /** The priority entry granted or extended. */
  entryId: Schema.String,
  /** `added`, `extended`, or `kept` (the player already had permanent priority). */
  outcome: Schema.String,
  /** The entry's expiry after the grant; null: permanent. */
  expiresAt: Schema.NullOr(Schema.String)
}) {}

export class StorePurchase extends Schema.Class<StorePurchase>("StorePurchase")({
  id: Schema.String,
  /** When the checkout began (ISO-8601, UTC): the list's order. */
  date: Schema.String,
  /** `pending` (checkout started), `completed` (paid, priority granted), `expired` or `failed`. */
  status: Schema.String,
  playerName: Schema.String,
  /** Steam64. */
  platformId: Schema.String,
  /** The product as it was bought. */
  product: PurchaseProduct,
  /** Minor units of `currency`: what was paid once completed, the price before. */
  amount: Schema.Number,
  currency: Schema.String,
  /** `amount` as a decimal string. */
  price: Schema.String,
  providerSessionId: Schema.NullOr(Schema.String),
  /** When the provider said it was paid. */
  completedAt: Schema.NullOr(Schema.String),
  grant: Schema.NullOr(PurchaseGrant),
  /** Who started the checkout (the signed-in caller's name). */
  startedBy: Schema.String
}) {}

/** Newest first. */
export class StorePurchasePage extends Schema.Class<StorePurchasePage>("StorePurchasePage")(pageFields(StorePurchase)) {}

export const PurchaseListParams = Schema.Struct({
  status: Schema.optional(PurchaseStatus),
  ...pageParams(PURCHASES_PAGE)
})
export type PurchaseListParams = typeof PurchaseListParams.Type

/**
 * The provider's event, taken as any JSON here: the raw body's signature is
 * checked before the event is read (an event that fails it was never read).
 */
export const WebhookEvent = Schema.Unknown.annotations({
  identifier: "StoreWebhookEvent",
  description: "A Stripe event (`{id, type, data: {object}}`), signed in the `Stripe-Signature` header."
})

export const WebhookHeaders = Schema.Struct({
  /** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (several `v1` allowed). */
  "stripe-signature": Schema.optional(Schema.String)
})

export class StoreGroup extends HttpApiGroup.make("store").annotate(OpenApi.Description, "The VIP store as players see it: products and checkout.")
  .add(
    HttpApiEndpoint.get("status", "/api/store/status")
      .addSuccess(StoreStatus)
      .annotate(Access, Access.none)
      .annotate(OpenApi.Summary, "Whether the VIP store is open")
      .annotate(OpenApi.Description, "Open when `enabled` and `configured` are both true; `currency` is the store's.")
  )
  .add(
    HttpApiEndpoint.get("products", "/api/store/products")
      .addSuccess(StoreProducts)
      .annotate(Access, Access.none)
      .annotate(OpenApi.Summary, "Products on sale")
      .annotate(OpenApi.Description, "The active products, oldest first, with their prices as decimal strings and in minor units.")
  )
  .add(
    HttpApiEndpoint.post("checkout", "/api/store/checkout")
      .setPayload(CheckoutInput)
      .addSuccess(CheckoutResult)
      .addError(BadRequest)
      .addError(Conflict)
      .addError(BadGateway)
      .addError(Unavailable)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Start paying for a product")
      .annotate(
        OpenApi.Description,
        "Creates a Checkout Session at the payment provider for the buyer's Steam64 id and records a pending purchase; " +
          "send the buyer to `url`. 409 when the store is closed; 502 when the provider refused, 503 when it did not answer."
      )
      .annotate(BodyExample, { productId: "0b5f6f1e-6c1a-4c57-9a4e-2f3d8e1b7c90", platformId: "76561198000000001", playerName: "Survivor" })
  )
  .add(
    HttpApiEndpoint.post("webhook", "/api/store/webhook")
      .setPayload(WebhookEvent)
      .setHeaders(WebhookHeaders)
      .addSuccess(WebhookReceipt)
      .addError(BadRequest)
      .addError(Unavailable)
      .annotate(Access, Access.none)
      .annotate(CsrfExempt, true)
      .annotate(OpenApi.Summary, "The payment provider's events")
      .annotate(
        OpenApi.Description,
        "Point the provider's webhook here (event `checkout.session.completed`). The raw body must carry a valid " +
          "`Stripe-Signature` (HMAC-SHA256 with the webhook signing secret, at most 5 minutes old), else 400 and nothing happens. " +
          "A paid session grants its purchase's priority once, however often it is delivered. 503 while no signing secret is set."
      )
      .annotate(BodyExample, {
        id: "evt_1PqXyZ",
        object: "event",
        type: "checkout.session.completed",
        data: { object: { id: "cs_test_a1B2c3", object: "checkout.session", client_reference_id: "5c2d...", payment_status: "paid", amount_total: 499, currency: "eur" } }
      })
  ) {}

export class StoreAdminGroup extends HttpApiGroup.make("storeAdmin").annotate(OpenApi.Description, "Running the VIP store: products, purchases and payment settings.")
  .add(
    HttpApiEndpoint.get("products", "/api/store/admin/products")
      .addSuccess(StoreProducts)
      .annotate(OpenApi.Summary, "Every product")
      .annotate(OpenApi.Description, "Active and inactive, oldest first.")
  )
  .add(
    HttpApiEndpoint.post("createProduct", "/api/store/admin/products")
      .setPayload(StoreProductInput)
      .addSuccess(StoreProduct, { status: 201 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Add a product")
      .annotate(
        OpenApi.Description,
        `\`price\` is a decimal string of at least 0.50 in \`currency\`; \`duration\` is one of ${STORE_DURATIONS.join(", ")} ` +
          `(\`custom\` with \`customDays\`). 409 past ${MAX_PRODUCTS} products.`
      )
      .annotate(BodyExample, { name: "VIP 30 days", description: "Skip the queue for a month", role: "VIP", price: "4.99", currency: "EUR", duration: "30d" })
  )
  .add(
    HttpApiEndpoint.patch("updateProduct", "/api/store/admin/products/:id")
      .setPath(ProductPath)
      .setPayload(StoreProductPatch)
      .addSuccess(StoreProduct)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Change a product")
      .annotate(OpenApi.Description, "Only the fields sent change. Purchases already made keep the product as it was.")
      .annotate(BodyExample, { price: "5.49", active: false })
  )
  .add(
    HttpApiEndpoint.del("deleteProduct", "/api/store/admin/products/:id")
      .setPath(ProductPath)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Remove a product")
      .annotate(OpenApi.Description, "Its purchases stay, with the product as it was bought.")
  )
  .add(
    HttpApiEndpoint.get("purchases", "/api/store/admin/purchases")
      .setUrlParams(PurchaseListParams)
      .addSuccess(StorePurchasePage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Purchases")
      .annotate(OpenApi.Description, "Newest first, in pages; `status` filters.")
  )
  .add(
    HttpApiEndpoint.get("paymentConfig", "/api/store/admin/payment-config")
      .addSuccess(PaymentConfig)
      .annotate(OpenApi.Summary, "Payment provider settings")
      .annotate(OpenApi.Description, "Which secrets are set, with a hint to recognise each; never the secrets.")
  )
  .add(
    HttpApiEndpoint.post("setPaymentConfig", "/api/store/admin/payment-config")
      .setPayload(PaymentConfigInput)
      .addSuccess(PaymentConfig)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Change the payment provider settings")
      .annotate(
        OpenApi.Description,
        "Absent fields stay; null forgets a secret or URL. Secrets are stored encrypted and never answered back. " +
          "400 naming `enabled` when the store would be open without its secrets and return URLs."
      )
      .annotate(BodyExample, {
        enabled: true,
        currency: "EUR",
        baseUrl: "https://api.stripe.com",
        secretKey: "sk_test_51AbCdEf",
        webhookSecret: "whsec_0123456789",
        successUrl: "https://panel.example.org/store/success?session_id={CHECKOUT_SESSION_ID}",
        cancelUrl: "https://panel.example.org/store/cancel"
      })
  )
  .annotate(Access, Access.permission(ADMIN)) {}

export class StoreApi extends HttpApi.make("store").add(StoreGroup).add(StoreAdminGroup) {}
