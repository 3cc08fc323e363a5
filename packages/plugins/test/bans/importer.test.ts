/** The import check on its own: one pass over the entries, rows flat in INSERT column order. */
import { describe, expect, it } from "@effect/vitest"
import { parsePlatformId } from "@garrison/runtime"
import { Either } from "effect"
import { IMPORT_COLUMNS, IMPORT_WIDTH, planImport } from "../../src/bans/internal/importer.js"

const none = { activePlayers: new Set<string>(), ids: new Set<string>() }
const entry = (extra: Record<string, unknown> = {}) => ({
  platformId: "76561198000000001",
  playerName: "P",
  reason: "r",
  bannedBy: "other community",
  bannedAt: "2024-05-01T10:00:00.000Z",
  ...extra
})
/** The planned rows as column records. */
const rowsOf = (params: ReadonlyArray<string | null>) =>
  Array.from({ length: params.length / IMPORT_WIDTH }, (_, r) =>
    Object.fromEntries(IMPORT_COLUMNS.map((column, c) => [column, params[r * IMPORT_WIDTH + c]]))
  )
const only = (e: unknown) => {
  const plan = planImport([e], none)
  return { row: rowsOf(plan.params)[0], errors: plan.errors.map((x) => ({ ...x })) }
}

describe("planImport", () => {
  it("flat rows in INSERT column order, one per kept entry", () => {
    const id = "0f8fad5b-d9cb-469f-a165-70867728950e"
    const plan = planImport([entry({ id, expiresAt: "2999-01-01T00:00:00.000Z" })], none)
    expect(plan.added).toBe(1)
    expect(plan.params).toHaveLength(IMPORT_WIDTH)
    expect(rowsOf(plan.params)).toEqual([
      {
        id,
        platform_id: "76561198000000001",
        player_name: "P",
        reason: "r",
        banned_by: "other community",
        banned_at: "2024-05-01T10:00:00.000Z",
        expires_at: "2999-01-01T00:00:00.000Z",
        source: "import"
      }
    ])
  })

  it("platform ids: the Steam64 shortcut agrees with parsePlatformId at the edges; others are converted", () => {
    for (const raw of [
      "76561197960265728",
      "76561197960265729",
      "76561202255233023",
      "76561202255233024",
      "76561199999999999",
      "86561198000000001",
      " 76561198000000001 ",
      "STEAM_0:0:26039975",
      "STEAM_1:1:5",
      "[U:1:39734273]",
      "U:1:39734273",
      "7656119800000000",
      "765611980000000011",
      "junk"
    ]) {
      const expected = parsePlatformId(raw)
      const { row, errors } = only(entry({ platformId: raw }))
      if (Either.isRight(expected)) {
        expect(row?.["platform_id"], raw).toBe(expected.right)
        expect(errors, raw).toEqual([])
      } else {
        expect(row, raw).toBeUndefined()
        expect(errors, raw).toEqual([{ index: 0, platformId: raw, error: `platformId: ${expected.left.message}` }])
      }
    }
  })

  it("times: stored form is kept as sent, other ISO forms re-formatted, impossible dates not taken as stored", () => {
    const at = (bannedAt: unknown) => only(entry({ bannedAt }))
    expect(at("2024-05-01T10:00:00.000Z").row?.["banned_at"]).toBe("2024-05-01T10:00:00.000Z")
    expect(at("2024-02-29T23:59:59.999Z").row?.["banned_at"]).toBe("2024-02-29T23:59:59.999Z")
    expect(at("2024-05-01T10:00:00Z").row?.["banned_at"]).toBe("2024-05-01T10:00:00.000Z")
    expect(at("2024-05-01T12:00:00+02:00").row?.["banned_at"]).toBe("2024-05-01T10:00:00.000Z")
    expect(at("2024-05-01").row?.["banned_at"]).toBe("2024-05-01T00:00:00.000Z")
    // Not a real day: refused, never stored as written nor rolled over to 1 March.
    const refusedWith = {
      "2023-02-29T00:00:00.000Z": "2023-02-29 does not exist: February 2023 has 28 days (2023 is not a leap year)",
      "2023-02-29T00:00:00Z": "2023-02-29 does not exist: February 2023 has 28 days (2023 is not a leap year)",
      "2024-13-01T00:00:00.000Z": "month 13 does not exist (01 to 12)",
      "2024-05-01T10:00:60.000Z": "second 60 is out of range (00 to 59)",
      "2024-05-01T24:00:00Z": "hour 24 is out of range (00 to 23)",
      "2024-05-01T10:00:00+25:00": "offset +25:00 is out of range (hours 00 to 23, minutes 00 to 59)",
      "1969-12-31T23:59:59.999Z": "must be 1970 or later",
      "yesterday": "expected an ISO-8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)"
    }
    for (const [bad, why] of Object.entries(refusedWith)) {
      expect(at(bad).errors, bad).toEqual([{ index: 0, platformId: "76561198000000001", error: `bannedAt: ${why}` }])
    }
    for (const bad of [42, true, {}]) {
      expect(at(bad).errors, String(bad)).toEqual([
        { index: 0, platformId: "76561198000000001", error: "bannedAt: an ISO-8601 date-time, e.g. 2025-01-31T12:00:00Z" }
      ])
    }
    expect(only(entry({ expiresAt: "2026-02-30T00:00:00Z" })).errors).toEqual([
      { index: 0, platformId: "76561198000000001", error: "expiresAt: 2026-02-30 does not exist: February 2026 has 28 days" }
    ])
    expect(at(null).errors).toEqual([{ index: 0, platformId: "76561198000000001", error: "bannedAt: required, an ISO-8601 date-time" }])
    expect(only(entry({ expiresAt: null })).row?.["expires_at"]).toBeNull()
    expect(only(entry({ expiresAt: "2024-05-01T12:00:00+01:00" })).row?.["expires_at"]).toBe("2024-05-01T11:00:00.000Z")
    expect(only(entry({ expiresAt: "2024-05-01T10:00:00Z" })).errors).toEqual([
      { index: 0, platformId: "76561198000000001", error: "expiresAt: must be after bannedAt" }
    ])
    expect(only(entry({ expiresAt: 5 })).errors[0]?.error).toBe("expiresAt: an ISO-8601 date-time, e.g. 2025-01-31T12:00:00Z")
  })

  it("text fields are trimmed single lines of bounded length", () => {
    expect(only(entry({ playerName: "  Bob  " })).row?.["player_name"]).toBe("Bob")
    expect(only(entry({ reason: "   " })).errors[0]?.error).toBe("reason: must not be empty")
    expect(only(entry({ reason: "a\nb" })).errors[0]?.error).toBe("reason: must be a single line")
    expect(only(entry({ bannedBy: "x\ry" })).errors[0]?.error).toBe("bannedBy: must be a single line")
    expect(only(entry({ playerName: "x".repeat(129) })).errors[0]?.error).toBe("playerName: must be at most 128 characters")
    expect(only(entry({ bannedBy: undefined })).errors[0]?.error).toBe("bannedBy: required, a string")
  })

  it("ban ids: a UUID is kept in lower case, anything else or a repeat gets a new one; stored ids are skipped", () => {
    const upper = "0F8FAD5B-D9CB-469F-A165-70867728950E"
    const plan = planImport(
      [
        entry({ id: upper }),
        entry({ platformId: "76561198000000002", id: upper }),
        entry({ platformId: "76561198000000003", id: "not-a-uuid" }),
        entry({ platformId: "76561198000000004", id: "0f8fad5b-d9cb-469f-a165-70867728950" }),
        entry({ platformId: "76561198000000005", id: "11111111-2222-3333-4444-555555555555" })
      ],
      { activePlayers: new Set(), ids: new Set(["11111111-2222-3333-4444-555555555555"]) }
    )
    const ids = rowsOf(plan.params).map((r) => r["id"])
    expect(plan.added).toBe(4)
    expect(plan.skipped).toBe(1)
    expect(ids[0]).toBe(upper.toLowerCase())
    expect(new Set(ids).size).toBe(4)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })

  it("de-duplicates by player against stored active bans and within the file, after normalising ids", () => {
    const plan = planImport(
      [entry(), entry({ platformId: "[U:1:39734273]" }), entry({ platformId: "76561198000000009" }), "x", entry({ platformId: "76561198000000010" })],
      { activePlayers: new Set(["76561198000000009"]), ids: new Set() }
    )
    expect(rowsOf(plan.params).map((r) => r["platform_id"])).toEqual(["76561198000000001", "76561198000000010"])
    expect(plan.skipped).toBe(2)
    expect(plan.errors.map((e) => ({ ...e }))).toEqual([{ index: 3, error: "expected an object" }])
  })

  it("non-objects and missing ids are errors naming their index", () => {
    const plan = planImport([null, [], 7, entry({ platformId: 42 }), entry({ platformId: undefined })], none)
    expect(plan.added).toBe(0)
    expect(plan.errors.map((e) => ({ ...e }))).toEqual([
      { index: 0, error: "expected an object" },
      { index: 1, error: "expected an object" },
      { index: 2, error: "expected an object" },
      { index: 3, error: "platformId: required, a string" },
      { index: 4, error: "platformId: required, a string" }
    ])
  })

  it("a NUL in a text field refuses the entry, naming its index and the field (PostgreSQL text cannot hold one)", () => {
    const plan = planImport(
      [entry({ playerName: "P\u0000" }), entry({ platformId: "76561198000000002", reason: "a\u0000b" }), entry({ platformId: "76561198000000003", bannedBy: "\u0000" }), entry({ platformId: "76561198000000004" })],
      none
    )
    expect(plan.added).toBe(1)
    expect(plan.errors.map((x) => ({ ...x }))).toEqual([
      { index: 0, platformId: "76561198000000001", error: "playerName: must not contain a NUL character (U+0000)" },
      { index: 1, platformId: "76561198000000002", error: "reason: must not contain a NUL character (U+0000)" },
      { index: 2, platformId: "76561198000000003", error: "bannedBy: must not contain a NUL character (U+0000)" }
    ])
  })
})
