/**
 * A stand-in for a Stripe-compatible payment provider, as much of Stripe's
 * API as a store's checkout and webhook use, over `node:http`:
 *
 * - `POST /v1/checkout/sessions`: form-encoded (Stripe's bracketed names,
 *   `line_items[0][price_data][unit_amount]=499`), the secret key as
 *   `Authorization: Bearer`, `Idempotency-Key` honoured; answers the
 *   session (`{id: "cs_test_...", object: "checkout.session", url, ...}`),
 *   or Stripe's `{error: {type, message, param}}` with 400 or 401.
 * - `GET /v1/checkout/sessions/:id`: the session.
 * - `GET /pay/:id`: a payment page (the session's `url`): the product, the
 *   amount, a Pay button and a Cancel link. `POST /pay/:id` pays: the
 *   session becomes `complete`/`paid`, the signed `checkout.session.completed`
 *   event is sent to the webhook, and the buyer is redirected (303) to
 *   `success_url` (its `{CHECKOUT_SESSION_ID}` filled in).
 * - `POST /v1/test/checkout/sessions/:id/{pay,deliver,expire}` (Bearer key):
 *   pay without the page, deliver the session's last event again (same
 *   event id, signed afresh: a provider's retry), or expire an open
 *   session (`checkout.session.expired`); each answers the delivery
 *   `{eventId, status, body}`.
 *
 * Webhooks are signed as Stripe signs them: `Stripe-Signature:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 * webhook signing secret as written (`whsec_...`).
 */
import { createHmac, randomBytes } from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export interface FakePaymentsOptions {
  /** Default 0: any free port. */
  readonly port?: number
  /** Default 127.0.0.1. */
  readonly host?: string
  /** The secret key requests must carry (`Authorization: Bearer`); when left out any key starting `sk_` is taken. */
  readonly apiKey?: string
  /** Where events are sent (a store's `/api/store/webhook`); can be set later (`setWebhook`). */
  readonly webhookUrl?: string
  /** The webhook signing secret (`whsec_...`). */
  readonly webhookSecret?: string
}

/** A Checkout Session as the stand-in keeps it: Stripe's fields. */
export interface FakeSession {
  readonly id: string
  readonly object: "checkout.session"
  readonly url: string
  status: "open" | "complete" | "expired"
  payment_status: "unpaid" | "paid"
  readonly mode: string
  readonly amount_total: number
  readonly currency: string
  readonly client_reference_id: string | null
  readonly metadata: Readonly<Record<string, string>>
  readonly success_url: string
  readonly cancel_url: string
  readonly created: number
  readonly expires_at: number
  readonly livemode: false
  /** Not a field of Stripe's session (its line items are a separate list): the product's name, for the payment page. */
  readonly product_name: string
  readonly product_description: string | null
}

/** A checkout request as the stand-in received it. */
export interface SeenRequest {
  readonly authorization: string | undefined
  readonly idempotencyKey: string | undefined
  readonly contentType: string | undefined
  /** The decoded form fields, Stripe's names (`line_items[0][price_data][currency]`). */
  readonly form: Readonly<Record<string, string>>
}

/** One webhook delivery: the event, what was sent and what the store answered. */
export interface Delivery {
  readonly eventId: string
  readonly type: string
  /** The body sent, as signed (unless `tamper` changed it after signing). */
  readonly body: string
  readonly signature: string
  /** The store's status (0 when it could not be reached). */
  readonly status: number
  readonly response: string
}

export interface DeliverOptions {
  /** Sign with this unix time instead of now (a stale or future signature). */
  readonly signedAt?: number
  /** Sign with this secret instead of the configured one. */
  readonly secret?: string
  /** Change the body after it was signed (a tampered delivery). */
  readonly tamper?: (body: string) => string
}

