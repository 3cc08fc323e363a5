/** The plain rules: which names a request may read, and when ranges are bucketed. */
import { describe, expect, it } from "@effect/vitest"
import { bucketMillis } from "../../src/logs/internal/downsample.js"
import { logKind, nameProblem } from "../../src/logs/internal/names.js"

describe("log file names", () => {
  it("accepts plain RPT, ADM and .log names only", () => {
    expect(nameProblem("DayZServer_x64_2026-11-21_18-00-00.RPT")).toBeUndefined()
    expect(nameProblem("DayZServer_x64_2026-11-21_18-00-00.adm")).toBeUndefined()
    expect(nameProblem("crash_2026-11-21_18-00-00.log")).toBeUndefined()
    for (const bad of ["", "..", "../x.log", "a/b.log", "a\\b.log", "/etc/x.log", "C:x.log", "x.log\0", "serverDZ.cfg", "..x.log"]) {
      expect([bad, nameProblem(bad) !== undefined]).toEqual([bad, true])
    }
    expect(logKind("x.Rpt")).toBe("rpt")
  })
})

describe("downsampling", () => {
  it("raw samples while they fit in 500 points, else whole-second buckets", () => {
    expect(bucketMillis(0, 60_000, 30_000)).toBe(0)
    expect(bucketMillis(0, 15_000_000, 30_000)).toBe(0)
    expect(bucketMillis(0, 86_400_000, 30_000)).toBe(173_000)
    expect(bucketMillis(0, 7 * 86_400_000, 30_000)).toBe(1_210_000)
  })
})
