/**
 * `expiresAt` of the priority queue (add, PATCH, import) is read by the
 * runtime's strict reader: a date-time with a zone. Impossible dates are
 * 400 (per entry, for an import) naming expiresAt and the reason; a real
 * leap day is taken.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FUTURE_LEAP_DAY, PAST_LEAP_DAY, refusedDateTimes } from "../support/dates.js"
import { call, entry, failure, makeController, MANAGER, type Reply, STEAM64 } from "./support.js"

const BASE = "/api/priority-queue"
const withController = <A, E, R>(body: Effect.Effect<A, E, R>) => Effect.flatMap(makeController, (c) => Effect.provide(body, c.layer))

/** Every refused date-time, and a date alone (this field needs a time and a zone). */
const refused = [...refusedDateTimes, ["2096-02-29", "the time is missing"] as const, ["2096-02-29T12:00:00", "the zone (Z or ±hh:mm) is missing"] as const]

let next = 100
const player = () => `765611980000${String(next++).padStart(5, "0")}`

const expectRefused = (reply: Reply, value: string, reason: string) => {
  expect([value, reply.status, failure(reply).error]).toEqual([value, 400, "invalid-request"])
  expect(failure(reply).message.startsWith("expiresAt: ")).toBe(true)
  expect(failure(reply).message).toContain(reason)
  // The first detail is the reason; the others say what else the field could have been (null).
  const details = failure(reply).details as ReadonlyArray<{ path: string; message: string }>
  expect(new Set(details.map((d) => d.path))).toEqual(new Set(["expiresAt"]))
  expect(details[0]?.message).toContain(reason)
}

describe("dates in the priority queue", () => {
  it.scopedLive("add and PATCH refuse impossible dates naming expiresAt; a leap day is read", () =>
    withController(
      Effect.gen(function* () {
        const add = (expiresAt: string) =>
          call("POST", BASE, { as: MANAGER, json: { platformId: player(), name: "P", role: "VIP", expiresAt } })
        for (const [value, reason] of refused) expectRefused(yield* add(value), value, reason)
        expect(failure(yield* add(PAST_LEAP_DAY)).message).toContain("must be in the future")
        const leap = yield* add(FUTURE_LEAP_DAY)
        expect(leap.status).toBe(201)
        expect(entry(leap).expiresAt).toBe("2096-02-29T12:00:00.000Z")

        const id = entry(leap).id
        for (const [value, reason] of refused) {
          expectRefused(yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { expiresAt: value } }), value, reason)
        }
        const patched = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { expiresAt: "2096-02-29T23:00:00-01:00" } })
        expect(entry(patched).expiresAt).toBe("2096-03-01T00:00:00.000Z")
      })
    )
  )

  it.scopedLive("import refuses each impossible date in its entry, with the reason, and takes the leap day", () =>
    withController(
      Effect.gen(function* () {
        const body = [
          ...refused.map(([value]) => ({ platformId: player(), name: "P", role: "VIP", expiresAt: value })),
          { platformId: STEAM64, name: "Leap", role: "VIP", expiresAt: FUTURE_LEAP_DAY }
        ]
        const reply = yield* call("POST", `${BASE}/import`, { as: MANAGER, json: body })
        expect(reply.status).toBe(200)
        const result = reply.body as { added: number; errors: ReadonlyArray<{ index: number; error: string }> }
        expect(result.added).toBe(1)
        expect(result.errors.map((e) => e.index)).toEqual(refused.map((_, i) => i))
        refused.forEach(([value, reason], i) => {
          expect([value, result.errors[i]?.error.startsWith("expiresAt: ")]).toEqual([value, true])
          expect(result.errors[i]?.error).toContain(reason)
        })
      })
    )
  )
})