export interface FakePayments {
  /** `http://host:port`, no trailing slash: the store's provider base URL. */
  readonly url: string
  readonly sessions: ReadonlyMap<string, FakeSession>
  /** Every checkout request received, oldest first. */
  readonly requests: ReadonlyArray<SeenRequest>
  /** Every webhook delivery made, oldest first. */
  readonly deliveries: ReadonlyArray<Delivery>
  readonly setWebhook: (url: string, secret: string) => void
  /** Pays an open session and delivers `checkout.session.completed`. */
  readonly pay: (sessionId: string, options?: DeliverOptions) => Promise<Delivery>
  /** Delivers the session's last event again: same event id and body, signed afresh (or as `options` say). */
  readonly deliver: (sessionId: string, options?: DeliverOptions) => Promise<Delivery>
  /** Expires an open session and delivers `checkout.session.expired`. */
  readonly expire: (sessionId: string, options?: DeliverOptions) => Promise<Delivery>
  readonly close: () => Promise<void>
}

/** `HMAC-SHA256(secret, "<t>.<body>")` in hex, Stripe's `v1`. */
export const stripeSignature = (secret: string, timestamp: number, body: string): string =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")

/** The `Stripe-Signature` header for `body` signed at `timestamp`. */
export const stripeSignatureHeader = (secret: string, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${stripeSignature(secret, timestamp, body)}`

const token = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url")}`
const nowSeconds = () => Math.floor(Date.now() / 1000)

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c)

class StripeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string
  ) {
    super(message)
  }
}

const readBody = (request: Http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > 1_000_000) {
        reject(new StripeError(413, "The request body is too large."))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const minorDigits = (currency: string): number => {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2
  } catch {
    return 2
  }
}

