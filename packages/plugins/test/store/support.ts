/**
 * An in-process controller with the real servers plugin (over the fake
 * launcher), the audit, notifications and priority plugins and the VIP
 * store, beside the payment stand-in (`examples/fake-payments`) wired to its
 * webhook; helpers to set the store up, buy, and read `priority.txt`.
 */
import type { HttpMethod } from "@effect/platform/HttpMethod"
import { on, Plugin } from "@garrison/runtime"
import { type FakePayments, startFakePayments } from "@garrison/example-fake-payments"
import { type CallOptions, fakeFleet, fakeInstall, jsonBody, request, serverPort, testController } from "@garrison/testkit"
import { Effect, LogLevel, Queue } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { AuditPlugin } from "../../src/audit/index.js"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { PriorityPlugin } from "../../src/priority/index.js"
import { StorePlugin, StorePurchaseCompleted } from "../../src/store/index.js"

export const ADMIN = "root:admin"
/** Any signed-in caller may buy. */
export const BUYER = "bob:server.view"
export const DEPLOY = "dep:server.deploy"
export const SECRET_KEY = "sk_test_51StoreSecretKey0123456789abcdef"
export const WEBHOOK_SECRET = "whsec_StoreSigningSecret0123456789abcdefgh"
export const STEAM64 = "76561198012345678"
export const OTHER = "76561198000000001"

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly body: unknown
}

export const call = (method: HttpMethod, path: string, options: CallOptions = {}) =>
  Effect.map(request(method, path, options), ({ status, headers, text }): Reply => ({ status, headers, text, body: jsonBody<unknown>(text, undefined) }))

/** The fields of a 400's details. */
export const detailPaths = (reply: Reply) => {
  const details = (reply.body as { readonly details?: unknown }).details
  return Array.isArray(details) ? details.map((d: { readonly path?: unknown }) => String(d.path)) : []
}

/** The payment stand-in for the test's scope (closed at its end). */
export const fakePayments = Effect.acquireRelease(
  Effect.promise(() => startFakePayments({ apiKey: SECRET_KEY })),
  (payments) => Effect.promise(() => payments.close())
)

/**
 * A controller with the store and its neighbours, the stand-in wired to its
 * webhook, and a queue of the `StorePurchaseCompleted` events. `body` runs
 * inside the controller.
 */
export const withStore = <A, E, R>(
  body: (context: {
    readonly payments: FakePayments
    readonly purchases: Queue.Queue<StorePurchaseCompleted>
    /** The controller's webhook URL, as the stand-in has it. */
    readonly webhookUrl: string
  }) => Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const payments = yield* fakePayments
    const purchases = yield* Queue.unbounded<StorePurchaseCompleted>()
    const recorder = Plugin.make({ id: "store-recorder", events: [on(StorePurchaseCompleted, (e) => Queue.offer(purchases, e))] })
    const layer = testController([fakeFleet().plugin, AuditPlugin, NotificationsPlugin, PriorityPlugin, StorePlugin, recorder], {
      dataPrefix: "garrison-store-",
      logLevel: LogLevel.Error
    })
    return yield* Effect.provide(
      Effect.gen(function* () {
        const webhookUrl = `http://127.0.0.1:${yield* serverPort}/api/store/webhook`
        payments.setWebhook(webhookUrl, WEBHOOK_SECRET)
        return yield* body({ payments, purchases, webhookUrl })
      }),
      layer
    )
  })

/** Opens the store against the stand-in. */
export const configure = (payments: FakePayments, extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const reply = yield* call("POST", "/api/store/admin/payment-config", {
      as: ADMIN,
      json: {
        enabled: true,
        currency: "EUR",
        baseUrl: payments.url,
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_SECRET,
        successUrl: "http://127.0.0.1/store/success?session_id={CHECKOUT_SESSION_ID}",
        cancelUrl: "http://127.0.0.1/store/cancel",
        ...extra
      }
    })
    if (reply.status !== 200) return yield* Effect.dieMessage(`configure: ${reply.status} ${reply.text}`)
    return reply.body
  })

export interface ProductBody {
  readonly id: string
  readonly name: string
  readonly price: string
  readonly amount: number
  readonly currency: string
  readonly duration: string
  readonly durationDays: number | null
  readonly active: boolean
}

export const addProduct = (fields: Record<string, unknown>) =>
  Effect.gen(function* () {
    const reply = yield* call("POST", "/api/store/admin/products", { as: ADMIN, json: { name: "VIP 30 days", role: "VIP", price: "4.99", duration: "30d", ...fields } })
    if (reply.status !== 201) return yield* Effect.dieMessage(`add product: ${reply.status} ${reply.text}`)
    return reply.body as ProductBody
  })

export interface CheckoutBody {
  readonly url: string
  readonly sessionId: string
  readonly purchaseId: string
}

export const checkout = (productId: string, platformId = STEAM64, playerName = "Survivor") =>
  Effect.gen(function* () {
    const reply = yield* call("POST", "/api/store/checkout", { as: BUYER, json: { productId, platformId, playerName } })
    if (reply.status !== 200) return yield* Effect.dieMessage(`checkout: ${reply.status} ${reply.text}`)
    return reply.body as CheckoutBody
  })

/** The stand-in's answer from the store, parsed. */
export const outcomeOf = (delivery: { readonly status: number; readonly response: string }) => ({
  status: delivery.status,
  outcome: delivery.status === 200 ? (JSON.parse(delivery.response) as { outcome: string }).outcome : undefined
})

/** Creates a server entry over a fresh fake install; returns its id and folder. */
export const createServer = (name: string) =>
  Effect.gen(function* () {
    const installDir = fakeInstall()
    const reply = yield* call("POST", "/api/servers", { as: DEPLOY, json: { name, installDir } })
    if (reply.status !== 201) return yield* Effect.dieMessage(`create server: ${reply.status} ${reply.text}`)
    return { id: (reply.body as { id: string }).id, installDir }
  })

/** The server's `priority.txt`, or undefined when there is none. */
export const priorityFile = (installDir: string): string | undefined => {
  const path = NodePath.join(installDir, "priority.txt")
  return Fs.existsSync(path) ? Fs.readFileSync(path, "utf8") : undefined
}

export interface EntryBody {
  readonly id: string
  readonly platformId: string
  readonly name: string
  readonly role: string
  readonly expiresAt: string | null
  readonly addedBy: string
  readonly source: string
}

export const priorityEntries = Effect.map(
  call("GET", "/api/priority-queue", { as: ADMIN }),
  (reply) => (reply.body as { readonly items: ReadonlyArray<EntryBody> }).items
)

export interface PurchaseBody {
  readonly id: string
  readonly status: string
  readonly platformId: string
  readonly playerName: string
  readonly amount: number
  readonly currency: string
  readonly price: string
  readonly providerSessionId: string | null
  readonly product: { readonly id: string; readonly name: string; readonly role: string; readonly durationDays: number | null }
  readonly grant: { readonly entryId: string; readonly outcome: string; readonly expiresAt: string | null } | null
  readonly date: string
  readonly completedAt: string | null
  readonly startedBy: string
}

export const purchases = (query = "") =>
  Effect.map(call("GET", `/api/store/admin/purchases${query}`, { as: ADMIN }), (reply) => reply.body as { readonly items: ReadonlyArray<PurchaseBody>; readonly nextCursor: string | null })

export const DAY_MS = 86_400_000
