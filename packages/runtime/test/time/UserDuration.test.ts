/** Durations as a person types them: `30m`, `12h`, `7d`, `2w`, and several in a row. */
import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { readUserDuration } from "../../src/time/UserDuration.js"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe("readUserDuration", () => {
  it("reads minutes, hours, days and weeks, alone or in a row, ignoring case and spaces", () => {
    expect(readUserDuration("30m")).toEqual(Option.some(30 * MINUTE))
    expect(readUserDuration("12h")).toEqual(Option.some(12 * HOUR))
    expect(readUserDuration("7d")).toEqual(Option.some(7 * DAY))
    expect(readUserDuration("2w")).toEqual(Option.some(14 * DAY))
    expect(readUserDuration("1d12h")).toEqual(Option.some(DAY + 12 * HOUR))
    expect(readUserDuration(" 2W 3D ")).toEqual(Option.some(17 * DAY))
    expect(readUserDuration("0d")).toEqual(Option.some(0))
  })

  it("is None for anything else, so the caller can read a date instead", () => {
    for (const text of ["", "7", "d", "7 days", "1y", "3mo", "-1d", "1.5h", "2026-05-01", "7d!", "1234567d"]) {
      expect([text, Option.isNone(readUserDuration(text))]).toEqual([text, true])
    }
  })
})