const shownAmount = (amount: number, currency: string): string => {
  const digits = minorDigits(currency)
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency.toUpperCase()}`
}

export const startFakePayments = async (options: FakePaymentsOptions = {}): Promise<FakePayments> => {
  const sessions = new Map<string, FakeSession>()
  const byIdempotencyKey = new Map<string, FakeSession>()
  const lastEvent = new Map<string, { readonly id: string; readonly type: string; readonly body: string }>()
  const requests: Array<SeenRequest> = []
  const deliveries: Array<Delivery> = []
  let webhookUrl = options.webhookUrl
  let webhookSecret = options.webhookSecret
  let base = ""

  const authorized = (request: Http.IncomingMessage) => {
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")
    if (match === null) throw new StripeError(401, "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.")
    const key = match[1]!
    const good = options.apiKey === undefined ? key.startsWith("sk_") : key === options.apiKey
    if (!good) throw new StripeError(401, `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`)
  }

  const createSession = (request: Http.IncomingMessage, text: string): FakeSession => {
    const form = Object.fromEntries(new URLSearchParams(text))
    const idempotencyKey = typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : undefined
    requests.push({ authorization: request.headers.authorization, idempotencyKey, contentType: request.headers["content-type"], form })
    authorized(request)
    if (!/^application\/x-www-form-urlencoded\b/.test(request.headers["content-type"] ?? "")) {
      throw new StripeError(400, "Invalid request: the body must be application/x-www-form-urlencoded.")
    }
    if (idempotencyKey !== undefined) {
      const earlier = byIdempotencyKey.get(idempotencyKey)
      if (earlier !== undefined) return earlier
    }
    const need = (name: string) => {
      const value = form[name]
      if (value === undefined || value === "") throw new StripeError(400, `Missing required param: ${name}.`, name)
      return value
    }
    if (need("mode") !== "payment") throw new StripeError(400, "This stand-in only takes mode=payment.", "mode")
    const currency = need("line_items[0][price_data][currency]")
    if (!/^[a-z]{3}$/.test(currency)) throw new StripeError(400, `Invalid currency: ${currency}.`, "line_items[0][price_data][currency]")
    const amount = Number(need("line_items[0][price_data][unit_amount]"))
    if (!Number.isInteger(amount) || amount < 1 || amount > 99_999_999) {
      throw new StripeError(400, "Invalid integer: unit_amount must be a whole number of the currency's smallest unit.", "line_items[0][price_data][unit_amount]")
    }
    const quantity = Number(need("line_items[0][quantity]"))
    if (!Number.isInteger(quantity) || quantity < 1) throw new StripeError(400, "Invalid quantity.", "line_items[0][quantity]")
    const metadata: Record<string, string> = {}
    for (const [key, value] of Object.entries(form)) {
      const name = /^metadata\[([^\]]+)\]$/.exec(key)?.[1]
      if (name !== undefined) metadata[name] = value
    }
    const id = token("cs_test")
    const created = nowSeconds()
    const session: FakeSession = {
      id,
      object: "checkout.session",
      url: `${base}/pay/${id}`,
      status: "open",
      payment_status: "unpaid",
      mode: "payment",
      amount_total: amount * quantity,
      currency,
      client_reference_id: form["client_reference_id"] ?? null,
      metadata,
      success_url: need("success_url"),
      cancel_url: need("cancel_url"),
      created,
      expires_at: created + 24 * 3600,
      livemode: false,
      product_name: need("line_items[0][price_data][product_data][name]"),
      product_description: form["line_items[0][price_data][product_data][description]"] ?? null
    }
    sessions.set(id, session)
    if (idempotencyKey !== undefined) byIdempotencyKey.set(idempotencyKey, session)
    return session
  }

  /** The session as Stripe shows it (without the stand-in's own fields). */
  const shown = (session: FakeSession) => {
    const { product_name: _name, product_description: _description, ...fields } = session
    return fields
  }

  const send = async (sessionId: string, deliverOptions: DeliverOptions = {}): Promise<Delivery> => {
    const event = lastEvent.get(sessionId)
    if (event === undefined) throw new Error(`session ${sessionId} has no event to deliver`)
    const secret = deliverOptions.secret ?? webhookSecret
    if (webhookUrl === undefined || secret === undefined) throw new Error("no webhook URL and signing secret are set (setWebhook)")
    const signedAt = deliverOptions.signedAt ?? nowSeconds()
    const signature = stripeSignatureHeader(secret, signedAt, event.body)
    const body = deliverOptions.tamper === undefined ? event.body : deliverOptions.tamper(event.body)
    let status = 0
    let response = ""
    try {
      const answer = await fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature, "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
        body,
        signal: AbortSignal.timeout(20_000)
      })
      status = answer.status
      response = await answer.text()
    } catch (error) {
      response = error instanceof Error ? error.message : String(error)
    }
    const delivery: Delivery = { eventId: event.id, type: event.type, body, signature, status, response }
    deliveries.push(delivery)
    return delivery
  }

  const emit = (session: FakeSession, type: string, deliverOptions?: DeliverOptions) => {
    const event = {
      id: token("evt"),
      object: "event",
      api_version: "2024-06-20",
      created: nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: shown(session) }
    }
    lastEvent.set(session.id, { id: event.id, type, body: JSON.stringify(event) })
    return send(session.id, deliverOptions)
  }

  const sessionOf = (id: string) => {
    const session = sessions.get(id)
    if (session === undefined) throw new StripeError(404, `No such checkout.session: '${id}'`, "id")
    return session
  }

  const pay = (id: string, deliverOptions?: DeliverOptions) => {
    const session = sessionOf(id)
    if (session.status !== "open") throw new StripeError(400, `This Checkout Session is ${session.status}.`)
    session.status = "complete"
    session.payment_status = "paid"
    return emit(session, "checkout.session.completed", deliverOptions)
  }

  const expire = (id: string, deliverOptions?: DeliverOptions) => {
    const session = sessionOf(id)
    if (session.status !== "open") throw new StripeError(400, `This Checkout Session is ${session.status}.`)
    session.status = "expired"
    return emit(session, "checkout.session.expired", deliverOptions)
  }

  const json = (response: Http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" })
    response.end(JSON.stringify(body))
  }

  const payPage = (session: FakeSession) => {
    const amount = shownAmount(session.amount_total, session.currency)
    const title = session.status === "open" ? `Pay ${amount}` : `This checkout is ${session.status}`
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Fake payments</title></head>
<body style="font-family: sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem">
<main>
<h1>${escapeHtml(title)}</h1>
<p>Test mode: a stand-in for a payment provider. No money moves.</p>
<p><strong>${escapeHtml(session.product_name)}</strong>${session.product_description === null ? "" : `<br>${escapeHtml(session.product_description)}`}</p>
<p>Amount: <strong>${escapeHtml(amount)}</strong></p>
${
  session.status === "open"
    ? `<form method="post" action="/pay/${encodeURIComponent(session.id)}"><button type="submit">Pay ${escapeHtml(amount)}</button></form>
