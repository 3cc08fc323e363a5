/**
 * Checkout against the payment stand-in: the request is Stripe's (form
 * fields, Bearer key, Idempotency-Key), the answer `{url, sessionId}`, a
 * pending purchase recorded; who may buy, the buyer's Steam64 and name
 * checked, a closed store 409, the provider's refusal 502 (no answer 503)
 * with the purchase failed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  ADMIN,
  addProduct,
  BUYER,
  call,
  checkout,
  configure,
  detailPaths,
  purchases,
  SECRET_KEY,
  STEAM64,
  withStore
} from "./support.js"

describe("store checkout", () => {
  it.scopedLive("creates a Checkout Session with Stripe's form fields and answers its url and id; the purchase is pending", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        yield* configure(payments)
        const product = yield* addProduct({ name: "VIP 90 days", description: "Skip the queue for a season", price: "12.50", duration: "90d" })
        const reply = yield* call("POST", "/api/store/checkout", {
          as: BUYER,
          json: { productId: product.id, platformId: STEAM64, playerName: "  Survivor  " }
        })
        expect(reply.status).toBe(200)
        const result = reply.body as { url: string; sessionId: string; purchaseId: string }
        expect(Object.keys(result).sort()).toEqual(["purchaseId", "sessionId", "url"])
        expect(result.sessionId).toMatch(/^cs_test_/)
        expect(result.url).toBe(`${payments.url}/pay/${result.sessionId}`)

        expect(payments.requests).toHaveLength(1)
        const seen = payments.requests[0]!
        expect(seen.authorization).toBe(`Bearer ${SECRET_KEY}`)
        expect(seen.idempotencyKey).toBe(result.purchaseId)
        expect(seen.contentType).toMatch(/^application\/x-www-form-urlencoded/)
        expect(seen.form).toEqual({
          mode: "payment",
          success_url: "http://127.0.0.1/store/success?session_id={CHECKOUT_SESSION_ID}",
          cancel_url: "http://127.0.0.1/store/cancel",
          client_reference_id: result.purchaseId,
          "line_items[0][quantity]": "1",
          "line_items[0][price_data][currency]": "eur",
          "line_items[0][price_data][unit_amount]": "1250",
          "line_items[0][price_data][product_data][name]": "VIP 90 days",
          "line_items[0][price_data][product_data][description]": "Skip the queue for a season",
          "metadata[purchaseId]": result.purchaseId,
          "metadata[productId]": product.id,
          "metadata[platformId]": STEAM64,
          "metadata[playerName]": "Survivor"
        })
        const session = payments.sessions.get(result.sessionId)!
        expect(session).toMatchObject({ amount_total: 1250, currency: "eur", client_reference_id: result.purchaseId, status: "open" })

        const list = yield* purchases()
        expect(list.items).toEqual([
          expect.objectContaining({
            id: result.purchaseId,
            status: "pending",
            playerName: "Survivor",
            platformId: STEAM64,
            amount: 1250,
            price: "12.50",
            currency: "EUR",
            providerSessionId: result.sessionId,
            completedAt: null,
            grant: null,
            startedBy: "bob"
          })
        ])
        const audit = (yield* call("GET", "/api/audit?action=store.checkout", { as: ADMIN })).body as { items: ReadonlyArray<{ actor: string; target: string; result: string }> }
        expect(audit.items).toEqual([expect.objectContaining({ actor: "bob", target: result.purchaseId, result: "success" })])
      })
    )
  )

  it.scopedLive("needs a signed-in caller; checks the Steam64 id, the name and the product, naming the field", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        yield* configure(payments)
        const product = yield* addProduct({})
        const good = { productId: product.id, platformId: STEAM64, playerName: "Survivor" }
        expect((yield* call("POST", "/api/store/checkout", { json: good })).status).toBe(401)

        const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
          [{ platformId: "7656119801234567" }, "platformId"],
          [{ platformId: "86561198012345678" }, "platformId"],
          [{ platformId: "STEAM_0:0:26039975" }, "platformId"],
          [{ platformId: Number(STEAM64) }, "platformId"],
          [{ playerName: "" }, "playerName"],
          [{ playerName: "two\nlines" }, "playerName"],
          [{ playerName: "nul\u0000name" }, "playerName"],
          [{ playerName: "x".repeat(129) }, "playerName"],
          [{ productId: "no-such-product" }, "productId"],
          [{ coupon: "FREE" }, "coupon"]
        ]
        for (const [change, field] of cases) {
          const reply = yield* call("POST", "/api/store/checkout", { as: BUYER, json: { ...good, ...change } })
          expect([reply.status, detailPaths(reply)[0]], JSON.stringify(change)).toEqual([400, field])
        }
        const nul = yield* call("POST", "/api/store/checkout", { as: BUYER, json: { ...good, playerName: "nul\u0000name" } })
        expect((nul.body as { message: string }).message).toContain("must not contain a NUL character")
        // An inactive product is not on sale.
        expect((yield* call("PATCH", `/api/store/admin/products/${product.id}`, { as: ADMIN, json: { active: false } })).status).toBe(200)
        expect(detailPaths(yield* call("POST", "/api/store/checkout", { as: BUYER, json: good }))).toEqual(["productId"])
        expect(payments.requests).toEqual([])
        expect((yield* purchases()).items).toEqual([])
      })
    )
  )

  it.scopedLive("a closed or unconfigured store is 409; the provider's refusal is 502 and the purchase failed; no answer at all is 503", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        const product = yield* addProduct({})
        const closed = yield* call("POST", "/api/store/checkout", { as: BUYER, json: { productId: product.id, platformId: STEAM64, playerName: "S" } })
        expect([closed.status, (closed.body as { error: string }).error]).toEqual([409, "conflict"])
        expect((yield* call("GET", "/api/store/status")).body).toEqual({ enabled: false, configured: false, currency: "EUR" })

        // A key the provider does not take.
        yield* configure(payments, { secretKey: "sk_test_not_the_right_key_000000" })
        expect((yield* call("GET", "/api/store/status")).body).toEqual({ enabled: true, configured: true, currency: "EUR" })
        const refused = yield* call("POST", "/api/store/checkout", { as: BUYER, json: { productId: product.id, platformId: STEAM64, playerName: "S" } })
        expect(refused.status).toBe(502)
        const message = (refused.body as { message: string }).message
        expect(message).toMatch(/^the payment provider at http:\/\/127\.0\.0\.1:\d+ refused the checkout \(401\): Invalid API Key provided/)
        expect(message).not.toContain("sk_test_not_the_right_key_000000")
        expect((yield* purchases()).items.map((p) => p.status)).toEqual(["failed"])

        // Nobody there.
        yield* configure(payments, { secretKey: SECRET_KEY, baseUrl: "http://127.0.0.1:9" })
        const unreachable = yield* call("POST", "/api/store/checkout", { as: BUYER, json: { productId: product.id, platformId: STEAM64, playerName: "S" } })
        expect([unreachable.status, (unreachable.body as { message: string }).message]).toEqual([503, "the payment provider at http://127.0.0.1:9 is not reachable"])
        expect(unreachable.headers["retry-after"]).toBeDefined()

        // Closed again by the admin.
        yield* configure(payments, { enabled: false })
        expect((yield* call("POST", "/api/store/checkout", { as: BUYER, json: { productId: product.id, platformId: STEAM64, playerName: "S" } })).status).toBe(409)
        // Still answered: a payment made while it was open still counts.
        const session = yield* Effect.gen(function* () {
          yield* configure(payments)
          const started = yield* checkout(product.id)
          yield* configure(payments, { enabled: false })
          return started
        })
        const paid = yield* Effect.promise(() => payments.pay(session.sessionId))
        expect(JSON.parse(paid.response)).toEqual({ received: true, outcome: "granted" })
      })
    )
  )
})
