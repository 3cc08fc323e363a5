/**
 * The store's pure parts: money in minor units (never floating point), the
 * webhook signature check (Stripe's scheme, checked against the payment
 * stand-in's independent signer), the route policy (the webhook alone is
 * CSRF-exempt and public among the writes), the roles it sells, its
 * published event.
 */
import { describe, expect, it } from "vitest"
import { stripeSignatureHeader } from "@garrison/example-fake-payments"
import { Access, planPlugins } from "@garrison/runtime"
import { withAuditTrail } from "@garrison/testkit"
import * as Either from "effect/Either"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { PRIORITY_ROLES, PriorityPlugin } from "../../src/priority/index.js"
import { ServersPlugin } from "../../src/servers/index.js"
import {
  STORE_EVENTS,
  STORE_ROLES,
  storeDecimal,
  storeDurationDays,
  storeMinimumAmount,
  storeMinorUnits,
  StorePlugin,
  storeSessionForm,
  storeSignatureHeader,
  StorePurchaseCompleted,
  verifyStoreSignature
} from "../../src/store/index.js"

const SECRET = "whsec_unit_test_secret"
const BODY = '{"id":"evt_1","type":"checkout.session.completed","data":{"object":{"id":"cs_1"}}}'
const NOW = 1_767_225_600

describe("money", () => {
  it("reads decimal prices into minor units exactly, per the currency's places", () => {
    expect(storeMinorUnits("4.99", "EUR")).toEqual({ amount: 499 })
    expect(storeMinorUnits("0.29", "EUR")).toEqual({ amount: 29 })
    expect(storeMinorUnits("1.1", "USD")).toEqual({ amount: 110 })
    expect(storeMinorUnits("999999.99", "EUR")).toEqual({ amount: 99_999_999 })
    expect(storeMinorUnits("500", "JPY")).toEqual({ amount: 500 })
    expect(storeMinorUnits("1.234", "KWD")).toEqual({ amount: 1234 })
    expect(storeMinorUnits("4.999", "EUR")).toEqual({ problem: "EUR has 2 decimal places at most" })
    expect(storeMinorUnits("5.5", "JPY")).toEqual({ problem: "JPY has no minor unit: write a whole amount" })
    for (const bad of ["", "4,99", "-1", "1e3", " 1", "0x10", "4.", ".5"]) expect(storeMinorUnits(bad, "EUR"), bad).toHaveProperty("problem")
  })

  it("writes minor units back as decimal strings; the least price is 0.50 (1 where there is no minor unit)", () => {
    expect([storeDecimal(499, "EUR"), storeDecimal(5, "EUR"), storeDecimal(0, "USD"), storeDecimal(500, "JPY"), storeDecimal(5, "KWD")]).toEqual([
      "4.99",
      "0.05",
      "0.00",
      "500",
      "0.005"
    ])
    expect([storeMinimumAmount("EUR"), storeMinimumAmount("JPY"), storeMinimumAmount("KWD")]).toEqual([50, 1, 500])
    expect([storeDurationDays("30d", null), storeDurationDays("90d", null), storeDurationDays("1y", null), storeDurationDays("permanent", null), storeDurationDays("custom", 12)]).toEqual([
      30,
      90,
      365,
      null,
      12
    ])
  })
})