<p><a href="${escapeHtml(session.cancel_url)}">Cancel and return to the store</a></p>`
    : `<p><a href="${escapeHtml(session.success_url.split("{CHECKOUT_SESSION_ID}").join(session.id))}">Return to the store</a></p>`
}
</main>
</body></html>`
  }

  const handle = async (request: Http.IncomingMessage, response: Http.ServerResponse) => {
    const url = new URL(request.url ?? "/", base)
    const path = url.pathname
    const method = request.method ?? "GET"
    const body = method === "POST" ? await readBody(request) : ""
    // Browsers ask for one on every page: nothing to show.
    if (path === "/favicon.ico") {
      response.writeHead(204)
      return response.end()
    }
    if (method === "POST" && path === "/v1/checkout/sessions") return json(response, 200, shown(createSession(request, body)))
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)
    if (method === "GET" && sessionPath !== null) {
      authorized(request)
      return json(response, 200, shown(sessionOf(decodeURIComponent(sessionPath[1]!))))
    }
    const testPath = /^\/v1\/test\/checkout\/sessions\/([^/]+)\/(pay|deliver|expire)$/.exec(path)
    if (method === "POST" && testPath !== null) {
      authorized(request)
      const id = decodeURIComponent(testPath[1]!)
      const delivery = await (testPath[2] === "pay" ? pay(id) : testPath[2] === "expire" ? expire(id) : (sessionOf(id), send(id)))
      return json(response, 200, { eventId: delivery.eventId, type: delivery.type, status: delivery.status, response: delivery.response })
    }
    const payPath = /^\/pay\/([^/]+)$/.exec(path)
    if (payPath !== null && (method === "GET" || method === "POST")) {
      const session = sessions.get(decodeURIComponent(payPath[1]!))
      if (session === undefined) {
        response.writeHead(404, { "content-type": "text/plain" })
        return response.end("No such checkout")
      }
      if (method === "POST" && session.status === "open") {
        await pay(session.id)
        response.writeHead(303, { location: session.success_url.split("{CHECKOUT_SESSION_ID}").join(session.id) })
        return response.end()
      }
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      return response.end(payPage(session))
    }
    throw new StripeError(404, `Unrecognized request URL (${method}: ${path}).`)
  }

  const server = Http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return response.end()
      if (error instanceof StripeError) {
        return json(response, error.status, {
          error: { type: "invalid_request_error", message: error.message, ...(error.param === undefined ? {} : { param: error.param }) }
        })
      }
      json(response, 500, { error: { type: "api_error", message: error instanceof Error ? error.message : String(error) } })
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = server.address() as AddressInfo
  base = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`

  const guarded = <A>(run: () => Promise<A>): Promise<A> => {
    try {
      return run()
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }

  return {
    url: base,
    sessions,
    requests,
    deliveries,
    setWebhook: (url, secret) => {
      webhookUrl = url
      webhookSecret = secret
    },
    pay: (id, deliverOptions) => guarded(() => pay(id, deliverOptions)),
    deliver: (id, deliverOptions) => guarded(() => (sessionOf(id), send(id, deliverOptions))),
    expire: (id, deliverOptions) => guarded(() => expire(id, deliverOptions)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
