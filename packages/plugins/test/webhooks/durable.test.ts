/**
 * The queue's producer is a durable event-bus handler: a publish returns
 * only once its queue rows are written, and nothing waits in a bounded
 * in-memory queue (the bus's ordinary handlers keep 1,000 events and drop the
 * oldest). 4,000 events published at once to one webhook: 4,000 queue rows by
 * the time the publishes return. On the live clock; the receiver never
 * answers, so every row stays pending while the test counts them.
 */
import { describe, expect, it } from "@effect/vitest"
import { EventBus } from "@garrison/runtime"
import { Effect } from "effect"
import { ADMIN, call, receiver, setup, TestPing, TestPong, type WebhookBody } from "./support.js"

const EVENTS = 4_000

describe("durable enqueue", () => {
  it.scopedLive(`${EVENTS} events published at once to one webhook: ${EVENTS} queue rows when the publishes return, none dropped`, () =>
    Effect.gen(function* () {
      const target = yield* receiver(() => "hang")
      const made = yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Burst", url: target.url("/burst"), events: [{ pattern: "test.ping" }] } })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      const id = (made.body as WebhookBody).id
      const bus = yield* EventBus
      yield* Effect.forEach(
        Array.from({ length: EVENTS }, (_, n) => n),
        (n) => bus.publish(new TestPing({ serverId: "alpha", text: `burst ${n}`, severity: "info" })),
        { concurrency: "unbounded", discard: true }
      )
      // An event no webhook takes writes nothing.
      yield* bus.publish(new TestPong({ n: 1 }))
      const hook = yield* call("GET", `/api/webhooks/${id}`, { as: ADMIN })
      expect(hook.status).toBe(200)
      expect((hook.body as WebhookBody).pending).toBe(EVENTS)
    }).pipe(Effect.provide(setup({ config: { WEBHOOKS_REQUEST_TIMEOUT: "1 second" } }).layer)), 60_000)
})
