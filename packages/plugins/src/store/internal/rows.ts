/** `store_products` and `store_purchases` rows, their API views, and the purchases list's paging. */
import * as Schema from "effect/Schema"
import { cursorCodec, Keyset } from "@garrison/runtime"
import { PurchaseGrant, PurchaseProduct, StoreProduct, StorePurchase } from "../contract/Api.js"
import { toDecimal } from "../contract/money.js"

/** Integers come back as strings on PostgreSQL for BIGINT and COUNT; INTEGER as numbers: both read. */
const Int = Schema.Union(Schema.Number, Schema.NumberFromString)

export const PRODUCT_COLUMNS = `id, name, description, role, amount, currency, duration, duration_days, active, created_at, updated_at`

export const ProductRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  role: Schema.String,
  amount: Int,
  currency: Schema.String,
  duration: Schema.String,
  duration_days: Schema.NullOr(Int),
  active: Int,
  created_at: Schema.String,
  updated_at: Schema.String
})
export type ProductRow = typeof ProductRow.Type
export const decodeProducts = Schema.decodeUnknown(Schema.Array(ProductRow))

export const productView = (row: ProductRow): StoreProduct =>
  new StoreProduct({
    id: row.id,
    name: row.name,
    description: row.description,
    role: row.role,
    price: toDecimal(row.amount, row.currency),
    amount: row.amount,
    currency: row.currency,
    duration: row.duration,
    durationDays: row.duration_days,
    active: row.active !== 0,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })

export const PURCHASE_COLUMNS = `id, created_at, status, platform_id, player_name, product_id, product_name, role, duration, duration_days,
  amount, currency, started_by, provider_session_id, provider_event_id, completed_at, entry_id, grant_outcome, entry_expires_at`

export const PurchaseRow = Schema.Struct({
  id: Schema.String,
  created_at: Schema.String,
  status: Schema.String,
  platform_id: Schema.String,
  player_name: Schema.String,
  product_id: Schema.String,
  product_name: Schema.String,
  role: Schema.String,
  duration: Schema.String,
  duration_days: Schema.NullOr(Int),
  amount: Int,
  currency: Schema.String,
  started_by: Schema.String,
  provider_session_id: Schema.NullOr(Schema.String),
  provider_event_id: Schema.NullOr(Schema.String),
  completed_at: Schema.NullOr(Schema.String),
  entry_id: Schema.NullOr(Schema.String),
  grant_outcome: Schema.NullOr(Schema.String),
  entry_expires_at: Schema.NullOr(Schema.String)
})
export type PurchaseRow = typeof PurchaseRow.Type
export const decodePurchases = Schema.decodeUnknown(Schema.Array(PurchaseRow))

export const purchaseView = (row: PurchaseRow): StorePurchase =>
  new StorePurchase({
    id: row.id,
    date: row.created_at,
    status: row.status,
    playerName: row.player_name,
    platformId: row.platform_id,
    product: new PurchaseProduct({ id: row.product_id, name: row.product_name, role: row.role, duration: row.duration, durationDays: row.duration_days }),
    amount: row.amount,
    currency: row.currency,
    price: toDecimal(row.amount, row.currency),
    providerSessionId: row.provider_session_id,
    completedAt: row.completed_at,
    grant:
      row.entry_id === null
        ? null
        : new PurchaseGrant({ entryId: row.entry_id, outcome: row.grant_outcome ?? "added", expiresAt: row.entry_expires_at }),
    startedBy: row.started_by
  })

/** Stored form of a time: UTC `toISOString()`, so that text order is time order. */
/** Times as stored and answered: the runtime's ISO 8601 text. */
export { isoOf as iso } from "@garrison/runtime"

/** The purchases list: newest first (by when the checkout began, then id). */
export const purchasePaging = Keyset.make({
  cursor: cursorCodec("store-purchases", Schema.Struct({ at: Schema.String, id: Schema.String })),
  key: [
    { column: "created_at", direction: "desc", value: (p: { readonly at: string; readonly id: string }) => p.at },
    { column: "id", direction: "desc", value: (p: { readonly at: string; readonly id: string }) => p.id }
  ],
  positionOf: (row: PurchaseRow) => ({ at: row.created_at, id: row.id })
})