describe("the webhook signature", () => {
  const check = (header: string | undefined, body = BODY, nowSeconds = NOW) => verifyStoreSignature({ header, body, secret: SECRET, nowSeconds })

  it("takes the provider's own signature (the stand-in signs on its own), any of several v1, within 5 minutes either way", () => {
    expect(stripeSignatureHeader(SECRET, NOW, BODY)).toBe(storeSignatureHeader(SECRET, NOW, BODY))
    expect(check(stripeSignatureHeader(SECRET, NOW, BODY))).toEqual({ ok: true, timestamp: NOW })
    expect(check(stripeSignatureHeader(SECRET, NOW - 300, BODY)).ok).toBe(true)
    expect(check(stripeSignatureHeader(SECRET, NOW + 300, BODY)).ok).toBe(true)
    const good = stripeSignatureHeader(SECRET, NOW, BODY).split(",")[1]!
    expect(check(`t=${NOW},v1=${"0".repeat(64)},v0=abc,${good}`).ok).toBe(true)
    expect(check(`t=${NOW}, v1=${good.slice(3).toUpperCase()}`).ok).toBe(true)
  })

  it("refuses a missing, malformed, stale, foreign or altered signature, saying which", () => {
    const refusal = (result: ReturnType<typeof check>) => (result.ok ? "accepted" : result.message)
    expect(refusal(check(undefined))).toBe("Stripe-Signature: the header is missing")
    expect(refusal(check(stripeSignatureHeader(SECRET, NOW - 301, BODY)))).toMatch(/more than 300 seconds from now/)
    expect(refusal(check(stripeSignatureHeader(SECRET, NOW + 301, BODY)))).toMatch(/more than 300 seconds from now/)
    expect(refusal(check(stripeSignatureHeader("whsec_other", NOW, BODY)))).toMatch(/no v1 signature matches the body/)
    expect(refusal(check(stripeSignatureHeader(SECRET, NOW, BODY), BODY.replace("cs_1", "cs_2")))).toMatch(/no v1 signature matches/)
    expect(refusal(check(`t=${NOW},t=${NOW},v1=${"a".repeat(64)}`))).toMatch(/one timestamp/)
    expect(refusal(check(`v1=${"a".repeat(64)}`))).toBe("Stripe-Signature: no timestamp (t=...)")
    expect(refusal(check(`t=${NOW},v0=${"a".repeat(64)}`))).toBe("Stripe-Signature: no v1 signature")
    expect(refusal(check(`t=${NOW},v1=short`))).toMatch(/no v1 signature matches/)
    expect(refusal(check("nonsense"))).toMatch(/expected t=<unix seconds>,v1=<hex signature>/)
  })
})

describe("the store plugin", () => {
  const plan = Either.getOrThrow(planPlugins(withAuditTrail([ServersPlugin, NotificationsPlugin, PriorityPlugin, StorePlugin])))
  const route = (method: string, path: string) => plan.routes.find((r) => r.method === method && r.path === path)!

  it("the spec's routes and access; of its writes only the webhook is CSRF-exempt and public", () => {
    const mine = plan.routes.filter((r) => r.path.startsWith("/api/store"))
    expect(mine.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "DELETE /api/store/admin/products/:id",
      "GET /api/store/admin/payment-config",
      "GET /api/store/admin/products",
      "GET /api/store/admin/purchases",
      "GET /api/store/products",
      "GET /api/store/status",
      "PATCH /api/store/admin/products/:id",
      "POST /api/store/admin/payment-config",
      "POST /api/store/admin/products",
      "POST /api/store/checkout",
      "POST /api/store/webhook"
    ])
    expect(mine.filter((r) => r.csrfExempt).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/store/webhook"])
    expect(route("POST", "/api/store/webhook").access).toEqual(Access.none)
    expect(route("GET", "/api/store/status").access).toEqual(Access.none)
    expect(route("GET", "/api/store/products").access).toEqual(Access.none)
    expect(route("POST", "/api/store/checkout").access).toEqual(Access.anyAuth)
    for (const r of mine.filter((r) => r.path.startsWith("/api/store/admin"))) expect(r.access, `${r.method} ${r.path}`).toEqual(Access.permission("admin"))
  })

  it("sells the priority queue's roles; publishes store.purchase", () => {
    expect([...STORE_ROLES]).toEqual([...PRIORITY_ROLES])
    expect(STORE_EVENTS.map((e) => [e.name, e.tag])).toEqual([["store.purchase", "StorePurchaseCompleted"]])
    const example = STORE_EVENTS[0]!.example as StorePurchaseCompleted
    expect(STORE_EVENTS[0]!.summary(example)).toBe("Survivor (76561198000000001) bought VIP 30 days for 4.99 EUR")
    expect(STORE_EVENTS[0]!.data(example)).toMatchObject({ amount: 499, currency: "EUR", durationDays: 30 })
  })

  it("asks the provider for a session in Stripe's form fields (no empty description)", () => {
    const form = storeSessionForm({
      baseUrl: "https://api.stripe.com",
      secretKey: "sk_test_x",
      successUrl: "https://panel/store/success",
      cancelUrl: "https://panel/store/cancel",
      purchaseId: "p1",
      productId: "prod1",
      productName: "VIP",
      description: " ",
      amount: 499,
      currency: "EUR",
      platformId: "76561198012345678",
      playerName: "Survivor"
    })
    expect(form["line_items[0][price_data][currency]"]).toBe("eur")
    expect(form["line_items[0][price_data][unit_amount]"]).toBe("499")
    expect(form).not.toHaveProperty(["line_items[0][price_data][product_data][description]"])
  })
})
