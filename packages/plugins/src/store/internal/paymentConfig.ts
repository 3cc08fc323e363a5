/**
 * The store's payment settings as the admins see and set them (secrets
 * never shown), and the public status they imply: open, configured, and
 * the store's currency.
 */
import * as Effect from "effect/Effect"
import { type PaymentConfigInput, StoreStatus } from "../contract/Api.js"
import { InvalidStoreInput } from "../errors.js"
import type { VipStoreShape } from "../VipStore.js"
import type { StoreDeps } from "./deps.js"
import { missingOf, type Settings, viewOf } from "./settings.js"

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

export const makePaymentConfig = (
  { settings, nowIso, transaction, record }: StoreDeps
): Pick<VipStoreShape, "status" | "paymentConfig" | "setPaymentConfig"> => {
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

  return {
    status: Effect.map(settings.read, (config) => new StoreStatus({ enabled: config.enabled, configured: missingOf(config).length === 0, currency: config.currency })),
    paymentConfig: Effect.map(settings.read, viewOf),
    setPaymentConfig
  }
}
