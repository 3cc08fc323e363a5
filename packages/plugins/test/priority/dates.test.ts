/**
 * `expiresAt` of the priority queue is read exactly as a ban's (the
 * runtime's `readExpiry`): an ISO-8601 date (midnight UTC) or date-time
 * (UTC without a zone), or a duration from now (`30d`, `12h`, `1d12h`).
 * Impossible dates are 400 (per entry, for an import) naming expiresAt and
 * the reason; a real leap day is taken. An import takes dates and
 * date-times, as a ban import does, not durations.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PriorityPlugin } from "../../src/priority/index.js"
import { bansController, call as bansCall, makeFleet } from "../bans/support.js"
import { FUTURE_LEAP_DAY, PAST_LEAP_DAY, refusedDates } from "../support/dates.js"
import { call, entry, failure, makeController, MANAGER, type Reply, STEAM64 } from "./support.js"

const BASE = "/api/priority-queue"
const withController = <A, E, R>(body: Effect.Effect<A, E, R>) => Effect.flatMap(makeController, (c) => Effect.provide(body, c.layer))

const DAY = 86_400_000

let next = 100
const player = () => `765611980000${String(next++).padStart(5, "0")}`

const expectRefused = (reply: Reply, value: string, reason: string) => {
  expect([value, reply.status, failure(reply).error]).toEqual([value, 400, "invalid-request"])
  expect(failure(reply).message.startsWith("expiresAt: ")).toBe(true)
  expect(failure(reply).message).toContain(reason)
  const details = failure(reply).details as ReadonlyArray<{ path: string; message: string }>
  expect(new Set(details.map((d) => d.path))).toEqual(new Set(["expiresAt"]))
  expect(details[0]?.message).toContain(reason)
}

/** Milliseconds from now to the entry's expiry. */
const fromNow = (reply: Reply) => Date.parse(entry(reply).expiresAt ?? "") - Date.now()

