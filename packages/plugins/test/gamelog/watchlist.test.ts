/**
 * The watchlist over the game log: a watched player's connect read from an
 * admin log gives one notification (to whoever may view that server) and
 * one `WatchlistJoined`; reading the log again gives neither twice.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import type { AnyPlugin } from "@garrison/runtime"
import { EventBus, PlayerIds, profilesFolder } from "@garrison/runtime"
import { call, eventually, StubFleet, testController } from "@garrison/testkit"
import { ActionsPlugin } from "../../src/actions/index.js"
import { GameLogPlugin, Ingest } from "../../src/gamelog/index.js"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { MapsPlugin } from "../../src/maps/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { WatchlistJoined, WatchlistPlugin } from "../../src/watchlist/index.js"

const STEAM = "76561198000000042"
const DAYZ = PlayerIds.toDayzId(STEAM as PlayerIds.Steam64)

describe("watchlist", () => {
  it.scopedLive("a watched player joining gives one notification and one event; other players and re-reads give none", () => {
    const fleet = new StubFleet()
    const { profiles } = fleet.add("s1", { entry: { name: "Chernarus #1" } })
    const adm = NodePath.join(profiles, "DayZServer_x64_2026-11-21_18-00-00.ADM")
    Fs.writeFileSync(adm, "AdminLog started on 2026-11-21 at 18:00:00\n")
    const plugins = [WatchlistPlugin, GameLogPlugin, NotificationsPlugin, ActionsPlugin, PlayersPlugin, MapsPlugin] as ReadonlyArray<AnyPlugin>
    return Effect.gen(function* () {
      const bus = yield* EventBus
      const seen = yield* bus.subscribe(WatchlistJoined)
      const events: Array<WatchlistJoined> = []
      yield* Effect.forkScoped(Stream.runForEach(seen, (event) => Effect.sync(() => events.push(event))))

      const added = yield* call("POST", "/api/watchlist", { as: "mia:", json: { player: `  ${STEAM} `, note: "suspected duper" } })
      expect(added.status).toBe(201)
      expect(added.body).toMatchObject({ playerId: DAYZ, platformId: STEAM, note: "suspected duper", createdBy: "mia", lastJoinedAt: null })
      expect((yield* call("POST", "/api/watchlist", { as: "mia:", json: { player: DAYZ } })).status).toBe(409)
      const bad = yield* call("POST", "/api/watchlist", { as: "mia:", json: { player: "not a player" } })
      expect(bad.status).toBe(400)
      expect(JSON.stringify(bad.body)).toContain("player")

      Fs.appendFileSync(adm, `18:00:05 | Player "Someone" is connected (id=${PlayerIds.toDayzId("76561198000000043" as PlayerIds.Steam64)})\n18:00:06 | Player "Dupe King" is connected (id=${DAYZ})\n`)
      const ingest = yield* Ingest
      yield* ingest.poll("s1", profilesFolder(fleet.server("s1").entry))
      yield* ingest.poll("s1", profilesFolder(fleet.server("s1").entry))

      // The bus's handlers run beside the poll: wait for the notification, then for a stray second one.
      yield* eventually(call("GET", "/api/notifications", { as: "viewer:server.view" }), (reply) => (reply.body as { items: Array<unknown> }).items.length > 0)
      yield* Effect.sleep("300 millis")
      const inbox = (yield* call("GET", "/api/notifications", { as: "viewer:server.view" })).body as { items: Array<{ title: string; message: string; serverId: string | null }> }
      expect(inbox.items).toHaveLength(1)
      expect(inbox.items[0]).toMatchObject({ title: "Watched player Dupe King joined Chernarus #1", serverId: "s1" })
      expect(inbox.items[0]?.message).toContain("suspected duper")
      // Someone who may not view s1 is not told.
      expect(((yield* call("GET", "/api/notifications", { as: "other:server.view@s9" })).body as { items: Array<unknown> }).items).toHaveLength(0)

      const list = (yield* call("GET", "/api/watchlist", { as: "mia:" })).body as { items: Array<Record<string, unknown>> }
      expect(list.items[0]).toMatchObject({ name: "Dupe King", lastJoinedServerId: "s1" })

      // Exactly one event: waited for, then a moment more for a stray second one.
      yield* eventually(Effect.sync(() => events.length), (n) => n > 0)
      yield* Effect.sleep("300 millis")
      expect(events.map((e) => [e.name, e.serverName, e.platformId, e.note])).toEqual([["Dupe King", "Chernarus #1", STEAM, "suspected duper"]])

      const id = String(list.items[0]?.["id"])
      expect((yield* call("DELETE", `/api/watchlist/${id}`, { as: "mia:" })).status).toBe(204)
      expect((yield* call("DELETE", `/api/watchlist/${id}`, { as: "mia:" })).status).toBe(404)
    }).pipe(Effect.provide(testController<Ingest | EventBus>([...plugins, fleet.plugin()], { dataPrefix: "garrison-watchlist-" })))
  })
})
