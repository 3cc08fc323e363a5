/** The strict ISO-8601 reader: the calendar, the clock, zones and offsets, and the two schemas built on it. */
import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { IsoDateOrDateTime, IsoDateTime, readIsoDateTime } from "../../src/time/IsoDateTime.js"

const lenient = { dateOnly: true, zoneRequired: false }
const strict = { dateOnly: false, zoneRequired: true }

/** What is wrong with `text`, or "accepted". */
const problem = (text: string, options = lenient) =>
  Either.match(readIsoDateTime(text, options), { onLeft: (why) => why, onRight: () => "accepted" })
const millis = (text: string, options = lenient) => Either.getOrThrow(readIsoDateTime(text, options))

describe("readIsoDateTime", () => {
  it("refuses days a month does not have, leap years included", () => {
    expect(problem("2026-02-30")).toBe("2026-02-30 does not exist: February 2026 has 28 days")
    expect(problem("2025-02-29")).toBe("2025-02-29 does not exist: February 2025 has 28 days (2025 is not a leap year)")
    expect(problem("1900-02-29")).toContain("1900 is not a leap year")
    expect(millis("2024-02-29")).toBe(Date.UTC(2024, 1, 29))
    expect(millis("2000-02-29T00:00:00Z")).toBe(Date.UTC(2000, 1, 29))
    expect(problem("2026-04-31T10:00:00Z")).toBe("2026-04-31 does not exist: April 2026 has 30 days")
    expect(problem("2026-01-00")).toContain("does not exist")
    expect(problem("2026-13-01")).toBe("month 13 does not exist (01 to 12)")
    expect(problem("2026-00-10")).toBe("month 00 does not exist (01 to 12)")
  })

  it("refuses a clock past 23:59:59, and offsets past ±23:59", () => {
    expect(problem("2026-01-05T24:00:00Z")).toBe("hour 24 is out of range (00 to 23)")
    expect(problem("2026-01-05T12:60Z")).toBe("minute 60 is out of range (00 to 59)")
    expect(problem("2026-01-05T23:59:60Z")).toBe("second 60 is out of range (00 to 59)")
    expect(problem("2026-01-05T12:00:00+25:00")).toBe("offset +25:00 is out of range (hours 00 to 23, minutes 00 to 59)")
    expect(problem("2026-01-05T12:00:00-05:60")).toContain("offset -05:60 is out of range")
    expect(millis("2026-01-05T12:00:00+23:59")).toBe(Date.UTC(2026, 0, 5, 12) - (23 * 60 + 59) * 60_000)
  })

  it("wants two digits per field, upper-case T and Z, and nothing around", () => {
    expect(problem("2026-1-5")).toContain("the year needs four digits, the month and the day two")
    expect(problem("2026-01-5T10:00Z")).toContain("the month and the day two")
    for (const bad of ["", "2026", "2026-01", "20260105", "2026-01-05t10:00Z", "2026-01-05T10:00z", " 2026-01-05", "2026-01-05T10", "2026-01-05T10:00:00.Z", "2026-01-05T10:00:00.1234567890Z", "2026-01-05T10:00+0100", "yesterday", "1700000000000"]) {
      expect([bad, problem(bad)]).not.toEqual([bad, "accepted"])
    }
  })

  it("reads dates as midnight UTC, zone-less date-times as UTC, offsets and fractions", () => {
    expect(millis("2025-01-31")).toBe(Date.UTC(2025, 0, 31))
    expect(millis("2025-01-31T12:00")).toBe(Date.UTC(2025, 0, 31, 12))
    expect(millis("2025-01-31T12:00:00.5Z")).toBe(Date.UTC(2025, 0, 31, 12, 0, 0, 500))
    expect(millis("2025-01-31T12:00:00.123456789Z")).toBe(Date.UTC(2025, 0, 31, 12, 0, 0, 123))
    expect(millis("2025-01-31T14:30:00+02:30")).toBe(Date.UTC(2025, 0, 31, 12))
    expect(millis("2025-01-31T00:00:00-00:00")).toBe(Date.UTC(2025, 0, 31))
    expect(millis("0001-01-01T00:00:00Z")).toBe(-62135596800000)
    expect(millis("9999-12-31T23:59:59.999Z")).toBe(253402300799999)
  })

  it("agrees with Date.UTC on every day of four years around a leap year", () => {
    for (let day = Date.UTC(2023, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000) {
      const text = new Date(day + 45_296_789).toISOString()
      expect(millis(text, strict)).toBe(day + 45_296_789)
    }
  })

  it("as IsoDateTime, requires a time and a zone", () => {
    expect(problem("2025-01-31", strict)).toBe("expected an ISO-8601 date-time with a zone, e.g. 2025-01-31T12:00:00Z: the time is missing")
    expect(problem("2025-01-31T12:00", strict)).toContain("the zone (Z or ±hh:mm) is missing")
  })
})

describe("the schemas", () => {
  const decode = <A>(schema: Schema.Schema<A, string>) => (text: string) =>
    Either.mapLeft(Schema.decodeUnknownEither(schema)(text), (error) => ParseResult.ArrayFormatter.formatErrorSync(error)[0]?.message)

  it("decode to a Date, and fail with the reader's words", () => {
    expect(decode(IsoDateTime)("2024-02-29T10:00:00Z")).toEqual(Either.right(new Date(Date.UTC(2024, 1, 29, 10))))
    expect(decode(IsoDateTime)("2026-02-30T10:00:00Z")).toEqual(Either.left("2026-02-30 does not exist: February 2026 has 28 days"))
    expect(decode(IsoDateOrDateTime)("2024-02-29")).toEqual(Either.right(new Date(Date.UTC(2024, 1, 29))))
    expect(Schema.encodeSync(IsoDateTime)(new Date(Date.UTC(2024, 1, 29, 10)))).toBe("2024-02-29T10:00:00.000Z")
  })
})
