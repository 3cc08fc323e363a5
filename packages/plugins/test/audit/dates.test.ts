/** `from` and `to` of `GET /api/audit` go through the runtime's strict reader: impossible dates are 400 naming the field. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PAST_LEAP_DAY, refusedDates } from "../support/dates.js"
import { ADMIN, auditController, call } from "./support.js"

describe("audit date filters", () => {
  it.scopedLive("refuses impossible from/to with the field and the reason; takes a leap day, alone or with a time", () =>
    Effect.gen(function* () {
      for (const field of ["from", "to"]) {
        for (const [value, reason] of refusedDates) {
          const reply = yield* call("GET", `/api/audit?${field}=${encodeURIComponent(value)}`, { as: ADMIN })
          expect([field, value, reply.status]).toEqual([field, value, 400])
          const body = reply.body as { error: string; message: string; details: ReadonlyArray<{ path: string }> }
          expect(body.error).toBe("invalid-request")
          expect(body.message.startsWith(`${field}: `)).toBe(true)
          expect(body.message).toContain(reason)
          expect(body.details[0]?.path).toBe(field)
        }
      }
      for (const query of [`from=2024-02-29`, `to=${encodeURIComponent(PAST_LEAP_DAY)}`, "from=2024-02-28T23:00:00-01:00&to=2024-03-01"]) {
        expect([query, (yield* call("GET", `/api/audit?${query}`, { as: ADMIN })).status]).toEqual([query, 200])
      }
    }).pipe(Effect.provide(auditController()))
  )
})
