/** The line clock: a log's `HH:MM:SS` lines as instants, across midnight and a new header. */
import { describe, expect, it } from "@effect/vitest"
import { advance, dateOfFileName, initialClock, restart } from "../../src/gamelog/internal/ingest/lineClock.js"

const local = (y: number, m: number, d: number, h: number, min: number, s: number) => new Date(y, m - 1, d, h, min, s).getTime()

describe("line clock", () => {
  it("dates lines by the header, crosses midnight once, and starts again at a header", () => {
    const clock = { ...initialClock(null) }
    Object.assign(clock, restart("2026-11-21", 23 * 3600 + 59 * 60))
    expect(advance(clock, 23 * 3600 + 59 * 60 + 30, "2000-01-01")).toBe(local(2026, 11, 21, 23, 59, 30))
    // Past midnight: the clock went back more than an hour.
    expect(advance(clock, 5, "2000-01-01")).toBe(local(2026, 11, 22, 0, 0, 5))
    // A line a few minutes out of order is the same day, not the next.
    expect(advance(clock, 3, "2000-01-01")).toBe(local(2026, 11, 22, 0, 0, 3))
    expect(advance(clock, 3600 * 10, "2000-01-01")).toBe(local(2026, 11, 22, 10, 0, 0))
    expect(clock.dayShift).toBe(1)
    Object.assign(clock, restart("2026-12-01", 60))
    expect(advance(clock, 61, "2000-01-01")).toBe(local(2026, 12, 1, 0, 1, 1))
  })

  it("without a header, the date in the file's name", () => {
    expect(dateOfFileName("DayZServer_x64_2026-11-21_18-00-00.ADM")).toBe("2026-11-21")
    expect(dateOfFileName("server.ADM")).toBeNull()
    const clock = { ...initialClock(null) }
    expect(advance(clock, 18 * 3600, "2026-11-21")).toBe(local(2026, 11, 21, 18, 0, 0))
  })
})
