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
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlError from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import {
  ADMIN,
  type AuditActor,
  auditActorFields,
  AuditTrail,
  effectiveLimit,
  EventBus,
  type InvalidCursor,
  recordForRequest
} from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import { Notifications } from "../notifications/index.js"
import { PRIORITY_ROLES, type PriorityRole, PriorityQueue, type StagedPriorityGrant } from "../priority/index.js"
import {
  type CheckoutInput,
  CheckoutResult,
  DURATION_DAYS,
  MAX_PRODUCTS,
  type PaymentConfig,
  type PaymentConfigInput,
  PURCHASES_PAGE,
  type PurchaseListParams,
  type StoreDuration,
  type StoreProduct,
  type StoreProductInput,
  type StoreProductPatch,
  StoreProducts,
  StorePurchasePage,
  StoreStatus,
  WebhookReceipt
} from "./contract/Api.js"
import { MAXIMUM_AMOUNT, minimumAmount, toDecimal, toMinorUnits } from "./contract/money.js"
import {
  InvalidStoreInput,
  type PaymentProviderFailed,
  ProductNotFound,
  StoreDataError,
  storeError,
  StoreRefused,
  WebhookNotConfigured,
  WebhookRejected
} from "./errors.js"
import { StorePurchaseCompleted } from "./events.js"
import { createSession } from "./internal/provider.js"
import {
  decodeProducts,
  decodePurchases,
  iso,
  PRODUCT_COLUMNS,
  type ProductRow,
  productView,
  PURCHASE_COLUMNS,
  type PurchaseRow,
  purchasePaging,
  purchaseView
} from "./internal/rows.js"
import { makeSettings, missingOf, type Settings, viewOf } from "./internal/settings.js"
import { verifySignature } from "./internal/signature.js"

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

/** The priority entry's `addedBy` for a player the store gave priority to. */
export const STORE_GRANTER = "store"

/** A product's days: the fixed durations', `customDays` for `custom`, null for `permanent`. */
export const durationDays = (duration: StoreDuration, customDays: number | null): number | null =>
  duration === "permanent" ? null : duration === "custom" ? customDays : DURATION_DAYS[duration]

const asPriorityRole = (role: string): PriorityRole | undefined => PRIORITY_ROLES.find((r) => r === role)

/** What a provider event holds that the store reads (the rest is ignored). */
const ProviderEvent = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  type: Schema.String.pipe(Schema.maxLength(255)),
  data: Schema.Struct({ object: Schema.Unknown })
})
const ProviderSession = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255)),
  client_reference_id: Schema.optional(Schema.NullOr(Schema.String)),
  payment_status: Schema.optional(Schema.NullOr(Schema.String)),
  amount_total: Schema.optional(Schema.NullOr(Schema.Int)),
  currency: Schema.optional(Schema.NullOr(Schema.String)),
  metadata: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
})
type ProviderSession = typeof ProviderSession.Type

/** Paid: the purchase's priority is granted. */
const PAID_EVENTS: ReadonlySet<string> = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"])

