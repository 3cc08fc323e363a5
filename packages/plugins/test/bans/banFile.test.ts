/** The pure parts: the ban.txt block merge, the expiration parser, cursors. */
import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import { BAN_BLOCK_BEGIN as BEGIN, BAN_BLOCK_END as END, banBlockIds, mergeBanBlock, renderBanBlock } from "../../src/bans/index.js"
import { decodeCursor, encodeCursor } from "../../src/bans/internal/cursor.js"
import { expirationToIso } from "../../src/bans/internal/expiration.js"

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
})

describe("cursor", () => {
  it("round-trips and rejects foreign text", () => {
    const position = { bannedAt: "2025-01-01T00:00:00.000Z", id: "abc" }
    expect(decodeCursor(encodeCursor(position))).toEqual(Option.some(position))
    expect(Option.isNone(decodeCursor("garbage"))).toBe(true)
    expect(Option.isNone(decodeCursor(Buffer.from("bans:nope|x").toString("base64url")))).toBe(true)
  })
})
