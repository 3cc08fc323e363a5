/**
 * The store's admin side and its public answers: who may call what (admin
 * routes 403 for everyone else, status and products public), products'
 * validation (price as a decimal string in the currency's minor units,
 * 0.50 at least; durations; NUL; unknown fields), the payment settings
 * never answered back (only which are set, with a hint), purchases in pages.
 */
import * as SqlClient from "@effect/sql/SqlClient"
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
  type ProductBody,
  purchases,
  SECRET_KEY,
  STEAM64,
  WEBHOOK_SECRET,
  withStore
} from "./support.js"

const ADMIN_ROUTES = [
  ["GET", "/api/store/admin/products"],
  ["POST", "/api/store/admin/products"],
  ["PATCH", "/api/store/admin/products/x"],
  ["DELETE", "/api/store/admin/products/x"],
  ["GET", "/api/store/admin/purchases"],
  ["GET", "/api/store/admin/payment-config"],
  ["POST", "/api/store/admin/payment-config"]
] as const

describe("the store's admin routes and public answers", () => {
  it.scopedLive("admin routes are 401 anonymous and 403 without admin (even with priority.manage); status and products are public", () =>
    withStore(() =>
      Effect.gen(function* () {
        for (const [method, path] of ADMIN_ROUTES) {
          expect((yield* call(method, path, { json: {} })).status, `${method} ${path} anonymous`).toBe(401)
          for (const who of [BUYER, "pm:priority.manage,bans.manage,server.deploy"]) {
            const reply = yield* call(method, path, { as: who, json: {} })
            expect([reply.status, (reply.body as { error: string }).error], `${method} ${path} as ${who}`).toEqual([403, "forbidden"])
          }
        }
        expect((yield* call("GET", "/api/store/status")).status).toBe(200)
        expect((yield* call("GET", "/api/store/products")).body).toEqual({ items: [] })
        // The webhook needs no caller (the provider signs instead); the checkout needs one.
        expect((yield* call("POST", "/api/store/checkout", { json: {} })).status).toBe(401)
        const denied = (yield* call("GET", "/api/audit?action=access.denied", { as: ADMIN })).body as { items: ReadonlyArray<unknown> }
        expect(denied.items.length).toBe(ADMIN_ROUTES.length * 2)
      })
    )
  )

  it.scopedLive("products: the price as a decimal string and in minor units, durations, the public list shows active ones only, changes audited", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        yield* configure(payments, { currency: "USD" })
        const month = yield* addProduct({ name: " VIP month ", description: "Queue priority", price: "4.5", duration: "30d" })
        expect(month).toMatchObject({ name: "VIP month", price: "4.50", amount: 450, currency: "USD", duration: "30d", durationDays: 30, active: true })
        const yen = yield* addProduct({ name: "Yen", price: "500", currency: "jpy", duration: "1y" })
        expect(yen).toMatchObject({ price: "500", amount: 500, currency: "JPY", durationDays: 365 })
        const custom = yield* addProduct({ name: "Fortnight", price: "0.50", currency: "EUR", duration: "custom", customDays: 14, active: false })
        expect(custom).toMatchObject({ amount: 50, durationDays: 14, active: false })
        const forever = yield* addProduct({ name: "Forever", role: "Premium", price: "999999.99", duration: "permanent" })
        expect(forever).toMatchObject({ amount: 99_999_999, durationDays: null })

        const shown = (yield* call("GET", "/api/store/products")).body as { items: ReadonlyArray<ProductBody> }
        expect(shown.items.map((p) => p.name)).toEqual(["VIP month", "Yen", "Forever"])
        const all = (yield* call("GET", "/api/store/admin/products", { as: ADMIN })).body as { items: ReadonlyArray<ProductBody> }
        expect(all.items.map((p) => p.name)).toEqual(["VIP month", "Yen", "Fortnight", "Forever"])

        // Changes: the price re-read in a new currency, a duration change drops the custom days.
        const patched = yield* call("PATCH", `/api/store/admin/products/${custom.id}`, { as: ADMIN, json: { duration: "90d", active: true } })
        expect(patched.body).toMatchObject({ duration: "90d", durationDays: 90, active: true, amount: 50 })
        const inYen = yield* call("PATCH", `/api/store/admin/products/${month.id}`, { as: ADMIN, json: { currency: "JPY" } })
        expect([inYen.status, detailPaths(inYen)]).toEqual([400, ["price"]])
        expect((yield* call("PATCH", `/api/store/admin/products/${month.id}`, { as: ADMIN, json: { currency: "JPY", price: "700" } })).body).toMatchObject({
          price: "700",
          amount: 700,
          currency: "JPY"
        })
        expect((yield* call("PATCH", `/api/store/admin/products/${custom.id}`, { as: ADMIN, json: { customDays: 3 } })).status).toBe(400)
        expect((yield* call("PATCH", `/api/store/admin/products/${custom.id}`, { as: ADMIN, json: { duration: "custom", customDays: 3 } })).body).toMatchObject({
          durationDays: 3
        })
        expect((yield* call("PATCH", "/api/store/admin/products/nope", { as: ADMIN, json: { active: false } })).status).toBe(404)
        expect((yield* call("DELETE", `/api/store/admin/products/${yen.id}`, { as: ADMIN })).status).toBe(204)
        expect((yield* call("DELETE", `/api/store/admin/products/${yen.id}`, { as: ADMIN })).status).toBe(404)

        const audit = (yield* call("GET", "/api/audit?action=store.product.", { as: ADMIN })).body as { items: ReadonlyArray<{ action: string; actor: string }> }
        expect(audit.items.map((row) => row.action).sort()).toEqual([
          ...Array<string>(4).fill("store.product.add"),
          "store.product.remove",
          ...Array<string>(3).fill("store.product.update")
        ])
        expect(new Set(audit.items.map((row) => row.actor))).toEqual(new Set(["root"]))
      })
    )
  )

  it.scopedLive("products: bad input is a 400 naming the field, in the field's words", () =>
    withStore(() =>
      Effect.gen(function* () {
        const good = { name: "VIP", role: "VIP", price: "4.99", currency: "EUR", duration: "30d" }
        const cases: ReadonlyArray<readonly [Record<string, unknown>, string, RegExp?]> = [
          [{ price: 4.99 }, "price", /^price must be a string/],
          [{ price: "4,99" }, "price", /decimal amount as a string, such as "4\.99"/],
          [{ price: "0.49" }, "price", /^price must be at least 0\.50 EUR$/],
          [{ price: "4.999" }, "price", /EUR has 2 decimal places at most/],
          [{ price: "-1" }, "price"],
          [{ price: "1e3" }, "price"],
          [{ price: "1000000" }, "price", /at most 999999\.99 EUR/],
          [{ price: "1.5", currency: "JPY" }, "price", /JPY has no minor unit/],
          [{ currency: "EURO" }, "currency", /ISO 4217/],
          [{ currency: "XYZ" }, "currency"],
          [{ role: "Admin" }, "role", /VIP, Supporter, Premium/],
          [{ duration: "2w" }, "duration", /30d, 90d, 1y, permanent, custom/],
          [{ duration: "custom" }, "customDays", /required with duration "custom"/],
          [{ duration: "custom", customDays: 0 }, "customDays"],
          [{ duration: "custom", customDays: 1.5 }, "customDays"],
          [{ duration: "custom", customDays: 3651 }, "customDays"],
          [{ customDays: 10 }, "customDays", /goes only with duration "custom"/],
          [{ name: "" }, "name"],
          [{ name: "a\u0000b" }, "name", /must not contain a NUL character/],
          [{ description: "a\u0000b" }, "description", /must not contain a NUL character/],
          [{ name: "x".repeat(101) }, "name"],
          [{ duratoin: "30d" }, "duratoin", /is not a field of this body/]
        ]
        for (const [change, field, words] of cases) {
          const reply = yield* call("POST", "/api/store/admin/products", { as: ADMIN, json: { ...good, ...change } })
          expect([reply.status, detailPaths(reply)[0]], JSON.stringify(change)).toEqual([400, field])
          if (words !== undefined) expect((reply.body as { message: string }).message, JSON.stringify(change)).toMatch(words)
        }
        expect(((yield* call("GET", "/api/store/admin/products", { as: ADMIN })).body as { items: ReadonlyArray<unknown> }).items).toEqual([])
      })
    )
  )

  it.scopedLive("payment settings: secrets are never answered back, only whether they are set and a hint; enabling needs them all", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        const initial = yield* call("GET", "/api/store/admin/payment-config", { as: ADMIN })
        expect(initial.body).toEqual({
          enabled: false,
          currency: "EUR",
          baseUrl: "https://api.stripe.com",
          secretKey: { set: false, hint: null },
          webhookSecret: { set: false, hint: null },
          successUrl: null,
          cancelUrl: null,
          configured: false,
          missing: ["secretKey", "webhookSecret", "successUrl", "cancelUrl"],
          updatedAt: null,
          updatedBy: null
        })
        const early = yield* call("POST", "/api/store/admin/payment-config", { as: ADMIN, json: { enabled: true, secretKey: SECRET_KEY } })
        expect([early.status, detailPaths(early)]).toEqual([400, ["enabled"]])
        expect((early.body as { message: string }).message).toBe("enabled: the store cannot open before webhookSecret, successUrl, cancelUrl are set")
        expect(early.text).not.toContain(SECRET_KEY)

        const saved = yield* configure(payments)
        const texts = [JSON.stringify(saved)]
        const read = yield* call("GET", "/api/store/admin/payment-config", { as: ADMIN })
        texts.push(read.text, (yield* call("GET", "/api/store/status")).text)
        expect(read.body).toMatchObject({
          enabled: true,
          secretKey: { set: true, hint: `sk_test_…${SECRET_KEY.slice(-4)}` },
          webhookSecret: { set: true, hint: `whsec_…${WEBHOOK_SECRET.slice(-4)}` },
          configured: true,
          missing: [],
          updatedBy: "root"
        })
        // A change of one field keeps the secrets; the audit row names the fields, never a value.
        const renamed = yield* call("POST", "/api/store/admin/payment-config", { as: ADMIN, json: { currency: "usd" } })
        expect(renamed.body).toMatchObject({ currency: "USD", secretKey: { set: true }, configured: true })
        texts.push(renamed.text)
        const audit = yield* call("GET", "/api/audit?action=store.payment-config", { as: ADMIN })
        texts.push(audit.text)
        expect((audit.body as { items: ReadonlyArray<{ details: { fields: ReadonlyArray<string> } }> }).items.map((row) => row.details.fields)).toEqual([
          ["currency"],
          ["enabled", "currency", "baseUrl", "secretKey", "webhookSecret", "successUrl", "cancelUrl"]
        ])
        for (const text of texts) {
          expect(text).not.toContain(SECRET_KEY)
          expect(text).not.toContain(WEBHOOK_SECRET)
          expect(text).not.toContain(SECRET_KEY.slice(8, -4))
        }
        // Stored sealed: the database holds neither secret in clear.
        const sql = yield* SqlClient.SqlClient
        const [stored] = yield* sql<{ readonly secret_key: string; readonly webhook_secret: string }>`SELECT secret_key, webhook_secret FROM store_payment_config`
        expect(stored!.secret_key).toMatch(/^sealed:v1:/)
        expect(stored!.webhook_secret).toMatch(/^sealed:v1:/)
        expect(JSON.stringify(stored)).not.toContain(SECRET_KEY.slice(8))

        // Forgetting a secret closes nothing silently: while enabled it is refused.
        const forget = yield* call("POST", "/api/store/admin/payment-config", { as: ADMIN, json: { webhookSecret: null } })
        expect([forget.status, detailPaths(forget)]).toEqual([400, ["enabled"]])
        expect((yield* call("POST", "/api/store/admin/payment-config", { as: ADMIN, json: { enabled: false, webhookSecret: null } })).body).toMatchObject({
          enabled: false,
          webhookSecret: { set: false, hint: null },
          missing: ["webhookSecret"]
        })
        // Without a signing secret the webhook cannot check anything: 503, so the provider retries later.
        expect((yield* call("POST", "/api/store/webhook", { json: { id: "evt_1", type: "checkout.session.completed", data: { object: {} } } })).status).toBe(503)

        const bad: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
          [{ baseUrl: "http://payments.example.com" }, "baseUrl"],
          [{ baseUrl: "ftp://127.0.0.1" }, "baseUrl"],
          [{ baseUrl: "https://user:pw@api.stripe.com" }, "baseUrl"],
          [{ baseUrl: "https://api.stripe.com/?x=1" }, "baseUrl"],
          [{ successUrl: "/store/success" }, "successUrl"],
          [{ cancelUrl: "javascript:alert(1)" }, "cancelUrl"],
          [{ secretKey: "short" }, "secretKey"],
          [{ secretKey: "sk_test with spaces in it" }, "secretKey"],
          [{ webhookSecret: "whsec_\u0000abcdefgh" }, "webhookSecret"],
          [{ currency: "Euro" }, "currency"],
          [{ enabled: "yes" }, "enabled"],
          [{ secret: SECRET_KEY }, "secret"]
        ]
        for (const [body, field] of bad) {
          const reply = yield* call("POST", "/api/store/admin/payment-config", { as: ADMIN, json: body })
          expect([reply.status, detailPaths(reply)[0]], JSON.stringify(body)).toEqual([400, field])
          expect(reply.text).not.toContain(SECRET_KEY)
        }
        expect((yield* call("POST", "/api/store/admin/payment-config", { as: ADMIN, json: { baseUrl: "https://api.stripe.com/" } })).body).toMatchObject({
          baseUrl: "https://api.stripe.com"
        })
      })
    )
  )

  it.scopedLive("purchases: newest first, in pages, filtered by status", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        yield* configure(payments)
        const product = yield* addProduct({})
        const started: Array<string> = []
        for (let i = 0; i < 5; i++) started.push((yield* checkout(product.id, STEAM64, `Buyer ${i}`)).purchaseId)
        yield* Effect.promise(() => payments.pay([...payments.sessions.values()][1]!.id))

        const first = yield* purchases("?limit=2")
        expect(first.items.map((p) => p.playerName)).toEqual(["Buyer 4", "Buyer 3"])
        expect(first.nextCursor).not.toBeNull()
        const second = yield* purchases(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`)
        const third = yield* purchases(`?limit=2&cursor=${encodeURIComponent(second.nextCursor!)}`)
        expect([...first.items, ...second.items, ...third.items].map((p) => p.id)).toEqual([...started].reverse())
        expect(third.nextCursor).toBeNull()
        expect((yield* purchases("?status=completed")).items.map((p) => p.playerName)).toEqual(["Buyer 1"])
        expect((yield* purchases("?status=pending")).items).toHaveLength(4)
        expect((yield* call("GET", "/api/store/admin/purchases?status=paid", { as: ADMIN })).status).toBe(400)
        expect((yield* call("GET", "/api/store/admin/purchases?cursor=garbage", { as: ADMIN })).status).toBe(400)
        expect((yield* call("GET", "/api/store/admin/purchases?limit=501", { as: ADMIN })).status).toBe(400)
      })
    )
  )
})