export class VipStore extends Context.Tag("@garrison/plugins/VipStore")<VipStore, VipStoreShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const http = yield* HttpClient.HttpClient
    const queue = yield* PriorityQueue
    const notifications = yield* Notifications
    const bus = yield* EventBus
    const audit = yield* AuditTrail
    const settings = yield* makeSettings(sql)
    const productColumns = sql.literal(PRODUCT_COLUMNS)
    const purchaseColumns = sql.literal(PURCHASE_COLUMNS)
    const nowIso = Effect.map(Clock.currentTimeMillis, iso)

    /** One transaction; a failure to commit is a store error like any other. */
    const transaction = <A, E, R>(operation: string, body: Effect.Effect<A, E, R>) =>
      body.pipe(
        sql.withTransaction,
        Effect.catchIf(
          (e): e is SqlError.SqlError => e instanceof SqlError.SqlError,
          (e) => Effect.fail(storeError(operation)(e))
        )
      )

    const readProducts = (operation: string) => <E extends { readonly message: string }, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      query.pipe(Effect.flatMap(decodeProducts), Effect.mapError(storeError(operation)))
    const readPurchases = (operation: string) => <E extends { readonly message: string }, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      query.pipe(Effect.flatMap(decodePurchases), Effect.mapError(storeError(operation)))

    const productById = (id: string) =>
      Effect.flatMap(readProducts("read a product")(sql`SELECT ${productColumns} FROM store_products WHERE id = ${id}`), (rows) =>
        rows[0] === undefined ? Effect.fail(new ProductNotFound({ id })) : Effect.succeed(rows[0])
      )

    const record = (by: AuditActor | null, action: string, target: string | null, result: "success" | "failure", details: Record<string, unknown>) =>
      recordForRequest(audit, { ...auditActorFields(by), action, target, result, details })

    // ---- products

    /**
     * A product's fields checked together: the price in its currency (places,
     * 0.50 at least, the provider's maximum), the duration with its days.
     */
    const settle = (fields: {
      readonly price: string
      readonly currency: string
      readonly duration: StoreDuration
      readonly customDays: number | undefined
    }) =>
      Effect.gen(function* () {
        const parsed = toMinorUnits(fields.price, fields.currency)
        if ("problem" in parsed) return yield* new InvalidStoreInput({ field: "price", message: `price ${parsed.problem}` })
        const least = minimumAmount(fields.currency)
        if (parsed.amount < least) {
          return yield* new InvalidStoreInput({ field: "price", message: `price must be at least ${toDecimal(least, fields.currency)} ${fields.currency}` })
        }
        if (parsed.amount > MAXIMUM_AMOUNT) {
          return yield* new InvalidStoreInput({
            field: "price",
            message: `price must be at most ${toDecimal(MAXIMUM_AMOUNT, fields.currency)} ${fields.currency}`
          })
        }
        if (fields.duration === "custom" && fields.customDays === undefined) {
          return yield* new InvalidStoreInput({ field: "customDays", message: 'customDays is required with duration "custom"' })
        }
        if (fields.duration !== "custom" && fields.customDays !== undefined) {
          return yield* new InvalidStoreInput({ field: "customDays", message: 'customDays goes only with duration "custom"' })
        }
        return { amount: parsed.amount, days: durationDays(fields.duration, fields.customDays ?? null) }
      })

    const products: VipStoreShape["products"] = ({ activeOnly }) =>
      readProducts("list products")(
        sql`SELECT ${productColumns} FROM store_products WHERE ${sql.and(activeOnly ? [sql`active = 1`] : [])} ORDER BY created_at, id`
      ).pipe(Effect.map((rows) => new StoreProducts({ items: rows.map(productView) })))

    const createProduct: VipStoreShape["createProduct"] = (input, by) =>
      Effect.gen(function* () {
        const currency = input.currency ?? (yield* settings.read).currency
        const { amount, days } = yield* settle({ price: input.price, currency, duration: input.duration, customDays: input.customDays })
        const at = yield* nowIso
        const row: ProductRow = {
          id: randomUUID(),
          name: input.name,
          description: input.description,
          role: input.role,
          amount,
          currency,
          duration: input.duration,
          duration_days: days,
          active: input.active ? 1 : 0,
          created_at: at,
          updated_at: at
        }
        yield* transaction(
          "add a product",
          Effect.gen(function* () {
            const [count] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM store_products`
            if (Number(count?.n ?? 0) >= MAX_PRODUCTS) {
              return yield* new StoreRefused({ message: `the store holds ${MAX_PRODUCTS} products at most: remove one first` })
            }
            yield* sql`INSERT INTO store_products ${sql.insert(row)}`
            yield* record(by, "store.product.add", row.id, "success", { name: row.name, role: row.role, price: toDecimal(amount, currency), currency, duration: row.duration })
          })
        )
        return productView(row)
      })

    const updateProduct: VipStoreShape["updateProduct"] = (id, patch, by) =>
      Effect.gen(function* () {
        const current = yield* productById(id)
        const currency = patch.currency ?? current.currency
        const duration = patch.duration ?? (current.duration as StoreDuration)
        // A new currency re-reads the current price in it ("4.99" EUR is "4.99" USD); a price that cannot be is refused.
        const price = patch.price ?? toDecimal(current.amount, current.currency)
        const customDays = patch.customDays ?? (patch.duration === undefined && current.duration === "custom" ? (current.duration_days ?? undefined) : undefined)
        const { amount, days } = yield* settle({ price, currency, duration, customDays })
        const row: ProductRow = {
          ...current,
          name: patch.name ?? current.name,
          description: patch.description ?? current.description,
          role: patch.role ?? current.role,
          amount,
          currency,
          duration,
          duration_days: days,
          active: patch.active === undefined ? current.active : patch.active ? 1 : 0,
          updated_at: yield* nowIso
        }
        const changed = (Object.keys(patch) as ReadonlyArray<keyof StoreProductPatch>).filter((key) => patch[key] !== undefined)
        yield* transaction(
          "change a product",
          Effect.zipRight(
            sql`UPDATE store_products SET name = ${row.name}, description = ${row.description}, role = ${row.role}, amount = ${row.amount},
              currency = ${row.currency}, duration = ${row.duration}, duration_days = ${row.duration_days}, active = ${row.active},
              updated_at = ${row.updated_at} WHERE id = ${id}`,
            record(by, "store.product.update", id, "success", { name: row.name, fields: changed })
          )
        )
        return productView(row)
      })

    const deleteProduct: VipStoreShape["deleteProduct"] = (id, by) =>
      Effect.gen(function* () {
        const current = yield* productById(id)
        yield* transaction(
          "remove a product",
          Effect.zipRight(sql`DELETE FROM store_products WHERE id = ${id}`, record(by, "store.product.remove", id, "success", { name: current.name }))
        )
      })

    // ---- payment settings

    /** https, or http to this machine only: the secret key travels to it. */
    const checkBaseUrl = (url: string) => {
      const parsed = new URL(url)
      const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname) || /^127\./.test(parsed.hostname)
      if (parsed.protocol === "http:" && !loopback) {
        return Effect.fail(new InvalidStoreInput({ field: "baseUrl", message: "baseUrl must use https (http only to this machine: the secret key is sent to it)" }))
      }
      if (parsed.search !== "" || parsed.hash !== "") {
        return Effect.fail(new InvalidStoreInput({ field: "baseUrl", message: "baseUrl must not have a query or fragment" }))
      }
      return Effect.succeed(url.replace(/\/+$/, ""))
    }

    const setPaymentConfig: VipStoreShape["setPaymentConfig"] = (input, by) =>
      Effect.gen(function* () {
        const current = yield* settings.read
        const updatedAt = yield* nowIso
        const next: Settings & { readonly updatedAt: string } = {
          enabled: input.enabled ?? current.enabled,
          currency: input.currency ?? current.currency,
          baseUrl: input.baseUrl === undefined ? current.baseUrl : yield* checkBaseUrl(input.baseUrl),
          secretKey: input.secretKey === undefined ? current.secretKey : input.secretKey,
          webhookSecret: input.webhookSecret === undefined ? current.webhookSecret : input.webhookSecret,
          successUrl: input.successUrl === undefined ? current.successUrl : input.successUrl,
          cancelUrl: input.cancelUrl === undefined ? current.cancelUrl : input.cancelUrl,
          updatedAt,
          updatedBy: by.name
        }
        const missing = missingOf(next)
        if (next.enabled && missing.length > 0) {
          return yield* new InvalidStoreInput({
            field: "enabled",
            message: `enabled: the store cannot open before ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} set`
          })
        }
        // Which settings changed, never a secret's value.
        const changed = (Object.keys(input) as ReadonlyArray<keyof PaymentConfigInput>).filter((key) => input[key] !== undefined)
        yield* transaction(
          "store the payment settings",
          Effect.zipRight(settings.write(next), record(by, "store.payment-config", null, "success", { fields: changed, enabled: next.enabled }))
        )
        return viewOf(next)
      })

    // ---- checkout

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

    // ---- webhook

    const rejected = (field: string, message: string) =>
      Effect.zipRight(record(null, "store.webhook-rejected", null, "failure", { reason: message }), Effect.fail(new WebhookRejected({ field, message })))

    const receipt = (outcome: WebhookReceipt["outcome"]) => new WebhookReceipt({ received: true, outcome })

    /** The purchase a session is for: by its reference (our purchase id), else by the session id. */
    const purchaseFor = (session: ProviderSession) =>
      Effect.gen(function* () {
        const fromMetadata = session.metadata?.["purchaseId"]
        const reference = session.client_reference_id ?? (typeof fromMetadata === "string" ? fromMetadata : null)
        const rows = yield* readPurchases("read a purchase")(
          sql`SELECT ${purchaseColumns} FROM store_purchases WHERE id = ${reference ?? ""} OR provider_session_id = ${session.id}`
        )
        const row = rows.find((r) => r.id === reference) ?? rows.find((r) => r.provider_session_id === session.id)
        // A session the row does not know (another session with our reference) is not this purchase's payment.
        return row !== undefined && (row.provider_session_id === null || row.provider_session_id === session.id) ? row : undefined
      })

    const unmatched = (eventId: string, session: ProviderSession) =>
      Effect.as(
        Effect.zipRight(
          Effect.logWarning(`store: a paid session ${session.id} (event ${eventId}) matches no purchase; nothing was granted`),
          record(null, "store.webhook-unmatched", session.id, "failure", { eventId, sessionId: session.id, reference: session.client_reference_id ?? null })
        ),
        receipt("ignored")
      )

    /** The one delivery that completes the purchase grants its priority, in the same transaction; the rest are duplicates. */
    const complete = (eventId: string, session: ProviderSession) =>
      Effect.gen(function* () {
        const purchase = yield* purchaseFor(session)
        if (purchase === undefined) return yield* unmatched(eventId, session)
        const role = asPriorityRole(purchase.role)
        // An invariant: products only take the priority queue's roles (StoreRole), and purchases copy them.
        if (role === undefined) return yield* Effect.dieMessage(`store: purchase ${purchase.id} has role "${purchase.role}", which the priority queue does not know`)
        const at = yield* nowIso
        const amount = session.amount_total ?? purchase.amount
        const currency = session.currency?.toUpperCase() ?? purchase.currency
        const done = yield* transaction(
          "complete a purchase",
          Effect.gen(function* () {
            const opened = yield* readPurchases("complete a purchase")(
              sql`UPDATE store_purchases SET status = 'completed', completed_at = ${at}, provider_event_id = ${eventId},
                provider_session_id = ${session.id}, amount = ${amount}, currency = ${currency}
                WHERE id = ${purchase.id} AND status <> 'completed' RETURNING ${purchaseColumns}`
            )
            const row = opened[0]
            if (row === undefined) return undefined
            const staged: StagedPriorityGrant = yield* queue.grantWithin({
              platformId: row.platform_id,
              name: row.player_name,
              role,
              days: row.duration_days,
              source: "purchase",
              grantedBy: STORE_GRANTER
            }).pipe(Effect.mapError((error) => new StoreDataError({ message: `grant priority: ${error.message}` })))
            const entry = staged.result.entry
            yield* sql`UPDATE store_purchases SET entry_id = ${entry.id}, grant_outcome = ${staged.result.outcome},
              entry_expires_at = ${entry.expiresAt} WHERE id = ${row.id}`
            yield* record(null, "store.purchase", row.id, "success", {
              platformId: row.platform_id,
              playerName: row.player_name,
              productId: row.product_id,
              product: row.product_name,
              amount,
              currency,
              sessionId: session.id,
              eventId,
              outcome: staged.result.outcome,
              expiresAt: entry.expiresAt
            })
            return { row, staged }
          })
        )
        if (done === undefined) return receipt("duplicate")
        const { row, staged } = done
        const entry = staged.result.entry
        // Committed: the servers' files, the admins and the bus follow; none of them can undo the purchase.
        yield* staged.announce.pipe(
          Effect.catchAll((error) => Effect.logWarning(`store: purchase ${row.id} granted, but the servers were not synced now: ${error.message}`))
        )
        yield* notifications
          .publish({
            audience: { permission: ADMIN },
            level: "info",
            title: `VIP store: ${row.player_name} bought ${row.product_name}`.slice(0, 200),
            message:
              `${row.player_name} (${row.platform_id}) paid ${toDecimal(amount, currency)} ${currency}: ${row.role} priority ` +
              (entry.expiresAt === null ? "for good." : `until ${entry.expiresAt}.`),
            link: "/store/admin"
          })
          .pipe(Effect.catchAll((error) => Effect.logWarning(`store: no notification for purchase ${row.id}: ${error.message}`)))
        yield* bus.publish(
          new StorePurchaseCompleted({
            purchaseId: row.id,
            platformId: row.platform_id,
            playerName: row.player_name,
            productId: row.product_id,
            productName: row.product_name,
            role: row.role,
            durationDays: row.duration_days,
            amount,
            currency,
            entryId: entry.id,
            expiresAt: entry.expiresAt,
            outcome: staged.result.outcome
          })
        )
        return receipt("granted")
      })

    /** A pending purchase whose session ended unpaid. */
    const end = (session: ProviderSession, status: "expired" | "failed", eventId: string) =>
      Effect.gen(function* () {
        const purchase = yield* purchaseFor(session)
        if (purchase === undefined) return receipt("ignored")
        const ended = yield* transaction(
          "end a purchase",
          Effect.gen(function* () {
            const rows = yield* sql`UPDATE store_purchases SET status = ${status}, provider_session_id = ${session.id}
              WHERE id = ${purchase.id} AND status = 'pending' RETURNING id`
            if (rows.length === 0) return false
            yield* record(null, status === "expired" ? "store.checkout-expired" : "store.payment-failed", purchase.id, "success", { sessionId: session.id, eventId })
            return true
          })
        )
        return receipt(ended ? status : "ignored")
      })

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

    // ---- purchases

    const purchases: VipStoreShape["purchases"] = (params) =>
      Effect.gen(function* () {
        const limit = effectiveLimit(params.limit, PURCHASES_PAGE)
        const after = yield* purchasePaging.decode(params.cursor)
        const clauses = [
          ...(params.status === undefined ? [] : [sql`status = ${params.status}`]),
          ...(after === undefined ? [] : [purchasePaging.after(sql, after)])
        ]
        const rows: ReadonlyArray<PurchaseRow> = yield* readPurchases("list purchases")(
          sql`SELECT ${purchaseColumns} FROM store_purchases WHERE ${sql.and(clauses)}
            ORDER BY ${sql.literal(purchasePaging.orderBy)} LIMIT ${limit + 1}`
        )
        const page = purchasePaging.page(rows, limit)
        return new StorePurchasePage({ items: page.items.map(purchaseView), nextCursor: page.nextCursor })
      })

    return VipStore.of({
      status: Effect.map(settings.read, (config) => new StoreStatus({ enabled: config.enabled, configured: missingOf(config).length === 0, currency: config.currency })),
      products,
      createProduct,
      updateProduct,
      deleteProduct,
      paymentConfig: Effect.map(settings.read, viewOf),
      setPaymentConfig,
      checkout,
      webhook,
      purchases
    })
  })

  /** Needs the kernel (`SqlClient`, `EventBus`, `SealedSecrets`, `AuditTrail`), the priority queue and notifications. */
  static readonly layer = Layer.effect(VipStore, VipStore.make).pipe(Layer.provide(FetchHttpClient.layer))
}
