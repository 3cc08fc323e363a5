/**
 * Deliveries to fake receivers on loopback, on the TestClock (retry waits
 * and the day-long disable are moved through, never slept): the payload,
 * headers and signature; retries across a controller restart (delivered
 * once, three attempts in the log); 4xx final, 408/429/5xx and time-outs
 * retried; replays; a chat-platform receiver's embed and its 429; the
 * per-webhook concurrency limit; filters by server and severity;
 * notifications through a webhook; a target failing for a day disabled,
 * with a notification to the admins and an audit row.
 */
import { describe, expect, it } from "@effect/vitest"
import { EventBus } from "@garrison/runtime"
import { sleepsOnTestClock, tempDir } from "@garrison/testkit"
import { Clock, Effect, TestClock } from "effect"
import { Notifications } from "../../src/notifications/index.js"
import {
  ADMIN,
  call,
  type DeliveryBody,
  type ErrorBody,
  eventually,
  ok,
  readmeVerify,
  receiver,
  type Received,
  setup,
  sleepingUntil,
  START,
  TestPing,
  TestPong,
  verifySignature,
  type WebhookBody
} from "./support.js"

const createHook = (json: Record<string, unknown>) =>
  Effect.map(call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Hook", events: [{ pattern: "test.ping" }], ...json } }), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body as WebhookBody & { secret: string }
  })

const publish = (event: TestPing | TestPong) => Effect.flatMap(EventBus, (bus) => bus.publish(event))

const ping = (text = "hello", fields: Partial<ConstructorParameters<typeof TestPing>[0]> = {}) =>
  new TestPing({ serverId: "alpha", text, severity: "warning", ...fields })

const log = (id: string) =>
  Effect.map(call("GET", `/api/webhooks/${id}/deliveries`, { as: ADMIN }), (reply) => {
    expect(reply.status).toBe(200)
    return (reply.body as { items: ReadonlyArray<DeliveryBody> }).items
  })

const logUntil = (id: string, check: (items: ReadonlyArray<DeliveryBody>) => boolean, what: string) =>
  eventually(log(id), check, 10_000, what)

/** The delivery of the ping with this text (the log's order among deliveries queued at one instant is by id). */
const about = (items: ReadonlyArray<DeliveryBody>, text: string) => items.find((d) => d.summary === `Ping: ${text}`)

const received = (target: { received: Array<Received> }, n: number) =>
  eventually(Effect.sync(() => target.received.length), (count) => count >= n, 10_000, `${n} requests at the receiver`)

/**
 * Moves the TestClock to a pending delivery's next attempt: through every
 * earlier wake-up first (the dispatcher sleeps until the earliest thing it
 * waits for), then to the attempt once the dispatcher sleeps until it.
 */
const toNextAttempt = (delivery: DeliveryBody) =>
  Effect.gen(function* () {
    const at = Date.parse(delivery.nextAttemptAt!)
    for (;;) {
      const now = yield* Clock.currentTimeMillis
      const earlier = (yield* sleepsOnTestClock).filter((t) => t > now && t < at)
      if (earlier.length === 0) break
      yield* TestClock.setTime(Math.min(...earlier))
    }
    yield* sleepingUntil(at)
    yield* TestClock.setTime(at)
  })

