/** The pure parts: the ban.txt block merge, the expiration parsers, cursors. */
import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import { BAN_BLOCK_BEGIN as BEGIN, BAN_BLOCK_END as END, banBlockIds, mergeBanBlock, renderBanBlock } from "../../src/bans/index.js"
import { banCursor } from "../../src/bans/internal/cursor.js"
import { expirationToIso } from "../../src/bans/internal/expiration.js"
import { readExpiry } from "../../src/bans/internal/time.js"

const block = renderBanBlock(["76561198000000001", "76561198000000002"], "steam64")

describe("ban.txt block", () => {
  it("appends a block to a file without one, keeping every line", () => {
    expect(mergeBanBlock("", block)).toBe(`${block}\n`)
    expect(mergeBanBlock("// owner\n765611980000000099", block)).toBe(`// owner\n765611980000000099\n${block}\n`)
    expect(mergeBanBlock("a\r\nb\r\n", block)).toBe(`a\r\nb\r\n${block.replace(/\n/g, "\r\n")}\r\n`)
  })

  it("replaces only the block, and is stable", () => {
    const file = `// top\n\n${BEGIN}\nold\n${END}\n// bottom\nx`
    const merged = mergeBanBlock(file, block)
    expect(merged).toBe(`// top\n\n${block}\n// bottom\nx`)
    expect(mergeBanBlock(merged, block)).toBe(merged)
    expect(banBlockIds(merged)).toEqual(["76561198000000001", "76561198000000002"])
    expect(mergeBanBlock(merged, renderBanBlock([], "steam64"))).toBe(`// top\n\n${BEGIN}\n${END}\n// bottom\nx`)
  })

  it("a begin marker without an end: the block runs to the end", () => {
    expect(mergeBanBlock(`keep\n${BEGIN}\njunk\n`, block)).toBe(`keep\n${block}\n`)
  })

  it("writes DayZ IDs when asked", () => {
    expect(renderBanBlock(["76561198012345678"], "dayz")).toBe(`${BEGIN}\nyZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc=\n${END}`)
  })
})

describe("expiration", () => {
  const now = Date.parse("2025-01-01T00:00:00.000Z")
  it("takes minutes, ISO date-times, or permanent", () => {
    expect(expirationToIso(90, now)).toEqual(Either.right("2025-01-01T01:30:00.000Z"))
    expect(expirationToIso("15", now)).toEqual(Either.right("2025-01-01T00:15:00.000Z"))
    expect(expirationToIso("2025-02-01T00:00:00+01:00", now)).toEqual(Either.right("2025-01-31T23:00:00.000Z"))
    for (const perm of [undefined, null, 0, "0", "perm", "Permanent"]) expect(expirationToIso(perm, now)).toEqual(Either.right(null))
    for (const bad of [-1, "soon", "2024-12-31T00:00:00Z", Number.NaN, 1e12]) expect(Either.isLeft(expirationToIso(bad, now))).toBe(true)
  })

  it("takes durations as a person types them, and says every form it takes when it cannot read one", () => {
    expect(expirationToIso("7d", now)).toEqual(Either.right("2025-01-08T00:00:00.000Z"))
    expect(expirationToIso("12h", now)).toEqual(Either.right("2025-01-01T12:00:00.000Z"))
    expect(expirationToIso("2w", now)).toEqual(Either.right("2025-01-15T00:00:00.000Z"))
    expect(expirationToIso("1d 30m", now)).toEqual(Either.right("2025-01-02T00:30:00.000Z"))
    const message = (value: string) => Either.match(expirationToIso(value, now), { onLeft: (e) => e.message, onRight: () => "accepted" })
    expect(message("soon")).toBe(
      'expiration: expected minutes from now (a number), a duration from now such as 30m, 12h, 7d or 2w, an ISO-8601 date-time, or "perm"'
    )
    expect(message("0d")).toBe("expiration: a duration must be longer than 0 (leave the field out for a permanent ban)")
    expect(message("600w")).toBe('expiration: at most ten years (5256000 minutes); use "perm" for a permanent ban')
  })
})

describe("readExpiry (expiresAt of POST /api/bans)", () => {
  const now = Date.parse("2025-01-01T00:00:00.000Z")
  it("reads an ISO-8601 date or date-time, or a duration from now", () => {
    expect(readExpiry("7d", now)).toEqual(Either.right(Date.parse("2025-01-08T00:00:00.000Z")))
    expect(readExpiry("30m", now)).toEqual(Either.right(Date.parse("2025-01-01T00:30:00.000Z")))
    expect(readExpiry("2025-03-01", now)).toEqual(Either.right(Date.parse("2025-03-01T00:00:00.000Z")))
    expect(readExpiry("next week", now)).toEqual(
      Either.left("expected an ISO-8601 date-time (2026-05-01T12:00:00Z) or a duration from now such as 30m, 12h, 7d or 2w")
    )
    expect(readExpiry("2025-02-30", now)).toEqual(Either.left("2025-02-30 does not exist: February 2025 has 28 days"))
  })
})

describe("cursor", () => {
  it("round-trips and rejects foreign text", () => {
    const position = { bannedAt: "2025-01-01T00:00:00.000Z", id: "abc" }
    expect(banCursor.decode(banCursor.encode(position))).toEqual(Option.some(position))
    expect(Option.isNone(banCursor.decode("garbage"))).toBe(true)
    expect(Option.isNone(banCursor.decode(Buffer.from("bans:nope|x").toString("base64url")))).toBe(true)
    expect(Option.isNone(banCursor.decode(Buffer.from('bans:{"bannedAt":"nope","id":"x"}').toString("base64url")))).toBe(true)
  })
})
