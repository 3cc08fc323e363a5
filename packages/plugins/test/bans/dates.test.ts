/**
 * Dates in the bans routes go through the runtime's strict reader:
 * `expiresAt` of `POST /api/bans`, `expiration` of the player ban route,
 * and `bannedAt`/`expiresAt` of an import. Impossible dates are refused with
 * the field and the reason, never shifted; a real leap day is taken.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FUTURE_LEAP_DAY, PAST_LEAP_DAY, refusedDates } from "../support/dates.js"
import { bansController, call, makeFleet, playersReply, server } from "./support.js"

const MOD = "mod:bans.manage,players.ban"

/** Distinct players, so no answer is a 409 for a player already banned. */
let next = 100
const player = () => `765611980000${String(next++).padStart(5, "0")}`

describe("dates in the bans routes", () => {
  it.scopedLive("POST /api/bans expiresAt: impossible dates are 400 naming expiresAt and the reason; leap days are read", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      const add = (expiresAt: string) =>
        call("POST", "/api/bans", { as: MOD, json: { platformId: player(), playerName: "P", reason: "r", expiresAt } })
      for (const [value, reason] of refusedDates) {
        const reply = yield* add(value)
        expect([value, reply.status, reply.body.error]).toEqual([value, 400, "invalid-request"])
        expect(String(reply.body.message).startsWith("expiresAt: ")).toBe(true)
        expect(String(reply.body.message)).toContain(reason)
      }
      // A real day: past the calendar, then only the rule that it lies ahead.
      expect((yield* add(PAST_LEAP_DAY)).body.message).toBe("expiresAt: must be in the future")
      const leap = yield* add(FUTURE_LEAP_DAY)
      expect(leap.status).toBe(201)
      expect(leap.body.expiresAt).toBe("2096-02-29T12:00:00.000Z")
      expect((yield* add("2096-02-29")).body.expiresAt).toBe("2096-02-29T00:00:00.000Z")
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("player ban expiration: the same refusals, naming expiration", () => {
    const fleet = makeFleet({ alpha: "running" })
    server(fleet, "alpha").playersReply = playersReply([])
    return Effect.gen(function* () {
      const ban = (expiration: string) =>
        call("POST", `/api/servers/alpha/players/${player()}/ban`, { as: MOD, json: { reason: "r", expiration } })
      for (const [value, reason] of refusedDates) {
        const reply = yield* ban(value)
        expect([value, reply.status]).toEqual([value, 400])
        expect(String(reply.body.message).startsWith("expiration: ")).toBe(true)
        expect(String(reply.body.message)).toContain(reason)
      }
      expect((yield* ban(PAST_LEAP_DAY)).body.message).toBe("expiration: must be in the future")
      const leap = yield* ban(FUTURE_LEAP_DAY)
      expect(leap.status).toBe(201)
      expect((leap.body.ban as { expiresAt: string }).expiresAt).toBe("2096-02-29T12:00:00.000Z")
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("import: bannedAt and expiresAt refused per entry with the reason; a leap day is imported", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      const entry = (fields: Record<string, unknown>) => ({
        platformId: player(),
        playerName: "P",
        reason: "r",
        bannedBy: "importer",
        bannedAt: "2024-01-01T00:00:00Z",
        ...fields
      })
      const body = [
        ...refusedDates.map(([value]) => entry({ bannedAt: value })),
        ...refusedDates.map(([value]) => entry({ expiresAt: value })),
        entry({ bannedAt: PAST_LEAP_DAY, expiresAt: FUTURE_LEAP_DAY })
      ]
      const reply = yield* call("POST", "/api/bans/import", { as: MOD, json: body })
      expect(reply.status).toBe(200)
      expect(reply.body.added).toBe(1)
      const errors = reply.body.errors as ReadonlyArray<{ index: number; error: string }>
      expect(errors.length).toBe(refusedDates.length * 2)
      refusedDates.forEach(([value, reason], i) => {
        expect([value, errors[i]?.error.startsWith("bannedAt: ")]).toEqual([value, true])
        expect(errors[i]?.error).toContain(reason)
        expect(errors[refusedDates.length + i]?.error.startsWith("expiresAt: ")).toBe(true)
        expect(errors[refusedDates.length + i]?.error).toContain(reason)
      })
      const stored = yield* call("GET", `/api/bans?platformId=${(body[body.length - 1] as { platformId: string }).platformId}`, { as: MOD })
      expect((stored.body.items as ReadonlyArray<Record<string, unknown>>)[0]).toMatchObject({
        bannedAt: "2024-02-29T12:00:00.000Z",
        expiresAt: "2096-02-29T12:00:00.000Z"
      })
    }).pipe(Effect.provide(bansController(fleet)))
  })
})
