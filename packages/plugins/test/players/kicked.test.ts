/**
 * `POST /api/servers/:id/players/:playerId/kick` publishes `PlayerKicked`
 * (webhooks: `player.kick`) once the game control answered the kick, and
 * nothing when the kick was refused or named nobody. Over stub servers,
 * whose RCON records the `kick` command.
 */
import { describe, expect, it } from "@effect/vitest"
import { type AnyPlugin, EventBus, on, Plugin, PlayerIds, PublishedEvents } from "@garrison/runtime"
import { jsonBody, playersReply, request, StubFleet, testController } from "@garrison/testkit"
import { Effect, LogLevel, Queue } from "effect"
import { PlayerKicked, PlayersPlugin } from "../../src/players/index.js"

const KICK = "mia:players.kick"
const STEAM64 = "76561198000000001" as PlayerIds.Steam64
const GUID = PlayerIds.toBattlEyeGuid(STEAM64)
/** What the server's RPT says when Bravo17 connects, so the actor knows their Steam64. */
const CONNECTED = `12:00:01.000 Player "Bravo17"(steamID=${STEAM64}) is connected`

const recorder = (seen: Queue.Queue<PlayerKicked>): AnyPlugin =>
  Plugin.make({ id: "kick-recorder", events: [on(PlayerKicked, (event) => Queue.offer(seen, event))] }) as AnyPlugin

/** Every `PlayerKicked` recorded so far: publishes a marker and takes until it (one handler's events arrive in order). */
const recorded = (seen: Queue.Queue<PlayerKicked>) =>
  Effect.gen(function* () {
    const bus = yield* EventBus
    yield* bus.publish(new PlayerKicked({ serverId: "marker", name: "", slot: 0, playerName: "", steam64: null, reason: "", by: "" }))
    const out: Array<PlayerKicked> = []
    for (;;) {
      const event = yield* Queue.take(seen)
      if (event.serverId === "marker") return out
      out.push(event)
    }
  })

const kick = (path: string, json: unknown = {}) => Effect.map(request("POST", path, { as: KICK, json }), ({ status, text }) => ({ status, body: jsonBody(text, {}) }))

describe("kick route and PlayerKicked", () => {
  it.scopedLive("a kick that went through publishes PlayerKicked with the server, the player, the reason and who kicked", () => {
    const fleet = new StubFleet()
    const alpha = fleet.add("alpha", { status: "running", entry: { name: "Main" } })
    alpha.playersReply = playersReply([
      [0, "0123456789abcdef0123456789abcdef", "Someone"],
      [3, GUID, "Bravo17"]
    ])
    alpha.logLines = [CONNECTED]
    fleet.add("stopped", { status: "stopped" })
    return Effect.gen(function* () {
      const seen = yield* Queue.unbounded<PlayerKicked>()
      yield* Effect.gen(function* () {
        // Refused or nobody: nothing is published.
        expect((yield* kick("/api/servers/alpha/players/9/kick")).status).toBe(404)
        expect((yield* kick("/api/servers/stopped/players/0/kick")).status).toBe(409)
        alpha.rconFails = true
        expect((yield* kick("/api/servers/alpha/players/3/kick")).status).toBeGreaterThanOrEqual(500)
        alpha.rconFails = false
        expect(yield* recorded(seen)).toEqual([])

        const byName = yield* kick("/api/servers/alpha/players/bravo17/kick", { reason: "AFK too long" })
        expect(byName.status).toBe(200)
        expect(alpha.commands).toEqual(["kick 3 AFK too long"])
        const bySlot = yield* kick("/api/servers/alpha/players/0/kick")
        expect(bySlot.status).toBe(200)

        // The catalogue names it player.kick; its payload's data is the event's fields.
        const declared = (yield* PublishedEvents).byTag("PlayerKicked")!
        expect([declared.name, declared.owner]).toEqual(["player.kick", "players"])
        const events = yield* recorded(seen)
        expect(events.map((e) => declared.data(e))).toEqual([
          { serverId: "alpha", name: "Main", slot: 3, playerName: "Bravo17", steam64: STEAM64, reason: "AFK too long", by: "mia" },
          // The logs never named this one: no Steam64.
          { serverId: "alpha", name: "Main", slot: 0, playerName: "Someone", steam64: null, reason: "Kicked by an admin", by: "mia" }
        ])
        expect(declared.serverId(events[0]!)).toBe("alpha")
        expect(declared.severity(events[0]!)).toBe("warning")
        expect(declared.summary(events[0]!)).toBe("Bravo17 was kicked from Main by mia: AFK too long")
      }).pipe(
        Effect.provide(
          testController<PublishedEvents>([fleet.plugin(), PlayersPlugin, recorder(seen)], { dataPrefix: "garrison-kicked-", settings: { trustProxyHops: 1 }, logLevel: LogLevel.Error })
        )
      )
    })
  })
})
