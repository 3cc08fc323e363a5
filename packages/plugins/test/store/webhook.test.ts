/**
 * The provider's signed webhook over the real controller and the payment
 * stand-in: a paid session grants its priority once (delivered twice, or
 * ten times at once), into every server's `priority.txt`, with the purchase
 * completed, the admins notified, `StorePurchaseCompleted` published (its
 * durable consumers run inside the purchase's transaction) and an audit row; a tampered, wrongly keyed, unsigned or stale delivery is 400
 * and grants nothing; a renewal extends the player's entry from its expiry;
 * an expired session ends its purchase.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { EventBus, on } from "@garrison/runtime"
import { Effect, Option, Queue } from "effect"
import { StorePurchaseCompleted, storeSignatureHeader } from "../../src/store/index.js"
import {
  ADMIN,
  addProduct,
  call,
  checkout,
  configure,
  createServer,
  DAY_MS,
  detailPaths,
  OTHER,
  outcomeOf,
  priorityEntries,
  priorityFile,
  purchases,
  STEAM64,
  WEBHOOK_SECRET,
  withStore
} from "./support.js"

const pay = (payments: { readonly pay: (id: string) => Promise<{ status: number; response: string }> }, sessionId: string) =>
  Effect.map(
    Effect.promise(() => payments.pay(sessionId)),
    outcomeOf
  )

describe("the store's webhook", () => {
  it.scopedLive("a paid session delivered twice grants once: one entry in every priority.txt, the purchase completed, admins told", () =>
    withStore(({ payments, purchases: events }) =>
      Effect.gen(function* () {
        const alpha = yield* createServer("alpha")
        const beta = yield* createServer("beta")
        yield* configure(payments)
        const product = yield* addProduct({ name: "VIP 30 days", price: "4.99", duration: "30d" })
        const session = yield* checkout(product.id, STEAM64, "Survivor")
        // A durable consumer (as webhooks' outbox is) gets the event inside the purchase's transaction, once.
        const staged: Array<boolean> = []
        yield* (yield* EventBus).registerDurable(
          "store-test",
          on(StorePurchaseCompleted, () => Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), (t) => void staged.push(Option.isSome(t))))
        )

        const before = Date.now()
        expect(yield* pay(payments, session.sessionId)).toEqual({ status: 200, outcome: "granted" })
        expect(staged).toEqual([true])
        expect(priorityFile(alpha.installDir)).toBe(STEAM64)
        expect(priorityFile(beta.installDir)).toBe(STEAM64)

        // The provider's retry: the same event, signed again.
        const again = yield* Effect.promise(() => payments.deliver(session.sessionId))
        expect(outcomeOf(again)).toEqual({ status: 200, outcome: "duplicate" })
        expect(staged).toEqual([true])
        expect(again.eventId).toBe(payments.deliveries[0]!.eventId)
        expect(priorityFile(alpha.installDir)).toBe(STEAM64)

        const entries = yield* priorityEntries
        expect(entries).toHaveLength(1)
        expect(entries[0]).toMatchObject({ platformId: STEAM64, name: "Survivor", role: "VIP", source: "purchase", addedBy: "store" })
        const expires = Date.parse(entries[0]!.expiresAt!)
        expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS)
        expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS)

        const list = yield* purchases()
        expect(list.items).toHaveLength(1)
        expect(list.items[0]).toMatchObject({
          id: session.purchaseId,
          status: "completed",
          platformId: STEAM64,
          playerName: "Survivor",
          amount: 499,
          currency: "EUR",
          price: "4.99",
          providerSessionId: session.sessionId,
          product: { id: product.id, name: "VIP 30 days", role: "VIP", durationDays: 30 },
          grant: { entryId: entries[0]!.id, outcome: "added", expiresAt: entries[0]!.expiresAt },
          startedBy: "bob"
        })
        expect(list.items[0]!.completedAt).not.toBeNull()

        const event = yield* Queue.take(events)
        expect(event).toMatchObject({ purchaseId: session.purchaseId, platformId: STEAM64, amount: 499, currency: "EUR", outcome: "added" })
        expect(yield* Queue.size(events)).toBe(0)

        const inbox = (yield* call("GET", "/api/notifications", { as: ADMIN })).body as { items: ReadonlyArray<{ title: string; message: string }> }
        expect(inbox.items.map((n) => n.title)).toEqual(["VIP store: Survivor bought VIP 30 days"])
        expect(inbox.items[0]!.message).toContain("paid 4.99 EUR")
        // Not for everyone: a caller without admin sees none of it.
        expect(((yield* call("GET", "/api/notifications", { as: "bob:server.view" })).body as { items: ReadonlyArray<unknown> }).items).toEqual([])

        const audit = (yield* call("GET", "/api/audit?action=store.purchase", { as: ADMIN })).body as { items: ReadonlyArray<{ target: string; details: Record<string, unknown> }> }
        expect(audit.items).toHaveLength(1)
        expect(audit.items[0]).toMatchObject({ target: session.purchaseId, details: { outcome: "added", sessionId: session.sessionId, amount: 499 } })
      })
    )
  )

  it.scopedLive("ten deliveries of one paid session at once grant once", () =>
    withStore(({ payments, purchases: events, webhookUrl }) =>
      Effect.gen(function* () {
        const server = yield* createServer("alpha")
        yield* configure(payments)
        const product = yield* addProduct({ duration: "90d" })
        const session = yield* checkout(product.id)
        // Paid at the provider, its first delivery lost (nothing listens there); then ten deliveries of it at once.
        payments.setWebhook("http://127.0.0.1:9/api/store/webhook", WEBHOOK_SECRET)
        expect((yield* Effect.promise(() => payments.pay(session.sessionId))).status).toBe(0)
        payments.setWebhook(webhookUrl, WEBHOOK_SECRET)
        const replies = yield* Effect.forEach(Array.from({ length: 10 }), () => Effect.promise(() => payments.deliver(session.sessionId)), {
          concurrency: "unbounded"
        })
        const outcomes = replies.map(outcomeOf)
        expect(outcomes.filter((o) => o.outcome === "granted")).toHaveLength(1)
        expect(outcomes.filter((o) => o.outcome === "duplicate")).toHaveLength(9)
        const entries = yield* priorityEntries
        expect(entries).toHaveLength(1)
        // Granted once: 90 days, not 900.
        expect(Date.parse(entries[0]!.expiresAt!)).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS)
        expect(priorityFile(server.installDir)).toBe(STEAM64)
        expect((yield* purchases()).items.map((p) => p.status)).toEqual(["completed"])
        yield* Queue.take(events)
        expect(yield* Queue.size(events)).toBe(0)
      })
    )
  )

  it.scopedLive("a tampered body, a wrong secret, no or a malformed signature: 400 naming Stripe-Signature, nothing granted", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        const server = yield* createServer("alpha")
        yield* configure(payments)
        const product = yield* addProduct({})
        const session = yield* checkout(product.id)

        const tampered = yield* Effect.promise(() =>
          payments.pay(session.sessionId, { tamper: (body) => body.replace(`"amount_total":499`, `"amount_total":1`) })
        )
        expect(tampered.body).toContain(`"amount_total":1`)
        expect(tampered.status).toBe(400)
        const refused = JSON.parse(tampered.response) as { error: string; message: string; details: ReadonlyArray<{ path: string }> }
        expect(refused.error).toBe("invalid-request")
        expect(refused.details[0]!.path).toBe("Stripe-Signature")
        expect(refused.message).toMatch(/^Stripe-Signature: no v1 signature matches the body/)

        expect((yield* Effect.promise(() => payments.deliver(session.sessionId, { secret: "whsec_someone_elses_secret_0000" }))).status).toBe(400)

        const body = payments.deliveries[0]!.body
        const now = Math.floor(Date.now() / 1000)
        const send = (headers: Record<string, string>, text = body) =>
          call("POST", "/api/store/webhook", { text: { body: text, contentType: "application/json" }, headers })
        const unsigned = yield* send({})
        expect([unsigned.status, detailPaths(unsigned)]).toEqual([400, ["Stripe-Signature"]])
        expect((unsigned.body as { message: string }).message).toBe("Stripe-Signature: the header is missing")
        for (const header of ["garbage", `t=${now}`, `v1=${"a".repeat(64)}`, `t=soon,v1=${"a".repeat(64)}`, `t=${now},v1=nothex`]) {
          expect((yield* send({ "stripe-signature": header })).status, header).toBe(400)
        }
        // A signature of the body's first byte only, or of another body, does not do either.
        expect((yield* send({ "stripe-signature": storeSignatureHeader(WEBHOOK_SECRET, now, body) }, `${body} `)).status).toBe(400)

        expect(yield* priorityEntries).toEqual([])
        expect(priorityFile(server.installDir) ?? "").toBe("")
        expect((yield* purchases()).items.map((p) => p.status)).toEqual(["pending"])
        const audit = (yield* call("GET", "/api/audit?action=store.webhook-rejected", { as: ADMIN })).body as { items: ReadonlyArray<{ result: string }> }
        expect(audit.items.length).toBeGreaterThanOrEqual(8)
        expect(audit.items.every((row) => row.result === "failure")).toBe(true)

        // The genuine delivery still grants.
        expect(outcomeOf(yield* Effect.promise(() => payments.deliver(session.sessionId)))).toEqual({ status: 200, outcome: "granted" })
        expect(priorityFile(server.installDir)).toBe(STEAM64)
      })
    )
  )

  it.scopedLive("a signature older or newer than 5 minutes is refused; one of several v1 matching is enough", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        yield* configure(payments)
        const product = yield* addProduct({})
        const session = yield* checkout(product.id)
        const now = Math.floor(Date.now() / 1000)
        const stale = yield* Effect.promise(() => payments.pay(session.sessionId, { signedAt: now - 301 }))
        expect(stale.status).toBe(400)
        expect((JSON.parse(stale.response) as { message: string }).message).toMatch(/^Stripe-Signature: the timestamp is more than 300 seconds from now/)
        expect((yield* Effect.promise(() => payments.deliver(session.sessionId, { signedAt: now + 400 }))).status).toBe(400)
        expect(yield* priorityEntries).toEqual([])

        // A provider rolling its secret signs with both: the old one first, the current one second.
        const body = payments.deliveries[0]!.body
        const t = Math.floor(Date.now() / 1000) - 250
        const old = storeSignatureHeader("whsec_the_previous_secret_000000", t, body).split(",")[1]!
        const current = storeSignatureHeader(WEBHOOK_SECRET, t, body).split(",")[1]!
        const reply = yield* call("POST", "/api/store/webhook", {
          text: { body, contentType: "application/json; charset=utf-8" },
          headers: { "stripe-signature": `t=${t},${old},v0=${"0".repeat(64)},${current}` }
        })
        expect([reply.status, reply.body]).toEqual([200, { received: true, outcome: "granted" }])
        expect((yield* priorityEntries).map((e) => e.platformId)).toEqual([STEAM64])
      })
    )
  )

  it.scopedLive("a renewal extends the player's entry from its current expiry; permanent stays permanent; an expired entry is replaced", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        const server = yield* createServer("alpha")
        yield* configure(payments)
        const month = yield* addProduct({ name: "VIP 30 days", duration: "30d" })
        const week = yield* addProduct({ name: "Supporter week", role: "Supporter", price: "1.50", duration: "custom", customDays: 7 })
        const forever = yield* addProduct({ name: "Premium forever", role: "Premium", price: "49.00", duration: "permanent" })

        // A manual entry ending in 10 days: a month bought now ends 40 days out, from that expiry, with the product's role.
        const tenDays = new Date(Date.now() + 10 * DAY_MS).toISOString()
        const manual = yield* call("POST", "/api/priority-queue", { as: ADMIN, json: { platformId: STEAM64, name: "Regular", role: "Supporter", expiresAt: tenDays } })
        expect(manual.status).toBe(201)
        expect(yield* pay(payments, (yield* checkout(month.id, STEAM64, "Bought name")).sessionId)).toEqual({ status: 200, outcome: "granted" })
        let [entry] = yield* priorityEntries
        expect(entry).toMatchObject({
          id: (manual.body as { id: string }).id,
          name: "Regular",
          role: "VIP",
          source: "purchase",
          expiresAt: new Date(Date.parse(tenDays) + 30 * DAY_MS).toISOString()
        })
        // And again: another 7 days on top.
        const after40 = entry!.expiresAt!
        yield* pay(payments, (yield* checkout(week.id)).sessionId)
        ;[entry] = yield* priorityEntries
        expect(entry).toMatchObject({ role: "Supporter", expiresAt: new Date(Date.parse(after40) + 7 * DAY_MS).toISOString() })

        // Permanent: bought once, it stays permanent whatever is bought after.
        yield* pay(payments, (yield* checkout(forever.id)).sessionId)
        ;[entry] = yield* priorityEntries
        expect(entry).toMatchObject({ role: "Premium", expiresAt: null })
        yield* pay(payments, (yield* checkout(month.id)).sessionId)
        ;[entry] = yield* priorityEntries
        expect(entry).toMatchObject({ role: "Premium", expiresAt: null })
        const outcomes = (yield* purchases()).items.map((p) => p.grant?.outcome)
        expect(outcomes).toEqual(["kept", "extended", "extended", "extended"])
        expect(priorityFile(server.installDir)).toBe(STEAM64)

        // Another player with an expired entry (its expiry passed, the cleanup not run yet): a new entry from now.
        const lapsed = yield* call("POST", "/api/priority-queue", { as: ADMIN, json: { platformId: OTHER, name: "Lapsed", role: "VIP", expiresAt: tenDays } })
        expect(lapsed.status).toBe(201)
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE priority_entries SET expires_at = ${new Date(Date.now() - DAY_MS).toISOString()} WHERE platform_id = ${OTHER}`
        const start = Date.now()
        yield* pay(payments, (yield* checkout(week.id, OTHER, "Back again")).sessionId)
        const other = (yield* priorityEntries).find((e) => e.platformId === OTHER)!
        expect(other).toMatchObject({ name: "Back again", role: "Supporter", source: "purchase", addedBy: "store" })
        expect(other.id).not.toBe((lapsed.body as { id: string }).id)
        expect(Date.parse(other.expiresAt!)).toBeGreaterThanOrEqual(start + 7 * DAY_MS)
        expect(priorityFile(server.installDir)).toBe(`${STEAM64};${OTHER}`)
      })
    )
  )

  it.scopedLive("an expired session ends its purchase; events the store does not act on are ignored; a session it did not make grants nothing", () =>
    withStore(({ payments }) =>
      Effect.gen(function* () {
        yield* configure(payments)
        const product = yield* addProduct({})
        const session = yield* checkout(product.id)
        expect(outcomeOf(yield* Effect.promise(() => payments.expire(session.sessionId)))).toEqual({ status: 200, outcome: "expired" })
        expect((yield* purchases()).items.map((p) => p.status)).toEqual(["expired"])

        const sign = (event: unknown) => {
          const body = JSON.stringify(event)
          return call("POST", "/api/store/webhook", {
            text: { body, contentType: "application/json" },
            headers: { "stripe-signature": storeSignatureHeader(WEBHOOK_SECRET, Math.floor(Date.now() / 1000), body) }
          })
        }
        const other = yield* sign({ id: "evt_other", object: "event", type: "customer.created", data: { object: { id: "cus_1" } } })
        expect([other.status, other.body]).toEqual([200, { received: true, outcome: "ignored" }])
        const unknown = yield* sign({
          id: "evt_unknown",
          type: "checkout.session.completed",
          data: { object: { id: "cs_not_ours", client_reference_id: "nope", payment_status: "paid", amount_total: 499, currency: "eur" } }
        })
        expect([unknown.status, unknown.body]).toEqual([200, { received: true, outcome: "ignored" }])
        // Paid later by another method: not paid yet (`unpaid` while a transfer is under way) is not granted.
        const second = yield* checkout(product.id)
        const unpaid = yield* sign({
          id: "evt_unpaid",
          type: "checkout.session.completed",
          data: { object: { id: second.sessionId, client_reference_id: second.purchaseId, payment_status: "unpaid" } }
        })
        expect(unpaid.body).toEqual({ received: true, outcome: "ignored" })
        const notAnEvent = yield* sign({ hello: "world" })
        expect([notAnEvent.status, detailPaths(notAnEvent)]).toEqual([400, ["body"]])
        expect(yield* priorityEntries).toEqual([])
      })
    )
  )
})