describe("webhook deliveries", () => {
  it.scoped("an http target gets {event, timestamp, data}, the headers and a signature that verifies", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(() => ({ status: 200, body: `${"é".repeat(600)}\u0000tail` }))
      yield* Effect.gen(function* () {
        const hook = yield* createHook({ url: target.url("/hook?token=abc") })
        yield* publish(ping("hello"))
        const [delivery] = yield* logUntil(hook.id, (items) => items[0]?.status === "delivered", "the delivery")
        const request = target.received[0]!
        expect(JSON.parse(request.body)).toEqual({
          event: "test.ping",
          timestamp: new Date(START).toISOString(),
          data: { serverId: "alpha", text: "hello" }
        })
        expect(request.path).toBe("/hook?token=abc")
        expect(request.headers).toMatchObject({
          "content-type": "application/json",
          "x-garrison-event": "test.ping",
          "x-garrison-webhook-id": hook.id,
          "x-garrison-delivery": delivery!.id,
          "idempotency-key": delivery!.idempotencyKey,
          "x-garrison-attempt": "1"
        })
        expect(delivery!.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
        const signature = String(request.headers["x-garrison-signature"])
        expect(signature).toMatch(new RegExp(`^t=${Math.floor(START / 1000)},v1=[0-9a-f]{64}$`))
        expect(verifySignature(hook.secret, signature, request.body)).toBe(true)
        expect(verifySignature(hook.secret, signature, request.body.replace("hello", "hellO"))).toBe(false)
        expect(verifySignature("whsec_other", signature, request.body)).toBe(false)
        // The README's example, as a receiver would paste it (its time check relaxed: the test's clock is not the wall's).
        const verify = yield* readmeVerify
        expect(verify(hook.secret, signature, request.body, Number.POSITIVE_INFINITY)).toBe(true)
        expect(verify(hook.secret, signature, `${request.body} `, Number.POSITIVE_INFINITY)).toBe(false)
        expect(verify(hook.secret, signature, request.body, 300)).toBe(Math.abs(Date.now() - START) <= 300_000)
        // The log: one attempt, the answer's status and its first KiB (a character cut at the end dropped, NUL replaced).
        expect(delivery).toMatchObject({ event: "test.ping", status: "delivered", attempts: 1, responseStatus: 200, error: null, nextAttemptAt: null, test: false })
        expect(Buffer.byteLength(delivery!.responseBody!)).toBeLessThanOrEqual(1024)
        expect(delivery!.responseBody).toBe("é".repeat(512))
        expect(delivery!.summary).toBe("Ping: hello")

        // A rotated secret signs the next delivery.
        const rotated = (yield* call("POST", `/api/webhooks/${hook.id}/rotate-secret`, { as: ADMIN })).body as { secret: string }
        yield* publish(ping("again"))
        yield* received(target, 2)
        const second = target.received[1]!
        expect(verifySignature(rotated.secret, String(second.headers["x-garrison-signature"]), second.body)).toBe(true)
        expect(verifySignature(hook.secret, String(second.headers["x-garrison-signature"]), second.body)).toBe(false)
        expect(second.headers["idempotency-key"]).not.toBe(delivery!.idempotencyKey)

        // A payload over 256 KiB carries a note instead of its data.
        yield* publish(ping("big", { extra: { blob: "x".repeat(300 * 1024) } }))
        yield* received(target, 3)
        expect(JSON.parse(target.received[2]!.body).data).toEqual({ truncated: true, bytes: expect.any(Number) })
      }).pipe(Effect.provide(setup().layer))
    }))

  it.scoped("a target that fails twice then answers: delivered once, three attempts, across a controller restart", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const dataDir = tempDir("garrison-webhooks-data-")
      const target = yield* receiver((_, index) => (index < 2 ? { status: index === 0 ? 500 : 503, body: "down" } : { status: 204 }))
      // The first controller: the event, and the first attempt (500).
      const { hookId, first } = yield* Effect.gen(function* () {
        const hook = yield* createHook({ url: target.url() })
        yield* publish(ping("restart me"))
        const [delivery] = yield* logUntil(hook.id, (items) => items[0]?.attempts === 1, "the first attempt")
        return { hookId: hook.id, first: delivery! }
      }).pipe(Effect.provide(setup({ dataDir }).layer))
      expect(first).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500, responseBody: "down", error: "answered 500" })
      // 10 s ± 20 % after the attempt.
      const wait = Date.parse(first.nextAttemptAt!) - START
      expect(wait).toBeGreaterThanOrEqual(8000)
      expect(wait).toBeLessThanOrEqual(12000)
      expect(target.received.length).toBe(1)

      // The second controller on the same data directory finds the queue and goes on.
      yield* Effect.gen(function* () {
        yield* toNextAttempt(first)
        const [second] = yield* logUntil(hookId, (items) => items[0]?.attempts === 2, "the second attempt")
        expect(second).toMatchObject({ status: "pending", responseStatus: 503, error: "answered 503" })
        const wait2 = Date.parse(second!.nextAttemptAt!) - Date.parse(second!.lastAttemptAt!)
        expect(wait2).toBeGreaterThanOrEqual(16000)
        expect(wait2).toBeLessThanOrEqual(24000)
        yield* toNextAttempt(second!)
        const [third] = yield* logUntil(hookId, (items) => items[0]?.status === "delivered", "the delivery")
        expect(third).toMatchObject({ attempts: 3, responseStatus: 204, error: null, nextAttemptAt: null, id: first.id })
        const [hook] = ((yield* call("GET", "/api/webhooks", { as: ADMIN })).body as { items: ReadonlyArray<WebhookBody> }).items
        expect(hook).toMatchObject({ failingSince: null, pending: 0, enabled: true })
      }).pipe(Effect.provide(setup({ dataDir }).layer))
      // One event, three requests with one idempotency key, one of them answered 2xx.
      expect(target.received.map((r) => r.headers["x-garrison-attempt"])).toEqual(["1", "2", "3"])
      expect(new Set(target.received.map((r) => r.headers["idempotency-key"])).size).toBe(1)
      expect(new Set(target.received.map((r) => r.body)).size).toBe(1)
    }))

  it.scoped("a 4xx is final; 408, 429 and time-outs are retried; a 429's Retry-After is honoured", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver((request) => {
        const text = (JSON.parse(request.body) as { data: { text: string } }).data.text
        if (text === "gone") return { status: 404, body: "no such hook" }
        if (text === "slow") return "hang"
        if (text === "timeout") return { status: 408 }
        return { status: 200 }
      })
      yield* Effect.gen(function* () {
        const hook = yield* createHook({ url: target.url() })
        yield* publish(ping("gone"))
        const gone = about(yield* logUntil(hook.id, (items) => about(items, "gone")?.status === "failed", "the 404"), "gone")
        expect(gone).toMatchObject({ attempts: 1, responseStatus: 404, responseBody: "no such hook", error: "answered 404", nextAttemptAt: null })
        // A later event goes through; the failed one was not tried again.
        yield* publish(ping("marker"))
        yield* logUntil(hook.id, (items) => about(items, "marker")?.status === "delivered", "the marker")
        expect(target.received.length).toBe(2)

        yield* publish(ping("timeout"))
        const retried = about(yield* logUntil(hook.id, (items) => about(items, "timeout")?.attempts === 1, "the 408"), "timeout")
        expect(retried).toMatchObject({ status: "pending", responseStatus: 408 })

        yield* publish(ping("slow"))
        yield* received(target, 4)
        // No answer: the attempt gives up after WEBHOOKS_REQUEST_TIMEOUT (10 s) on the clock.
        yield* sleepingUntil(START + 10_000)
        yield* TestClock.adjust("10 seconds")
        const slow = about(yield* logUntil(hook.id, (items) => about(items, "slow")?.attempts === 1, "the time-out"), "slow")
        expect(slow).toMatchObject({ status: "pending", responseStatus: null, responseBody: null, error: "no answer within 10 s" })

        // A 429 waits its Retry-After, and so does every delivery to that target meanwhile.
        target.script = (request) => (request.body.includes('"busy"') ? { status: 429, headers: { "retry-after": "7" }, body: "slow down" } : { status: 200 })
        yield* publish(ping("busy"))
        const busy = about(yield* logUntil(hook.id, (items) => about(items, "busy")?.attempts === 1, "the 429"), "busy")
        expect(busy).toMatchObject({ status: "pending", responseStatus: 429 })
        expect(Date.parse(busy!.nextAttemptAt!) - Date.parse(busy!.lastAttemptAt!)).toBe(7000)
        yield* publish(ping("queued behind"))
        yield* logUntil(hook.id, (items) => about(items, "queued behind") !== undefined, "the next event")
        yield* toNextAttempt(busy!)
        const after = yield* logUntil(hook.id, (items) => about(items, "queued behind")?.status === "delivered", "the event after the pause")
        expect(about(after, "queued behind")!.lastAttemptAt).toBe(busy!.nextAttemptAt)
      }).pipe(Effect.provide(setup().layer))
    }))

  it.scoped("a failed delivery replays with its payload and idempotency key; a pending one cannot", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(() => ({ status: 410 }))
      yield* Effect.gen(function* () {
        const hook = yield* createHook({ url: target.url() })
        yield* publish(ping("replay me"))
        const [failed] = yield* logUntil(hook.id, (items) => items[0]?.status === "failed", "the failure")
        // The list and the webhook carry its newest delivery.
        const newest = { id: failed!.id, event: "test.ping", status: "failed", responseStatus: 410, at: failed!.lastAttemptAt }
        expect(((yield* call("GET", "/api/webhooks", { as: ADMIN })).body as { items: ReadonlyArray<WebhookBody> }).items[0]!.lastDelivery).toEqual(newest)
        expect(((yield* call("GET", `/api/webhooks/${hook.id}`, { as: ADMIN })).body as WebhookBody).lastDelivery).toEqual(newest)
        target.script = ok
        const replayed = yield* call("POST", `/api/webhooks/${hook.id}/deliveries/${failed!.id}/replay`, { as: ADMIN })
        expect(replayed.status).toBe(202)
        const copy = replayed.body as DeliveryBody
        expect(copy).toMatchObject({ status: "pending", attempts: 0, replayOf: failed!.id, idempotencyKey: failed!.idempotencyKey, event: "test.ping" })
        expect(copy.id).not.toBe(failed!.id)
        const items = yield* logUntil(hook.id, (all) => all.find((d) => d.id === copy.id)?.status === "delivered", "the replay")
        // The newest delivery is the log's first row (the TestClock stood still: the two tie on time, the id decides).
        const first = items[0]!
        expect(((yield* call("GET", `/api/webhooks/${hook.id}`, { as: ADMIN })).body as WebhookBody).lastDelivery).toEqual({
          id: first.id,
          event: "test.ping",
          status: first.status,
          responseStatus: first.responseStatus,
          at: first.lastAttemptAt
        })
        expect(items.find((d) => d.id === failed!.id)).toMatchObject({ status: "failed" })
        expect(target.received.length).toBe(2)
        expect(target.received[1]!.body).toBe(target.received[0]!.body)
        expect(target.received[1]!.headers["idempotency-key"]).toBe(failed!.idempotencyKey)

        const missing = yield* call("POST", `/api/webhooks/${hook.id}/deliveries/nope/replay`, { as: ADMIN })
        expect([missing.status, (missing.body as ErrorBody).message]).toEqual([
          404,
          'Webhook "Hook" has no delivery with id "nope": it may have left the delivery log (old deliveries are removed)'
        ])
        const noHook = yield* call("POST", `/api/webhooks/gone/deliveries/nope/replay`, { as: ADMIN })
        expect([noHook.status, (noHook.body as ErrorBody).message]).toEqual([404, 'There is no webhook with id "gone": it may have been deleted'])
        target.script = () => ({ status: 500 })
        yield* publish(ping("pending"))
        const pending = about(yield* logUntil(hook.id, (all) => about(all, "pending")?.attempts === 1, "a pending one"), "pending")
        const refused = yield* call("POST", `/api/webhooks/${hook.id}/deliveries/${pending!.id}/replay`, { as: ADMIN })
        expect([refused.status, (refused.body as ErrorBody).message]).toEqual([
          409,
          'This delivery to "Hook" is still being tried: it is retried on its own; replay it once it has failed'
        ])
        // Turned off: its pending deliveries fail, and nothing replays until it is on again.
        expect((yield* call("PATCH", `/api/webhooks/${hook.id}`, { as: ADMIN, json: { enabled: false } })).status).toBe(200)
        expect(about(yield* log(hook.id), "pending")).toMatchObject({ status: "failed", error: "the webhook was turned off" })
        const off = yield* call("POST", `/api/webhooks/${hook.id}/deliveries/${pending!.id}/replay`, { as: ADMIN })
        expect([off.status, (off.body as ErrorBody).message]).toEqual([409, 'Webhook "Hook" is turned off: turn it on before replaying a delivery'])
      }).pipe(Effect.provide(setup().layer))
    }))

  it.scoped("a chat-platform target gets a well-formed embed within its limits, and its 429 retry_after is honoured", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver((_, index) =>
        index === 0
          ? { status: 429, headers: { "content-type": "application/json", "retry-after": "3" }, body: JSON.stringify({ message: "You are being rate limited.", retry_after: 2.5, global: false }) }
          : { status: 204 }
      )
      yield* Effect.gen(function* () {
        const hook = yield* createHook({ url: target.url("/api/webhooks/42/chat-token"), kind: "discord" })
        const extra = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`field${i}`, `${i}:${"v".repeat(1500)}`]))
        yield* publish(ping(`@everyone ${"long ".repeat(1000)}`, { severity: "error", extra }))
        const [limited] = yield* logUntil(hook.id, (items) => items[0]?.attempts === 1, "the 429")
        expect(limited).toMatchObject({ status: "pending", responseStatus: 429 })
        expect(Date.parse(limited!.nextAttemptAt!) - Date.parse(limited!.lastAttemptAt!)).toBe(2500)
        yield* toNextAttempt(limited!)
        yield* logUntil(hook.id, (items) => items[0]?.status === "delivered", "the delivery")
        expect(target.received.length).toBe(2)

        const message = JSON.parse(target.received[1]!.body) as {
          content: string
          embeds: ReadonlyArray<{ title: string; color: number; fields: ReadonlyArray<{ name: string; value: string; inline: boolean }>; footer: { text: string }; timestamp: string }>
          allowed_mentions: { parse: ReadonlyArray<string> }
        }
        expect(message.allowed_mentions).toEqual({ parse: [] })
        expect(message.content.length).toBeLessThanOrEqual(2000)
        expect(message.content.startsWith("Ping: @everyone long")).toBe(true)
        expect(message.embeds).toHaveLength(1)
        const embed = message.embeds[0]!
        expect(embed.color).toBe(0xe74c3c)
        expect(embed.title.length).toBeLessThanOrEqual(256)
        expect(embed.title.endsWith("…")).toBe(true)
        expect(embed.footer.text).toBe("Garrison · Alpha Chernarus")
        expect(embed.timestamp).toBe(new Date(START).toISOString())
        expect(embed.fields.length).toBeLessThanOrEqual(25)
        expect(embed.fields.slice(0, 2)).toEqual([
          { name: "Event", value: "test.ping", inline: true },
          { name: "Server", value: "Alpha Chernarus", inline: true }
        ])
        for (const field of embed.fields) {
          expect(field.name.length).toBeGreaterThan(0)
          expect(field.name.length).toBeLessThanOrEqual(256)
          expect(field.value.length).toBeGreaterThan(0)
          expect(field.value.length).toBeLessThanOrEqual(1024)
        }
        const total = embed.title.length + embed.footer.text.length + embed.fields.reduce((n, f) => n + f.name.length + f.value.length, 0)
        expect(total).toBeLessThanOrEqual(6000)
        // Chat targets are signed all the same.
        expect(verifySignature(hook.secret, String(target.received[1]!.headers["x-garrison-signature"]), target.received[1]!.body)).toBe(true)

        // A test delivery to it: one attempt, answered as logged.
        const tested = yield* call("POST", `/api/webhooks/${hook.id}/test`, { as: ADMIN })
        expect(tested.status).toBe(200)
        expect(tested.body).toMatchObject({ event: "webhook.test", status: "delivered", attempts: 1, responseStatus: 204, test: true })
        const testBody = JSON.parse(target.received[2]!.body) as { embeds: ReadonlyArray<{ title: string; color: number }> }
        expect(testBody.embeds[0]).toMatchObject({ title: "Test delivery to Hook", color: 0x3498db })
      }).pipe(Effect.provide(setup().layer))
    }))

  it.scoped("at most WEBHOOKS_CONCURRENCY attempts per webhook at once", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(() => "hang")
      // A time-out nothing else in the controller waits for, so the sleeps until it are the attempts'.
      const timeout = 17_000
      yield* Effect.gen(function* () {
        const hook = yield* createHook({ url: target.url() })
        for (let i = 0; i < 5; i++) yield* publish(ping(`n${i}`))
        yield* logUntil(hook.id, (items) => items.length === 5, "five queued")
        yield* received(target, 2)
        yield* sleepingUntil(START + timeout)
        // Every attempt began at START, so each waits for its time-out until START + 17 s: two of them.
        expect((yield* sleepsOnTestClock).filter((at) => at === START + timeout)).toHaveLength(2)
        expect(target.received.length).toBe(2)
        yield* TestClock.adjust(timeout)
        yield* received(target, 4)
        yield* sleepingUntil(START + 2 * timeout)
        expect((yield* sleepsOnTestClock).filter((at) => at === START + 2 * timeout)).toHaveLength(2)
        expect(target.received.length).toBe(4)
      }).pipe(Effect.provide(setup({ config: { WEBHOOKS_REQUEST_TIMEOUT: "17 seconds" } }).layer))
    }))

  it.scoped("subscriptions: by name or pattern, by server, by severity; notifications by level", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(ok)
      yield* Effect.gen(function* () {
        const alphaOnly = yield* createHook({ url: target.url("/alpha"), events: [{ pattern: "test.*" }], servers: ["alpha"] })
        const pongs = yield* createHook({ url: target.url("/pongs"), events: [{ pattern: "test.pong" }] })
        const severe = yield* createHook({ url: target.url("/severe"), events: [{ pattern: "*", severities: ["error"] }] })
        const notes = yield* createHook({ url: target.url("/notes"), events: [{ pattern: "notification.published", severities: ["warning", "error"] }] })

        yield* publish(ping("bravo", { serverId: "bravo" }))
        yield* publish(ping("nowhere", { serverId: undefined }))
        yield* publish(new TestPong({ n: 1 }))
        yield* publish(ping("alpha", { severity: "error" }))
        // Each class has one handler, taking its events in order: the last ping's rows come after the others'.
        const alphaLog = yield* logUntil(alphaOnly.id, (items) => items.some((d) => d.summary === "Ping: alpha"), "alpha's ping")
        expect(alphaLog.map((d) => d.summary)).toEqual(["Ping: alpha"])
        expect((yield* logUntil(pongs.id, (items) => items.length === 1, "the pong")).map((d) => d.event)).toEqual(["test.pong"])
        expect((yield* logUntil(severe.id, (items) => items.length === 1, "the error")).map((d) => d.summary)).toEqual(["Ping: alpha"])

        const notifications = yield* Notifications
        yield* notifications.publish({ audience: { permission: "server.view" }, level: "info", title: "Just so you know", message: "fyi" })
        yield* notifications.publish({ audience: "all", level: "error", title: "Main is down", message: "it crashed", serverId: "alpha" })
        const [note] = yield* logUntil(notes.id, (items) => items.length >= 1 && items[0]!.status === "delivered", "the notification")
        expect((yield* log(notes.id)).length).toBe(1)
        expect(note).toMatchObject({ event: "notification.published", severity: "error", summary: "Main is down" })
        const body = JSON.parse(target.received.find((r) => r.path === "/notes")!.body) as { event: string; data: Record<string, unknown> }
        expect(body.event).toBe("notification.published")
        expect(body.data).toMatchObject({ level: "error", title: "Main is down", serverId: "alpha", audience: "all" })
      }).pipe(Effect.provide(setup().layer))
    }))

  it.scoped("a target whose every attempt fails for a day is disabled: the admins are notified and it is audited", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(() => ({ status: 502, body: "bad gateway" }))
      const { audit, layer } = setup()
      yield* Effect.gen(function* () {
        const hook = yield* createHook({ url: target.url("/down/secret-token") })
        yield* publish(ping("doomed"))
        let attempts = 0
        for (;;) {
          const [delivery] = yield* logUntil(hook.id, (items) => items[0] !== undefined && items[0].attempts > attempts, `attempt ${attempts + 1}`)
          attempts = delivery!.attempts
          if (delivery!.status !== "pending") break
          // Waits double up to an hour; the last attempt falls 24 h after the first.
          expect(Date.parse(delivery!.nextAttemptAt!) - START).toBeLessThanOrEqual(24 * 3600_000)
          yield* toNextAttempt(delivery!)
        }
        const [last] = yield* log(hook.id)
        expect(last).toMatchObject({ status: "failed", responseStatus: 502 })
        expect(last!.error).toContain("gave up after")
        expect(Date.parse(last!.lastAttemptAt!)).toBe(START + 24 * 3600_000)
        expect(attempts).toBeGreaterThan(20)
        expect(attempts).toBeLessThan(40)
        expect(target.received.length).toBe(attempts)

        const disabled = (yield* call("GET", `/api/webhooks/${hook.id}`, { as: ADMIN })).body as WebhookBody
        expect(disabled).toMatchObject({ enabled: false, failingSince: new Date(START).toISOString() })
        expect(disabled.disabledReason).toContain("every attempt failed for 1d")
        const inbox = (yield* call("GET", "/api/notifications", { as: ADMIN })).body as { items: ReadonlyArray<{ title: string; message: string; level: string; link: string }> }
        expect(inbox.items[0]).toMatchObject({ title: 'Webhook "Hook" was turned off', level: "error", link: `/webhooks/${hook.id}` })
        expect(inbox.items[0]!.message).toContain(`http://127.0.0.1:${target.port}/down/••••`)
        expect(inbox.items[0]!.message).not.toContain("secret-token")
        expect(inbox.items[0]!.message).toMatch(/Fix the target, turn the webhook on again and replay what failed from its delivery log\.$/)
        expect((yield* call("GET", "/api/notifications", { as: "vic:server.view" })).body).toMatchObject({ items: [] })
        const row = audit.rows.find((r) => r.action === "webhooks.disabled")
        expect(row).toMatchObject({ actor: null, target: hook.id, result: "success", details: { name: "Hook", url: `http://127.0.0.1:${target.port}/down/••••` } })
        expect(JSON.stringify(audit.rows)).not.toContain("secret-token")

        // Disabled: no new deliveries; turned on again, it delivers and its failure clock starts again.
        yield* publish(ping("while off"))
        target.script = ok
        const enabled = yield* call("PATCH", `/api/webhooks/${hook.id}`, { as: ADMIN, json: { enabled: true } })
        expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null })
        yield* publish(ping("back"))
        const items = yield* logUntil(hook.id, (all) => about(all, "back")?.status === "delivered", "the delivery after")
        expect(items.map((d) => d.summary).sort()).toEqual(["Ping: back", "Ping: doomed"])
      }).pipe(Effect.provide(layer))
    }))
})
