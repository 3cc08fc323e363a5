import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { PlatformId, PlayerIds } from "../../src/game/index.js"

const EXAMPLE = "76561198012345678"

describe("PlayerIds (the reference's worked example)", () => {
  const steam64 = EXAMPLE as PlayerIds.Steam64

  it("converts Steam64 to Steam2, Steam3, BattlEye GUID and DayZ ID", () => {
    expect(PlayerIds.isSteam64(EXAMPLE)).toBe(true)
    expect(PlayerIds.toSteam2(steam64)).toBe("STEAM_0:0:26039975")
    expect(PlayerIds.toSteam2(steam64, 1)).toBe("STEAM_1:0:26039975")
    expect(PlayerIds.toSteam3(steam64)).toBe("[U:1:52079950]")
    expect(PlayerIds.toBattlEyeGuid(steam64)).toBe("2d3fe9abaa51e04aa876a7bcfe84e0d6")
    expect(PlayerIds.toDayzId(steam64)).toBe("yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc=")
    expect(PlayerIds.isBattlEyeGuid(PlayerIds.toBattlEyeGuid(steam64))).toBe(true)
    expect(PlayerIds.isDayzId(PlayerIds.toDayzId(steam64))).toBe(true)
  })

  it("converts Steam2 (STEAM_0 and STEAM_1) and Steam3 back to Steam64", () => {
    expect(PlayerIds.fromSteam2("STEAM_0:0:26039975")).toEqual(Either.right(EXAMPLE))
    expect(PlayerIds.fromSteam2("STEAM_1:0:26039975")).toEqual(Either.right(EXAMPLE))
    expect(PlayerIds.fromSteam3("[U:1:52079950]")).toEqual(Either.right(EXAMPLE))
    expect(PlayerIds.fromSteam3("U:1:52079950")).toEqual(Either.right(EXAMPLE))
    // An odd account number sets Y.
    const odd = "76561198012345679" as PlayerIds.Steam64
    expect(PlayerIds.toSteam2(odd)).toBe("STEAM_0:1:26039975")
    expect(PlayerIds.fromSteam2("STEAM_0:1:26039975")).toEqual(Either.right(odd))
  })

  it("parsePlatformId accepts any of Steam64, Steam2 and Steam3 and returns Steam64", () => {
    for (const input of [EXAMPLE, ` ${EXAMPLE} `, "STEAM_0:0:26039975", "STEAM_1:0:26039975", "[U:1:52079950]"]) {
      expect(PlayerIds.parsePlatformId(input)).toEqual(Either.right(EXAMPLE))
    }
  })

  it("refuses everything else, saying what was expected", () => {
    for (const input of [
      "",
      "abc",
      "7656119801234567", // 16 digits
      "765611980123456789", // 18 digits
      "76561197960265728", // account 0
      "12345678901234567", // below the individual-account range
      "STEAM_2:0:1",
      "STEAM_0:2:1",
      "[U:2:52079950]",
      "[U:1:0]",
      "[U:1:4294967296]",
      "yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc="
    ]) {
      const result = PlayerIds.parsePlatformId(input)
      expect(Either.isLeft(result), input).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left._tag).toBe("InvalidPlayerId")
        expect(result.left.input).toBe(input)
      }
    }
  })

  it("PlatformId decodes any accepted form into Steam64 and reports the rest", () => {
    const decode = Schema.decodeUnknownEither(PlatformId)
    expect(decode("STEAM_0:0:26039975")).toEqual(Either.right(EXAMPLE))
    expect(decode("[U:1:52079950]")).toEqual(Either.right(EXAMPLE))
    const bad = decode("not-an-id")
    expect(Either.isLeft(bad)).toBe(true)
    if (Either.isLeft(bad)) expect(bad.left.message).toContain("Steam64")
    expect(Either.isLeft(decode(42))).toBe(true)
    expect(Schema.encodeSync(PlatformId)(EXAMPLE as PlayerIds.Steam64)).toBe(EXAMPLE)
  })
})
