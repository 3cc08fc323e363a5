/** The purchase log as the admins page through it: newest first, by status if asked. */
import * as Effect from "effect/Effect"
import { effectiveLimit } from "@garrison/runtime"
import { PURCHASES_PAGE, StorePurchasePage } from "../contract/Api.js"
import type { VipStoreShape } from "../VipStore.js"
import type { StoreDeps } from "./deps.js"
import { type PurchaseRow, purchasePaging, purchaseView } from "./rows.js"

export const makePurchases = ({ sql, purchaseColumns, readPurchases }: StoreDeps): Pick<VipStoreShape, "purchases"> => {
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

  return { purchases }
}
