/** `from` and `to` of `GET /api/servers/:id/metrics` go through the runtime's strict reader: impossible dates are 400 naming the field. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PAST_LEAP_DAY, refusedDates } from "../support/dates.js"
import { FakeServers, get, logsController } from "./support.js"

describe("metrics date range", () => {
  it.scoped("refuses impossible from/to with the field and the reason; takes a leap day, alone or with a time", () => {
    const servers = new FakeServers()
    servers.add("s1")
    return Effect.gen(function* () {
      for (const field of ["from", "to"]) {
        for (const [value, reason] of refusedDates) {
          const reply = yield* get(`/api/servers/s1/metrics?${field}=${encodeURIComponent(value)}`)
          expect([field, value, reply.status]).toEqual([field, value, 400])
          const body = reply.body as { error: string; message: string; details: ReadonlyArray<{ path: string }> }
          expect(body.error).toBe("invalid-request")
          expect(body.message.startsWith(`${field}: `)).toBe(true)
          expect(body.message).toContain(reason)
          expect(body.details[0]?.path).toBe(field)
        }
      }
      const leap = yield* get(`/api/servers/s1/metrics?from=2024-02-29&to=${encodeURIComponent(PAST_LEAP_DAY)}`)
      expect(leap.status).toBe(200)
      expect(leap.body).toMatchObject({ from: "2024-02-29T00:00:00.000Z", to: "2024-02-29T12:00:00.000Z" })
    }).pipe(Effect.provide(logsController(servers)))
  })
})
