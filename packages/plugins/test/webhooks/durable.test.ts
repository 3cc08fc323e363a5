/**
 * The queue's producer is a durable event-bus handler: a publish returns
 * only once its outbox row is written, and nothing waits in a bounded
 * in-memory queue (the bus's ordinary handlers keep 1,000 events and drop the
 * oldest). 4,000 events published at once to one webhook: 4,000 pending by
 * the time the publishes return. On the live clock; the receiver never
 * answers, so every row stays pending while the test counts them.
 *
 * Staged in the publisher's transaction (the outbox), the row commits with
 * the publisher's change or not at all.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { EventBus } from "@garrison/runtime"
import { Effect } from "effect"
import { ADMIN, call, eventually, ok, receiver, setup, TestPing, TestPong, type WebhookBody } from "./support.js"

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

  it.scopedLive("staged in the publisher's transaction: queued when it commits, never when it rolls back", () =>
    Effect.gen(function* () {
      const target = yield* receiver(ok)
      const made = yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Outbox", url: target.url("/outbox"), events: [{ pattern: "test.ping" }] } })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      const id = (made.body as WebhookBody).id
      const bus = yield* EventBus
      const sql = yield* SqlClient.SqlClient
      const pending = call("GET", `/api/webhooks/${id}`, { as: ADMIN }).pipe(Effect.map((reply) => (reply.body as WebhookBody).pending))

      // The publisher's transaction fails after staging: nothing is queued, nothing is ever sent.
      const lost = yield* Effect.either(
        Effect.gen(function* () {
          yield* bus.stage(new TestPing({ text: "rolled back", severity: "info" }))
          return yield* Effect.fail("the publisher's change failed")
        }).pipe(sql.withTransaction)
      )
      expect(lost._tag).toBe("Left")
      expect(yield* pending).toBe(0)

      // It commits: the row is there with the change, before the publish; the publish after it sends it, once.
      const kept = new TestPing({ text: "committed", severity: "info" })
      yield* bus.stage(kept).pipe(sql.withTransaction)
      expect(yield* pending).toBe(1)
      yield* bus.publish(kept)
      yield* eventually(pending, (n) => n === 0, 10_000, "the staged event delivered")
      expect(target.received.map((request) => (JSON.parse(request.body) as { data: { text: string } }).data.text)).toEqual(["committed"])
    }).pipe(Effect.provide(setup().layer)), 60_000)
})
