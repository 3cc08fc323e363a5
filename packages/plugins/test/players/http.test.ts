/**
 * The players plugin in-process: body validation, 404 for unknown servers,
 * 409 when stopped, 503 without an RCON session, and `:playerId` matching.
 * Real RCON round trips are in test/e2e/servers-lifecycle.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { OnlinePlayer, PlayerIds, RconPlayer } from "@garrison/runtime"
import { Effect } from "effect"
import { findPlayer } from "../../src/players/internal/resolve.js"
import { call, fakeInstall, serversController } from "../servers/support.js"

const ALL = "op:server.deploy,server.start,server.rcon,chat.send,players.view,players.kick"

describe("players routes", () => {
  it.scopedLive("validate bodies and answer 404, 409, 503 by server state", () =>
    Effect.gen(function* () {
      const created = yield* call("POST", "/api/servers", { as: ALL, json: { name: "P", installDir: fakeInstall() } })
      const id = String(created.body.id)

      const tooLong = yield* call("POST", `/api/servers/${id}/message`, { as: ALL, json: { message: "x".repeat(257) } })
      expect(tooLong.status).toBe(400)
      const twoLines = yield* call("POST", `/api/servers/${id}/message`, { as: ALL, json: { message: "hi\n#shutdown" } })
      expect(twoLines.status).toBe(400)
      expect((yield* call("POST", `/api/servers/${id}/rcon`, { as: ALL, json: { command: "" } })).status).toBe(400)
      expect((yield* call("POST", `/api/servers/${id}/rcon`, { as: ALL, json: { command: "a\rb" } })).status).toBe(400)
      expect((yield* call("POST", `/api/servers/${id}/message`, { as: "x:players.view", json: { message: "hi" } })).status).toBe(403)

      expect((yield* call("GET", "/api/servers/ghost/players", { as: ALL })).status).toBe(404)
      expect((yield* call("POST", "/api/servers/ghost/rcon", { as: ALL, json: { command: "players" } })).status).toBe(404)

      const stopped = yield* call("POST", `/api/servers/${id}/message`, { as: ALL, json: { message: "x".repeat(256) } })
      expect(stopped.status).toBe(409)
      expect((yield* call("POST", `/api/servers/${id}/players/0/kick`, { as: ALL, json: {} })).status).toBe(409)

      // Running, but nothing answers on the RCON port: 503, try again later.
      expect((yield* call("POST", `/api/servers/${id}/start`, { as: ALL })).status).toBe(200)
      const noSession = yield* call("GET", `/api/servers/${id}/players`, { as: ALL })
      expect(noSession.status).toBe(503)
      expect(noSession.body.error).toBe("unavailable")
      expect((yield* call("POST", `/api/servers/${id}/stop`, { as: "op:server.stop" })).status).toBe(200)
    }).pipe(Effect.provide(serversController()))
  )
})

describe("findPlayer", () => {
  const player = (slot: number, name: string, guid: string) =>
    new RconPlayer({ slot, name, guid, verified: true, ip: "1.2.3.4", port: 2304, ping: 30, inLobby: false })
  const players = [player(0, "Bravo17", "80a5885ebe2420bab5e158a310fcbc7d"), player(12, "12", "")]

  it("matches a slot number, a GUID or a name", () => {
    expect(findPlayer(players, "0")?.name).toBe("Bravo17")
    expect(findPlayer(players, "12")?.slot).toBe(12)
    expect(findPlayer(players, "80A5885EBE2420BAB5E158A310FCBC7D")?.slot).toBe(0)
    expect(findPlayer(players, "bravo17")?.slot).toBe(0)
    expect(findPlayer(players, "7")).toBeUndefined()
    expect(findPlayer(players, "Nobody")).toBeUndefined()
  })

  it("matches a Steam64 by the ids the logs prove or by the GUID it hashes to, and a DayZ ID", () => {
    const steam64 = "76561198012345678" as PlayerIds.Steam64
    const dayzId = PlayerIds.toDayzId(steam64)
    const known = new OnlinePlayer({ ...player(4, "Known", "0123456789abcdef0123456789abcdef"), steam64, dayzId })
    const byGuid = new OnlinePlayer({ ...player(5, "ByGuid", PlayerIds.toBattlEyeGuid("76561198000000002" as PlayerIds.Steam64)), steam64: null, dayzId: null })
    const listed = [known, byGuid]
    expect(findPlayer(listed, steam64)?.slot).toBe(4)
    expect(findPlayer(listed, "76561198000000002")?.slot).toBe(5)
    expect(findPlayer(listed, "76561198000000003")).toBeUndefined()
    expect(findPlayer(listed, dayzId)?.slot).toBe(4)
    // A slot number is never read as a Steam64, and a plain number stays a slot.
    expect(findPlayer(listed, "5")?.name).toBe("ByGuid")
  })
})
