/**
 * `POST /api/servers/:id/players/:playerId/ban` over fake servers: the
 * player is resolved like the kick route, banned globally and kicked from
 * every running server where they are online that the caller may see.
 */
import { describe, expect, it } from "@effect/vitest"
import { PlayerIds } from "@garrison/runtime"
import { Effect } from "effect"
import { banFileWhen, bansController, call, makeFleet, playersReply, server } from "./support.js"

const BAN = "op:players.ban"
const STEAM64 = "76561198012345678" as PlayerIds.Steam64
const GUID = PlayerIds.toBattlEyeGuid(STEAM64)
const OTHER_GUID = "0123456789abcdef0123456789abcdef"

const fleetWithPlayer = () => {
  const fleet = makeFleet({ alpha: "running", bravo: "running", charlie: "stopped" })
  server(fleet, "alpha").playersReply = playersReply([
    [0, OTHER_GUID, "Someone"],
    [3, GUID, "Bravo17"]
  ])
  server(fleet, "bravo").playersReply = playersReply([[7, GUID, "Bravo17"]])
  server(fleet, "charlie").playersReply = playersReply([[1, GUID, "Bravo17"]])
  return fleet
}

/** What a server's RPT says when Bravo17 connects. */
const CONNECTED = `12:00:01.000 Player "Bravo17"(steamID=${STEAM64}) is connected`

