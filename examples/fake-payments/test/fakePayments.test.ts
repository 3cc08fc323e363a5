/**
 * The payment stand-in on its own: Stripe's checkout request and errors,
 * idempotency, the payment page and its redirect, and webhooks signed as
 * Stripe signs them, delivered to a receiver here.
 */
import { createHmac } from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { type FakePayments, startFakePayments } from "../src/index.js"

const KEY = "sk_test_fake_payments_key_0001"
const SECRET = "whsec_fake_payments_secret"

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const SESSION = {
  mode: "payment",
  success_url: "http://shop.test/success?session_id={CHECKOUT_SESSION_ID}",
  cancel_url: "http://shop.test/cancel",
  client_reference_id: "purchase-1",
  "line_items[0][quantity]": "1",
  "line_items[0][price_data][currency]": "eur",
  "line_items[0][price_data][unit_amount]": "499",
  "line_items[0][price_data][product_data][name]": "VIP <30 days>",
  "metadata[platformId]": "76561198012345678"
}

interface Received {
  readonly signature: string
  readonly body: string
}

const receiver = async () => {
  const received: Array<Received> = []
  const server = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ signature: String(request.headers["stripe-signature"]), body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(200, { "content-type": "application/json" })
      response.end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

const open: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of open.splice(0)) await close()
})

const start = async () => {
  const hook = await receiver()
  const payments: FakePayments = await startFakePayments({ apiKey: KEY, webhookUrl: hook.url, webhookSecret: SECRET })
  open.push(hook.close, payments.close)
  const create = (fields: Record<string, string>, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) =>
    fetch(`${payments.url}/v1/checkout/sessions`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: form(fields) })
  return { payments, hook, create }
}

describe("the payment stand-in", () => {
  it("creates sessions from Stripe's form fields, refuses a wrong key or a missing field as Stripe does, honours Idempotency-Key", async () => {
    const { payments, create } = await start()
    const made = await create(SESSION)
    expect(made.status).toBe(200)
    const session = (await made.json()) as { id: string; url: string; amount_total: number; currency: string; metadata: Record<string, string>; status: string }
    expect(session).toMatchObject({ amount_total: 499, currency: "eur", status: "open", metadata: { platformId: "76561198012345678" } })
    expect(session.url).toBe(`${payments.url}/pay/${session.id}`)

    const wrongKey = await create(SESSION, { authorization: "Bearer sk_test_wrong_key_000000000" })
    expect(wrongKey.status).toBe(401)
    expect(((await wrongKey.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid API Key provided: sk_test_\*+0000$/)
    const { success_url: _, ...withoutSuccess } = SESSION
    const missing = await create(withoutSuccess)
    expect([missing.status, await missing.json()]).toEqual([400, { error: { type: "invalid_request_error", message: "Missing required param: success_url.", param: "success_url" } }])

    const once = await create(SESSION, { authorization: `Bearer ${KEY}`, "idempotency-key": "k1" })
    const twice = await create(SESSION, { authorization: `Bearer ${KEY}`, "idempotency-key": "k1" })
    expect(((await once.json()) as { id: string }).id).toBe(((await twice.json()) as { id: string }).id)
    expect(payments.requests.map((r) => r.idempotencyKey)).toEqual([undefined, undefined, undefined, "k1", "k1"])
  })

  it("pays from its page: the signed checkout.session.completed goes to the webhook, then the buyer to success_url", async () => {
    const { payments, hook, create } = await start()
    const session = (await (await create(SESSION)).json()) as { id: string; url: string }
    const page = await (await fetch(session.url)).text()
    expect(page).toContain("VIP &lt;30 days&gt;")
    expect(page).toContain("4.99 EUR")
    expect(page).toContain('href="http://shop.test/cancel"')

    const paid = await fetch(session.url, { method: "POST", redirect: "manual" })
    expect(paid.status).toBe(303)
    expect(paid.headers.get("location")).toBe(`http://shop.test/success?session_id=${session.id}`)
    expect(hook.received).toHaveLength(1)
    const [t, v1] = hook.received[0]!.signature.split(",")
    expect(v1).toBe(`v1=${createHmac("sha256", SECRET).update(`${t!.slice(2)}.${hook.received[0]!.body}`).digest("hex")}`)
    const event = JSON.parse(hook.received[0]!.body) as { id: string; type: string; data: { object: { id: string; payment_status: string; client_reference_id: string } } }
    expect(event).toMatchObject({ type: "checkout.session.completed", data: { object: { id: session.id, payment_status: "paid", client_reference_id: "purchase-1" } } })
    expect(payments.sessions.get(session.id)?.status).toBe("complete")

    // A retry: the same event, signed again; paying twice is refused.
    const again = await payments.deliver(session.id)
    expect([again.eventId, again.status, again.body]).toEqual([event.id, 200, hook.received[0]!.body])
    await expect(payments.pay(session.id)).rejects.toThrow(/is complete/)
    const viaApi = await fetch(`${payments.url}/v1/test/checkout/sessions/${session.id}/deliver`, { method: "POST", headers: { authorization: `Bearer ${KEY}` } })
    expect(((await viaApi.json()) as { eventId: string }).eventId).toBe(event.id)
    expect(hook.received).toHaveLength(3)
  })

  it("expires an open session; a tampered delivery differs from what was signed", async () => {
    const { payments, hook, create } = await start()
    const session = (await (await create(SESSION)).json()) as { id: string }
    const expired = await payments.expire(session.id, { tamper: (body) => body.replace("expired", "EXPIRED") })
    expect(expired.type).toBe("checkout.session.expired")
    const [t, v1] = hook.received[0]!.signature.split(",")
    expect(v1).not.toBe(`v1=${createHmac("sha256", SECRET).update(`${t!.slice(2)}.${hook.received[0]!.body}`).digest("hex")}`)
  })
})
