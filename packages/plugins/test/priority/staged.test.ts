/**
 * Every stored change of the priority queue stages its `PriorityChanged` in
 * its own transaction: a durable consumer (as webhooks' outbox is) runs
 * inside it, once per change, and ordinary handlers hear the event after
 * the commit as before.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { EventBus, on } from "@garrison/runtime"
import { fakeFleet, testController } from "@garrison/testkit"
import { Effect, LogLevel, Option } from "effect"
import { PriorityChanged, PriorityPlugin } from "../../src/priority/index.js"
import { call, entry, MANAGER, STEAM64, THIRD } from "./support.js"

const BASE = "/api/priority-queue"

describe("priority changes are staged", () => {
  it.scopedLive("add, PATCH, DELETE and import: the durable consumer runs inside each change's transaction, once", () =>
    Effect.gen(function* () {
      const seen: Array<{ readonly action: string; readonly inTransaction: boolean }> = []
      yield* (yield* EventBus).registerDurable(
        "priority-test",
        on(PriorityChanged, (event) =>
          Effect.map(Effect.serviceOption(SqlClient.TransactionConnection), (t) => void seen.push({ action: event.action, inTransaction: Option.isSome(t) }))
        )
      )
      const added = yield* call("POST", BASE, { as: MANAGER, json: { platformId: STEAM64, name: "A", role: "VIP", expiresAt: null } })
      expect(added.status).toBe(201)
      const id = entry(added).id
      expect((yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { name: "B" } })).status).toBe(200)
      expect((yield* call("DELETE", `${BASE}/${id}`, { as: MANAGER })).status).toBe(204)
      const imported = yield* call("POST", `${BASE}/import`, { as: MANAGER, json: [{ platformId: THIRD, name: "C", role: "VIP", expiresAt: null }] })
      expect(imported.status).toBe(200)
      // A refused change stages nothing.
      expect((yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { name: "X" } })).status).toBe(404)
      expect(seen).toEqual([
        { action: "added", inTransaction: true },
        { action: "updated", inTransaction: true },
        { action: "removed", inTransaction: true },
        { action: "imported", inTransaction: true }
      ])
    }).pipe(
      Effect.provide(testController<EventBus>([fakeFleet().plugin, PriorityPlugin], { dataPrefix: "garrison-priority-staged-", logLevel: LogLevel.Error }))
    )
  )
})