describe("player ban route", () => {
  it.scopedLive("bans a player online by slot and kicks them from every running server", () => {
    const fleet = fleetWithPlayer()
    return Effect.gen(function* () {
      const reply = yield* call("POST", "/api/servers/alpha/players/3/ban", {
        as: BAN,
        json: { reason: "cheating", expiration: 60, platformId: "STEAM_0:0:26039975" }
      })
      expect(reply.status).toBe(201)
      const ban = reply.body.ban as Record<string, unknown>
      expect(ban).toMatchObject({ platformId: STEAM64, playerName: "Bravo17", reason: "cheating", bannedBy: "op", source: "manual" })
      const expiresIn = Date.parse(String(ban.expiresAt)) - Date.parse(String(ban.bannedAt))
      expect(Math.abs(expiresIn - 60 * 60_000)).toBeLessThan(1000)
      const kicked = reply.body.kicked as Array<{ serverId: string; player: { slot: number } }>
      expect(kicked.map((k) => [k.serverId, k.player.slot]).sort()).toEqual([
        ["alpha", 3],
        ["bravo", 7]
      ])
      expect(server(fleet, "alpha").commands).toEqual(["kick 3 Banned: cheating"])
      expect(server(fleet, "bravo").commands).toEqual(["kick 7 Banned: cheating"])
      // Stopped: not asked at all.
      expect(server(fleet, "charlie").commands).toEqual([])
      // Every server's ban.txt, stopped ones included.
      for (const name of ["alpha", "bravo", "charlie"]) {
        expect(yield* banFileWhen(server(fleet, name), (t) => t.includes(STEAM64))).toContain(STEAM64)
      }
      const again = yield* call("POST", "/api/servers/alpha/players/3/ban", { as: BAN, json: { reason: "x", platformId: STEAM64 } })
      expect(again.status).toBe(409)
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("a moderator of one server kicks on that server only, and learns nothing of the others", () => {
    const fleet = fleetWithPlayer()
    return Effect.gen(function* () {
      const reply = yield* call("POST", `/api/servers/alpha/players/${STEAM64}/ban`, { as: "mod:players.ban@alpha,players.view@alpha", json: { reason: "r" } })
      expect(reply.status).toBe(201)
      expect((reply.body.kicked as Array<{ serverId: string }>).map((k) => k.serverId)).toEqual(["alpha"])
      expect(server(fleet, "alpha").commands).toEqual(["kick 3 Banned: r"])
      expect(server(fleet, "bravo").commands).toEqual([])
      expect(JSON.stringify(reply.body)).not.toContain("bravo")
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("a platform id in the path needs no platformId; a GUID or name without one is 400", () => {
    const fleet = fleetWithPlayer()
    return Effect.gen(function* () {
      const byGuid = yield* call("POST", `/api/servers/alpha/players/${GUID}/ban`, { as: BAN, json: { reason: "r" } })
      expect(byGuid.status).toBe(400)
      expect(String(byGuid.body.message)).toContain("platformId")
      const byName = yield* call("POST", "/api/servers/alpha/players/bravo17/ban", { as: BAN, json: { reason: "r" } })
      expect(byName.status).toBe(400)
      const mismatch = yield* call("POST", "/api/servers/alpha/players/0/ban", { as: BAN, json: { reason: "r", platformId: STEAM64 } })
      expect(mismatch.status).toBe(400)
      expect(String(mismatch.body.message)).toContain("GUID")

      const byPath = yield* call("POST", `/api/servers/charlie/players/${encodeURIComponent("[U:1:52079950]")}/ban`, {
        as: BAN,
        json: { reason: "r", expiration: "perm" }
      })
      expect(byPath.status).toBe(201)
      // Online elsewhere: the ban keeps the name the server shows, not the Steam64.
      expect(byPath.body.ban).toMatchObject({ platformId: STEAM64, playerName: "Bravo17", expiresAt: null })
      expect((byPath.body.kicked as Array<unknown>).length).toBe(2)

      // Online nowhere and no name given: the Steam64 is all there is to call them.
      const offline = yield* call("POST", "/api/servers/charlie/players/76561198000000077/ban", { as: BAN, json: { reason: "r" } })
      expect(offline.status).toBe(201)
      expect(offline.body.ban).toMatchObject({ platformId: "76561198000000077", playerName: "76561198000000077" })
      expect(offline.body.kicked).toEqual([])
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("404 for unknown servers and players, 409 when stopped, 400 for a bad expiration, 403", () => {
    const fleet = fleetWithPlayer()
    return Effect.gen(function* () {
      const body = { reason: "r", platformId: STEAM64 }
      expect((yield* call("POST", "/api/servers/ghost/players/3/ban", { as: BAN, json: body })).status).toBe(404)
      expect((yield* call("POST", "/api/servers/alpha/players/9/ban", { as: BAN, json: body })).status).toBe(404)
      expect((yield* call("POST", "/api/servers/charlie/players/1/ban", { as: BAN, json: body })).status).toBe(409)
      for (const expiration of ["tomorrow", -5, "2001-01-01T00:00:00Z", 99_999_999]) {
        const bad = yield* call("POST", "/api/servers/alpha/players/3/ban", { as: BAN, json: { ...body, expiration } })
        expect(bad.status).toBe(400)
        expect(String(bad.body.message)).toContain("expiration")
      }
      const iso = yield* call("POST", "/api/servers/alpha/players/3/ban", { as: BAN, json: { ...body, expiration: "2999-06-01T00:00:00Z" } })
      expect(iso.status).toBe(201)
      expect((iso.body.ban as { expiresAt: string }).expiresAt).toBe("2999-06-01T00:00:00.000Z")
      expect((yield* call("POST", "/api/servers/alpha/players/3/ban", { as: "x:bans.manage", json: body })).status).toBe(403)
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("an online player the logs name is banned by slot or name without platformId, under their name", () => {
    const fleet = fleetWithPlayer()
    server(fleet, "alpha").logLines = [CONNECTED]
    return Effect.gen(function* () {
      const byName = yield* call("POST", "/api/servers/alpha/players/BRAVO17/ban", { as: BAN, json: { reason: "aimbot" } })
      expect(byName.status, JSON.stringify(byName.body)).toBe(201)
      expect(byName.body.ban).toMatchObject({ platformId: STEAM64, playerName: "Bravo17", reason: "aimbot" })
      const kicked = byName.body.kicked as Array<{ serverId: string; player: { slot: number; steam64: string | null; dayzId: string | null } }>
      // Kicked wherever online; bravo's logs say nothing, so its listing shows no ids, but the GUID matches.
      expect(kicked.map((k) => [k.serverId, k.player.slot, k.player.steam64]).sort()).toEqual([
        ["alpha", 3, STEAM64],
        ["bravo", 7, null]
      ])
      expect(kicked.find((k) => k.serverId === "alpha")?.player.dayzId).toBe(PlayerIds.toDayzId(STEAM64))
      expect(server(fleet, "alpha").commands).toEqual(["kick 3 Banned: aimbot"])
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("by slot, the logs' Steam64 is used; a platformId that contradicts it is 400", () => {
    const fleet = fleetWithPlayer()
    server(fleet, "alpha").logLines = [CONNECTED]
    return Effect.gen(function* () {
      const contradicts = yield* call("POST", "/api/servers/alpha/players/3/ban", {
        as: BAN,
        json: { reason: "r", platformId: "76561198000000002" }
      })
      expect(contradicts.status).toBe(400)
      expect(String(contradicts.body.message)).toContain("logs show for Bravo17")
      // The one without ids in the logs still needs platformId.
      const unknown = yield* call("POST", "/api/servers/alpha/players/0/ban", { as: BAN, json: { reason: "r" } })
      expect(unknown.status).toBe(400)
      expect(String(unknown.body.message)).toContain("platformId: required: the server's logs do not name Someone's Steam64 yet")

      const bySlot = yield* call("POST", "/api/servers/alpha/players/3/ban", { as: BAN, json: { reason: "r", playerName: "Bravo (main)" } })
      expect(bySlot.status).toBe(201)
      expect(bySlot.body.ban).toMatchObject({ platformId: STEAM64, playerName: "Bravo (main)" })
    }).pipe(Effect.provide(bansController(fleet)))
  })
})
