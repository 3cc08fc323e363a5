/**
 * What the parts of the `VipStore` service share: the database with the
 * store's column lists and row decoders, the payment settings, the clock,
 * transactions whose commit failure is a store error, and audit rows.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as SqlError from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { type AuditActor, auditActorFields, type AuditTrailShape, recordForRequest } from "@garrison/runtime"
import { storeError } from "../errors.js"
import { decodeProducts, decodePurchases, iso, PRODUCT_COLUMNS, PURCHASE_COLUMNS } from "./rows.js"
import type { makeSettings } from "./settings.js"

export type StoreSettings = Effect.Effect.Success<ReturnType<typeof makeSettings>>

export const makeStoreDeps = (sql: SqlClient.SqlClient, settings: StoreSettings, audit: AuditTrailShape) => {
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

  const record = (by: AuditActor | null, action: string, target: string | null, result: "success" | "failure", details: Record<string, unknown>) =>
    recordForRequest(audit, { ...auditActorFields(by), action, target, result, details })

  return {
    sql,
    settings,
    productColumns: sql.literal(PRODUCT_COLUMNS),
    purchaseColumns: sql.literal(PURCHASE_COLUMNS),
    nowIso: Effect.map(Clock.currentTimeMillis, iso),
    transaction,
    readProducts,
    readPurchases,
    record
  }
}

export type StoreDeps = ReturnType<typeof makeStoreDeps>