describe("dates in the priority queue", () => {
  it.scopedLive("add and PATCH refuse impossible dates naming expiresAt; a leap day is read", () =>
    withController(
      Effect.gen(function* () {
        const add = (expiresAt: string) =>
          call("POST", BASE, { as: MANAGER, json: { platformId: player(), playerName: "P", role: "VIP", expiresAt } })
        for (const [value, reason] of refusedDates) expectRefused(yield* add(value), value, reason)
        expect(failure(yield* add(PAST_LEAP_DAY)).message).toContain("must be in the future")
        const leap = yield* add(FUTURE_LEAP_DAY)
        expect(leap.status).toBe(201)
        expect(entry(leap).expiresAt).toBe("2096-02-29T12:00:00.000Z")

        const id = entry(leap).id
        for (const [value, reason] of refusedDates) {
          expectRefused(yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { expiresAt: value } }), value, reason)
        }
        const patched = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { expiresAt: "2096-02-29T23:00:00-01:00" } })
        expect(entry(patched).expiresAt).toBe("2096-03-01T00:00:00.000Z")
      })
    )
  )

  it.scopedLive("a date alone is midnight UTC, a date-time without a zone is UTC, and a duration counts from now", () =>
    withController(
      Effect.gen(function* () {
        const add = (expiresAt: string) =>
          call("POST", BASE, { as: MANAGER, json: { platformId: player(), playerName: "P", role: "VIP", expiresAt } })
        const dateAlone = yield* add("2096-02-29")
        expect(dateAlone.status, JSON.stringify(dateAlone.body)).toBe(201)
        expect(entry(dateAlone).expiresAt).toBe("2096-02-29T00:00:00.000Z")
        expect(entry(yield* add("2096-02-29T12:00")).expiresAt).toBe("2096-02-29T12:00:00.000Z")

        const month = yield* add("30d")
        expect(month.status, JSON.stringify(month.body)).toBe(201)
        expect(Math.abs(fromNow(month) - 30 * DAY)).toBeLessThan(60_000)
        expect(Math.abs(fromNow(yield* add("1d12h")) - 1.5 * DAY)).toBeLessThan(60_000)
        expect(Math.abs(fromNow(yield* add("2W")) - 14 * DAY)).toBeLessThan(60_000)
        expectRefused(yield* add("0d"), "0d", "a duration must be longer than 0 (leave the field out for a permanent entry)")
        expectRefused(yield* add("tomorrow"), "tomorrow", "expected an ISO-8601 date-time (2026-05-01T12:00:00Z) or a duration from now")

        // PATCH reads it the same way.
        const id = entry(month).id
        const patched = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { expiresAt: "12h" } })
        expect(patched.status, JSON.stringify(patched.body)).toBe(200)
        expect(Math.abs(fromNow(patched) - DAY / 2)).toBeLessThan(60_000)
        expect(entry(yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { expiresAt: "2097-01-31" } })).expiresAt).toBe(
          "2097-01-31T00:00:00.000Z"
        )
      })
    )
  )

  it.scopedLive("import refuses each impossible date in its entry, with the reason; takes a date alone and the leap day", () =>
    withController(
      Effect.gen(function* () {
        const refused = [...refusedDates, ["30d", "expected an ISO-8601 date (2025-01-31) or date-time"] as const]
        const body = [
          ...refused.map(([value]) => ({ platformId: player(), playerName: "P", role: "VIP", expiresAt: value })),
          { platformId: STEAM64, playerName: "Leap", role: "VIP", expiresAt: FUTURE_LEAP_DAY },
          { platformId: player(), playerName: "Day", role: "VIP", expiresAt: "2097-01-31" }
        ]
        const reply = yield* call("POST", `${BASE}/import`, { as: MANAGER, json: body })
        expect(reply.status).toBe(200)
        const result = reply.body as { added: number; errors: ReadonlyArray<{ index: number; error: string }> }
        expect(result.added).toBe(2)
        expect(result.errors.map((e) => e.index)).toEqual(refused.map((_, i) => i))
        refused.forEach(([value, reason], i) => {
          expect([value, result.errors[i]?.error.startsWith("expiresAt: ")]).toEqual([value, true])
          expect(result.errors[i]?.error).toContain(reason)
        })
        const listed = (yield* call("GET", BASE, { as: MANAGER })).body as { items: ReadonlyArray<{ playerName: string; expiresAt: string }> }
        expect(listed.items.map((e) => [e.playerName, e.expiresAt])).toEqual([
          ["Leap", "2096-02-29T12:00:00.000Z"],
          ["Day", "2097-01-31T00:00:00.000Z"]
        ])
      })
    )
  )

  it.scopedLive("priority and bans accept and refuse the same expiries", () =>
    Effect.gen(function* () {
      const values = [
        "30d", "12h", "1d12h", "2w", "45m", "0d", "2096-02-29", "2096-02-29T12:00", "2096-02-29T12:00:00+02:00", FUTURE_LEAP_DAY,
        PAST_LEAP_DAY, "2001-01-01", "tomorrow", "2026-02-30", "2025-02-29T12:00:00Z", "2026-1-5", "9999999d", "10000-01-01"
      ]
      const manage = "mod:bans.manage,priority.manage"
      for (const value of values) {
        const ban = yield* bansCall("POST", "/api/bans", { as: manage, json: { platformId: player(), playerName: "P", reason: "r", expiresAt: value } })
        const vip = yield* bansCall("POST", BASE, { as: manage, json: { platformId: player(), playerName: "P", role: "VIP", expiresAt: value } })
        expect([value, vip.status], JSON.stringify(vip.body)).toEqual([value, ban.status])
        if (ban.status === 201) {
          expect(Math.abs(Date.parse(String(vip.body["expiresAt"])) - Date.parse(String(ban.body["expiresAt"]))), value).toBeLessThan(60_000)
        } else {
          // The same reason, but for what each calls a permanent one and the hint that null is permanent.
          const reason = (reply: typeof ban) => String(reply.body["message"]).replace(/ (ban|entry)\)$/, ")").replace(" (or null for permanent)", "")
          expect([value, reason(vip)]).toEqual([value, reason(ban)])
        }
      }
    }).pipe(Effect.provide(bansController(makeFleet({ alpha: "stopped" }), [PriorityPlugin])))
  )
})
