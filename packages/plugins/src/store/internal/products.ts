/**
 * The store's products: listing, adding (at most `MAX_PRODUCTS`), changing
 * and removing them, with a price checked in its currency and a duration
 * with its days.
 */
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import { DURATION_DAYS, MAX_PRODUCTS, type StoreDuration, type StoreProductPatch, StoreProducts } from "../contract/Api.js"
import { MAXIMUM_AMOUNT, minimumAmount, toDecimal, toMinorUnits } from "../contract/money.js"
import { InvalidStoreInput, ProductNotFound, StoreRefused } from "../errors.js"
import type { VipStoreShape } from "../VipStore.js"
import type { StoreDeps } from "./deps.js"
import { type ProductRow, productView } from "./rows.js"

/** A product's days: the fixed durations', `customDays` for `custom`, null for `permanent`. */
export const durationDays = (duration: StoreDuration, customDays: number | null): number | null =>
  duration === "permanent" ? null : duration === "custom" ? customDays : DURATION_DAYS[duration]

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

export const makeProducts = (
  { sql, settings, productColumns, nowIso, transaction, readProducts, record }: StoreDeps
): Pick<VipStoreShape, "products" | "createProduct" | "updateProduct" | "deleteProduct"> => {
  const productById = (id: string) =>
    Effect.flatMap(readProducts("read a product")(sql`SELECT ${productColumns} FROM store_products WHERE id = ${id}`), (rows) =>
      rows[0] === undefined ? Effect.fail(new ProductNotFound({ id })) : Effect.succeed(rows[0])
    )

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

  return { products, createProduct, updateProduct, deleteProduct }
}
