/** The handlers behind `StoreApi`; the host has already checked each endpoint's access (none, any caller, or admin). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import {
  auditActorOf,
  BadGateway,
  BadRequest,
  Conflict,
  CurrentPrincipal,
  cursorBadRequest,
  fieldBadRequest,
  notFoundWith,
  storeDefect,
  Unavailable
} from "@garrison/runtime"
import { StoreApi } from "./contract/Api.js"
import type { PaymentProviderFailed, ProductNotFound, StoreRefused, WebhookNotConfigured, WebhookRejected } from "./errors.js"
import { VipStore } from "./VipStore.js"

const notFound = notFoundWith((error: ProductNotFound) => `no product with id "${error.id}"`)
const refused = (error: StoreRefused) => Effect.fail(new Conflict({ message: error.message }))
/**
 * The provider's refusal or an answer that is not a session: 502; no answer
 * (nothing listening, or not in time): 503, a passing state with Retry-After,
 * as the workshop lookups answer an unreachable Steam.
 */
const providerFailed = (error: PaymentProviderFailed) =>
  Effect.fail(
    error.reason === "unreachable" || error.reason === "timeout" ? new Unavailable({ message: error.message }) : new BadGateway({ message: error.message })
  )
const webhookRejected = (error: WebhookRejected) =>
  Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
const notConfigured = (error: WebhookNotConfigured) => Effect.fail(new Unavailable({ message: error.message }))

const caller = Effect.map(CurrentPrincipal, auditActorOf)

export const StoreRoutes = HttpApiBuilder.group(StoreApi, "store", (handlers) =>
  Effect.gen(function* () {
    const store = yield* VipStore
    return handlers
      .handle("status", () => store.status.pipe(Effect.catchTag("StoreDataError", storeDefect)))
      .handle("products", () => store.products({ activeOnly: true }).pipe(Effect.catchTag("StoreDataError", storeDefect)))
      .handle("checkout", ({ payload }) =>
        Effect.flatMap(caller, (by) => store.checkout(payload, by)).pipe(
          Effect.catchTags({
            InvalidStoreInput: fieldBadRequest,
            StoreRefused: refused,
            PaymentProviderFailed: providerFailed,
            StoreDataError: storeDefect
          })
        )
      )
      // The signature is over the body's bytes as sent: the text the front door read and checked (UTF-8, a leading BOM dropped).
      .handle("webhook", ({ headers }) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.text).pipe(
          Effect.orDie,
          Effect.flatMap((body) => store.webhook(body, headers["stripe-signature"])),
          Effect.catchTags({ WebhookRejected: webhookRejected, WebhookNotConfigured: notConfigured, StoreDataError: storeDefect })
        )
      )
  })
)

export const StoreAdminRoutes = HttpApiBuilder.group(StoreApi, "storeAdmin", (handlers) =>
  Effect.gen(function* () {
    const store = yield* VipStore
    return handlers
      .handle("products", () => store.products({ activeOnly: false }).pipe(Effect.catchTag("StoreDataError", storeDefect)))
      .handle("createProduct", ({ payload }) =>
        Effect.flatMap(caller, (by) => store.createProduct(payload, by)).pipe(
          Effect.catchTags({ InvalidStoreInput: fieldBadRequest, StoreRefused: refused, StoreDataError: storeDefect })
        )
      )
      .handle("updateProduct", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => store.updateProduct(path.id, payload, by)).pipe(
          Effect.catchTags({ InvalidStoreInput: fieldBadRequest, ProductNotFound: notFound, StoreDataError: storeDefect })
        )
      )
      .handle("deleteProduct", ({ path }) =>
        Effect.flatMap(caller, (by) => store.deleteProduct(path.id, by)).pipe(
          Effect.catchTags({ ProductNotFound: notFound, StoreDataError: storeDefect })
        )
      )
      .handle("purchases", ({ urlParams }) =>
        store.purchases(urlParams).pipe(Effect.catchTags({ InvalidCursor: cursorBadRequest, StoreDataError: storeDefect }))
      )
      .handle("paymentConfig", () => store.paymentConfig.pipe(Effect.catchTag("StoreDataError", storeDefect)))
      .handle("setPaymentConfig", ({ payload }) =>
        Effect.flatMap(caller, (by) => store.setPaymentConfig(payload, by)).pipe(
          Effect.catchTags({ InvalidStoreInput: fieldBadRequest, StoreDataError: storeDefect })
        )
      )
  })
)
