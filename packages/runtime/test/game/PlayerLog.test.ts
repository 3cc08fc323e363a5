import { describe, expect, it } from "vitest"
import { makePlayerDirectory, parsePlayerLogLine } from "../../src/game/PlayerLog.js"
import { toBattlEyeGuid, toDayzId, type Steam64 } from "../../src/game/PlayerIds.js"
import { RconPlayer } from "../../src/game/Players.js"

// The worked example of the reference: its GUID and DayZ ID.
const STEAM64 = "76561198012345678" as Steam64
const GUID = "2d3fe9abaa51e04aa876a7bcfe84e0d6"
const DAYZ_ID = "yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc="
const OTHER = "76561198000000002" as Steam64

const listed = (slot: number, name: string, guid: string) =>
  new RconPlayer({ slot, name, guid, verified: guid !== "", ip: "10.0.0.1", port: 2304, ping: 40, inLobby: false })

describe("parsePlayerLogLine", () => {
  it("reads the Steam64 from RPT connect, disconnect and refusal lines", () => {
    expect(parsePlayerLogLine(`12:00:01.123 Player "Bravo17"(steamID=${STEAM64}) is connected`)).toEqual({ name: "Bravo17", steam64: STEAM64 })
    expect(parsePlayerLogLine(`12:00:09.001 Player "Bravo17"(steamID=${STEAM64}) disconnected`)).toEqual({ name: "Bravo17", steam64: STEAM64 })
    expect(parsePlayerLogLine(`12:00:02.500 Player "A B"(steamID=${STEAM64}) kicked from server: Server is locked`)).toEqual({
      name: "A B",
      steam64: STEAM64
    })
    // Spacing varies by version.
    expect(parsePlayerLogLine(`Player "Bravo17" (steamID=${STEAM64}) is connected`)).toEqual({ name: "Bravo17", steam64: STEAM64 })
    // Real servers' order puts the ids after "is connected"; both are read.
    expect(parsePlayerLogLine(`7:20:41.676 Player "Bravo17" is connected (steamID=${STEAM64})`)).toEqual({ name: "Bravo17", steam64: STEAM64 })
  })

  it("reads the DayZ ID from ADM connect and disconnect lines", () => {
    expect(parsePlayerLogLine(`12:00:01 | Player "Bravo17" is connected (id=${DAYZ_ID})`)).toEqual({ name: "Bravo17", dayzId: DAYZ_ID })
    expect(parsePlayerLogLine(`12:00:09 | Player "Bravo17"(id=${DAYZ_ID}) has been disconnected`)).toEqual({ name: "Bravo17", dayzId: DAYZ_ID })
  })

  it("ignores other lines and ids that are not well formed", () => {
    const hit = `12:00:03 | Player "A" (id=${DAYZ_ID} pos=<1.0, 2.0, 3.0>)[HP: 74] hit by Player "B" (id=${DAYZ_ID} pos=<1.0, 2.0, 3.0>) into Head(0) for 26 damage (Bullet_45ACP) with FX-45 from 1.12831 meters`
    expect(parsePlayerLogLine(hit)).toBeUndefined()
    expect(parsePlayerLogLine(`Chat("Bravo17"(id=${DAYZ_ID})): hello`)).toBeUndefined()
    expect(parsePlayerLogLine(`Player "X"(steamID=12345) is connected`)).toBeUndefined()
    expect(parsePlayerLogLine(`Player "X"(steamID=76561197960265728) is connected`)).toBeUndefined()
    expect(parsePlayerLogLine(`Player "X" is connected (id=short=)`)).toBeUndefined()
    expect(parsePlayerLogLine("12:00:00.000 Mission: dayzOffline.chernarusplus")).toBeUndefined()
  })

  it("a name that imitates a log line does not push the real id aside", () => {
    const fake = `Player "X"(steamID=${OTHER}) is connected"(steamID=${STEAM64}) is connected`
    expect(parsePlayerLogLine(fake)).toEqual({ name: `X"(steamID=${OTHER}) is connected`, steam64: STEAM64 })
  })
})

describe("PlayerDirectory", () => {
  it("gives a listed player the Steam64 whose hash is their GUID, and the DayZ ID from it", () => {
    expect(toBattlEyeGuid(STEAM64)).toBe(GUID)
    const directory = makePlayerDirectory()
    directory.learn({ name: "Bravo17", steam64: STEAM64 })
    const player = directory.identify(listed(3, "Bravo17", GUID))
    expect(player).toMatchObject({ slot: 3, name: "Bravo17", guid: GUID, steam64: STEAM64, dayzId: DAYZ_ID })
    // Renamed since: the GUID still proves who it is.
    expect(directory.identify(listed(3, "NewName", GUID))).toMatchObject({ steam64: STEAM64, dayzId: DAYZ_ID })
  })

  it("names prove nothing: a player calling themselves like someone logged gets no Steam64", () => {
    const directory = makePlayerDirectory()
    directory.learn({ name: "Bravo17", steam64: STEAM64 })
    const impostor = directory.identify(listed(4, "Bravo17", toBattlEyeGuid(OTHER)))
    expect(impostor.steam64).toBeNull()
    expect(directory.identify(listed(5, "Nobody", "")).steam64).toBeNull()
    expect(directory.identify(listed(5, "Nobody", "")).dayzId).toBeNull()
  })

  it("without a Steam64, the DayZ ID comes from the ADM by name, only while one id goes with that name", () => {
    const directory = makePlayerDirectory()
    directory.learn({ name: "Solo", dayzId: DAYZ_ID })
    expect(directory.identify(listed(0, "Solo", ""))).toMatchObject({ steam64: null, dayzId: DAYZ_ID })
    directory.learn({ name: "Solo", dayzId: DAYZ_ID })
    expect(directory.identify(listed(0, "Solo", "")).dayzId).toBe(DAYZ_ID)
    directory.learn({ name: "Solo", dayzId: toDayzId(OTHER) })
    expect(directory.identify(listed(0, "Solo", "")).dayzId).toBeNull()
  })

  it("keeps at most its capacity, newest first", () => {
    const directory = makePlayerDirectory(2)
    const ids = ["76561198000000011", "76561198000000012", "76561198000000013"] as Array<Steam64>
    for (const steam64 of ids) directory.learn({ name: steam64, steam64 })
    expect(directory.size()).toBe(2)
    expect(directory.identify(listed(0, "a", toBattlEyeGuid(ids[0]!))).steam64).toBeNull()
    expect(directory.identify(listed(0, "c", toBattlEyeGuid(ids[2]!))).steam64).toBe(ids[2])
  })
})
