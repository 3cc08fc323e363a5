/** Cron and plan arithmetic: plain functions over epoch milliseconds. */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { compile, nextRunAfter, validate } from "../../src/scheduler/internal/cron.js"
import { earliestAfter, upcoming } from "../../src/scheduler/internal/plan.js"

const ms = (iso: string) => Date.parse(iso)
const iso = (value: number | undefined) => (value === undefined ? undefined : new Date(value).toISOString())
const next = (expression: string, timeZone: string, after: string) => {
  const cron = compile(expression, timeZone)
  if (Either.isLeft(cron)) throw new Error(cron.left.message)
  return iso(nextRunAfter(cron.right, ms(after)))
}
const fieldOf = (result: Either.Either<unknown, { readonly field: string }>) => (Either.isLeft(result) ? result.left.field : "ok")

describe("next run", () => {
  it("is strictly after the given instant, in the job's time zone", () => {
    expect(next("0 4 * * *", "UTC", "2025-01-06T03:59:59.000Z")).toBe("2025-01-06T04:00:00.000Z")
    expect(next("0 4 * * *", "UTC", "2025-01-06T04:00:00.000Z")).toBe("2025-01-07T04:00:00.000Z")
    // 04:00 in Berlin is 03:00 UTC in winter (CET) and 02:00 UTC in summer (CEST).
    expect(next("0 4 * * *", "Europe/Berlin", "2025-01-06T00:00:00.000Z")).toBe("2025-01-06T03:00:00.000Z")
    expect(next("0 4 * * *", "Europe/Berlin", "2025-07-01T00:00:00.000Z")).toBe("2025-07-01T02:00:00.000Z")
    expect(next("0 4 * * 1", "America/New_York", "2025-01-01T00:00:00.000Z")).toBe("2025-01-06T09:00:00.000Z")
  })

  it("a time skipped by the spring-forward runs once, at the first valid instant", () => {
    // 2025-03-30 in Berlin: 02:00 CET jumps to 03:00 CEST, so 02:30 does not exist that day.
    expect(next("30 2 * * *", "Europe/Berlin", "2025-03-29T12:00:00.000Z")).toBe("2025-03-30T01:00:00.000Z")
    expect(next("30 2 * * *", "Europe/Berlin", "2025-03-30T01:00:00.000Z")).toBe("2025-03-31T00:30:00.000Z")
  })

  it("a time repeated by the fall-back runs once, not twice", () => {
    // 2025-10-26 in Berlin: 03:00 CEST falls back to 02:00 CET, so 02:30 happens twice.
    const first = next("30 2 * * *", "Europe/Berlin", "2025-10-25T12:00:00.000Z")
    expect(first).toBe("2025-10-26T00:30:00.000Z")
    expect(next("30 2 * * *", "Europe/Berlin", first!)).toBe("2025-10-27T01:30:00.000Z")
  })
})

describe("validation", () => {
  const now = ms("2025-01-06T00:00:00.000Z")

  it("names the field that is wrong", () => {
    expect(fieldOf(validate("0 4 * * *", "Europe/Berlin", now))).toBe("ok")
    expect(fieldOf(validate("@daily", "UTC", now))).toBe("ok")
    expect(fieldOf(validate("61 4 * * *", "UTC", now))).toBe("cron")
    expect(fieldOf(validate("every day", "UTC", now))).toBe("cron")
    // A seconds field would let one job flood a server with commands.
    expect(fieldOf(validate("0 0 4 * * *", "UTC", now))).toBe("cron")
    // 31 February never comes.
    expect(fieldOf(validate("0 0 31 2 *", "UTC", now))).toBe("cron")
    expect(fieldOf(validate("0 4 * * *", "Mars/Olympus", now))).toBe("timeZone")
    expect(fieldOf(validate("0 4 * * *", "+01:00", now))).toBe("timeZone")
    expect(fieldOf(validate("0 4 * * *", "", now))).toBe("timeZone")
  })
})

describe("planning", () => {
  const job = { id: "a", cron: "0 4 * * *", timeZone: "UTC", warnings: [15, 5, 1] }

  it("warnings come before their run, earliest first", () => {
    const at = (after: string) => earliestAfter([job], ms(after)).map((m) => [iso(m.at), m.warning])
    expect(at("2025-01-06T03:00:00.000Z")).toEqual([["2025-01-06T03:45:00.000Z", 15]])
    expect(at("2025-01-06T03:45:00.000Z")).toEqual([["2025-01-06T03:55:00.000Z", 5]])
    expect(at("2025-01-06T03:55:00.000Z")).toEqual([["2025-01-06T03:59:00.000Z", 1]])
    expect(at("2025-01-06T03:59:00.000Z")).toEqual([["2025-01-06T04:00:00.000Z", undefined]])
    expect(at("2025-01-06T04:00:00.000Z")).toEqual([["2025-01-07T03:45:00.000Z", 15]])
  })

  it("moments of different jobs due at once are returned together", () => {
    const other = { id: "b", cron: "0 * * * *", timeZone: "UTC", warnings: [] }
    const due = earliestAfter([job, other], ms("2025-01-06T03:59:00.000Z"))
    expect(due.map((m) => m.jobId).sort()).toEqual(["a", "b"])
  })

  it("a warning longer than the interval belongs to a later run", () => {
    const often = { id: "c", cron: "*/10 * * * *", timeZone: "UTC", warnings: [15] }
    const due = earliestAfter([often], ms("2025-01-06T00:00:00.000Z"))
    // 00:05 warns of the 00:20 run; the 00:10 run comes after it.
    expect(due.map((m) => [iso(m.at), m.warning])).toEqual([["2025-01-06T00:05:00.000Z", 15]])
  })

  it("the view shows the next run and only the warnings still to come", () => {
    const view = upcoming(job, ms("2025-01-06T03:50:00.000Z"))
    expect(iso(view.nextRun)).toBe("2025-01-06T04:00:00.000Z")
    expect(view.warnings.map((w) => [w.minutes, iso(w.at)])).toEqual([
      [5, "2025-01-06T03:55:00.000Z"],
      [1, "2025-01-06T03:59:00.000Z"]
    ])
  })
})
