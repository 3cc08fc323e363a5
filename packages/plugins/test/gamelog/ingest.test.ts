/**
 * The admin-log ingester over real files: kills (with the fatal hit's zone
 * and headshot), stats and seasons, sessions and playtime, positions, the
 * cursor (chunk boundaries, partial lines, a new log when the server starts
 * again) and what the routes answer from it (filters, visibility, history
 * by name and by Steam64). Lines re-read never count twice.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import type { AnyPlugin } from "@garrison/runtime"
import { PlayerIds, profilesFolder } from "@garrison/runtime"
import { call, StubFleet, testController } from "@garrison/testkit"
import { ActionsPlugin } from "../../src/actions/index.js"
import { GameLogPlugin, Ingest } from "../../src/gamelog/index.js"
import { MapsPlugin } from "../../src/maps/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { BansPlugin } from "../../src/bans/index.js"
import { TrustPlugin } from "../../src/trust/index.js"

const steam = (n: number) => `7656119800000${String(n).padStart(4, "0")}`
const id = (n: number) => PlayerIds.toDayzId(steam(n) as PlayerIds.Steam64)
const ADM = "DayZServer_x64_2026-11-21_18-00-00.ADM"
const NEXT_ADM = "DayZServer_x64_2026-11-22_06-00-00.ADM"

const fight = [
  "AdminLog started on 2026-11-21 at 18:00:00",
  `18:00:05 | Player "Alice" is connected (id=${id(1)})`,
  `18:00:06 | Player "Bob" is connected (id=${id(2)})`,
  `18:01:00 | [Chat - Global]("Alice"(id=${id(1)})): héllo wörld ✓`,
  "18:02:00 | ##### PlayerList log: 2 players",
  `18:02:00 | Player "Alice" (id=${id(1)} pos=<4500.5, 10200.2, 310.0>)`,
  `18:02:00 | Player "Bob" (id=${id(2)} pos=<4510.0, 10210.0, 311.0>)`,
  "18:02:00 | #####",
  `18:03:00 | Player "Bob" (id=${id(2)} pos=<4510.0, 10210.0, 311.0>)[HP: 0] hit by Player "Alice" (id=${id(1)} pos=<4500.5, 10200.2, 310.0>) into Head(0) for 80 damage (Bullet_556x45) with M4-A1 from 14.2 meters`,
  `18:03:00 | Player "Bob" (DEAD) (id=${id(2)} pos=<4510.0, 10210.0, 311.0>) killed by Player "Alice" (id=${id(1)} pos=<4500.5, 10200.2, 310.0>) with M4-A1 from 14.2 meters`,
  "this line is not an admin log line",
  `18:10:00 | Player "Alice" (DEAD) (id=${id(1)} pos=<4600.0, 10300.0, 300.0>) killed by ZmbM_CitizenASkinny_Brown`,
  `18:20:00 | Player "Bob" (id=${id(2)} pos=<4000.0, 9000.0, 200.0>)[HP: 0] hit by Player "Alice" (id=${id(1)} pos=<4100.0, 9100.0, 210.0>) into Torso(12) for 60 damage (Bullet_308Win) with Mosin9130 from 141.42 meters`,
  `18:20:00 | Player "Bob" (DEAD) (id=${id(2)} pos=<4000.0, 9000.0, 200.0>) killed by Player "Alice" (id=${id(1)} pos=<4100.0, 9100.0, 210.0>) with Mosin9130 from 141.42 meters`,
  `19:00:05 | Player "Bob"(id=${id(2)}) has been disconnected`
]

const gamelogController = (fleet: StubFleet) =>
  testController<Ingest>([GameLogPlugin as AnyPlugin, ActionsPlugin as AnyPlugin, PlayersPlugin as AnyPlugin, MapsPlugin as AnyPlugin, fleet.plugin()], { dataPrefix: "garrison-gamelog-" })

const ADMIN = "root:admin"

const pollUntilCaughtUp = (serverId: string, fleet: StubFleet, maxBytes?: number) =>
  Effect.gen(function* () {
    const ingest = yield* Ingest
    const logs = profilesFolder(fleet.server(serverId).entry)
    for (let i = 0; i < 1000; i++) {
      const report = yield* ingest.poll(serverId, logs, maxBytes === undefined ? undefined : { maxBytes })
      if (report.caughtUp) return report
    }
    throw new Error("never caught up")
  })

const run = <A, E>(fleet: StubFleet, body: Effect.Effect<A, E, Ingest | import("@effect/platform/HttpClient").HttpClient>) =>
  Effect.scoped(body.pipe(Effect.provide(gamelogController(fleet))))

const killfeed = (query = "", as = ADMIN) => Effect.map(call("GET", `/api/killfeed${query}`, { as }), (r) => ({ status: r.status, body: r.body as { items: Array<Record<string, unknown>>; nextCursor: string | null } }))
const leaderboard = (query = "") => Effect.map(call("GET", `/api/leaderboard${query}`, { as: ADMIN }), (r) => r.body as { entries: Array<Record<string, unknown>>; season: { number: number } | null })

describe("gamelog ingest", () => {
  it.scoped("turns a fight into kills, stats, sessions and positions; the fatal hit gives the zone and the headshot", () => {
    const fleet = new StubFleet()
    const { profiles } = fleet.add("s1")
    Fs.writeFileSync(NodePath.join(profiles, ADM), fight.join("\r\n") + "\r\n")
    return run(
      fleet,
      Effect.gen(function* () {
        const report = yield* pollUntilCaughtUp("s1", fleet)
        expect(report).toMatchObject({ file: ADM, linesRead: fight.length, linesUnknown: 1, kills: 3, caughtUp: true })

        const feed = (yield* killfeed()).body.items
        expect(feed.map((k) => [k["killerKind"], k["name"], k["victimName"], k["weapon"], k["zone"], k["headshot"]])).toEqual([
          ["player", "Alice", "Bob", "Mosin9130", "Torso", false],
          ["zombie", "ZmbM_CitizenASkinny_Brown", "Alice", null, null, false],
          ["player", "Alice", "Bob", "M4-A1", "Head", true]
        ])
        // A kill's id names its line by byte offset (the chat line before it is not ASCII).
        const text = fight.join("\r\n") + "\r\n"
        const firstKill = text.indexOf(`18:03:00 | Player "Bob" (DEAD)`)
        expect(feed[2]?.["id"]).toBe(`s1:${ADM}:${Buffer.byteLength(text.slice(0, firstKill))}`)
        expect(feed[2]).toMatchObject({ distance: 14.2, playerId: id(1), victimPlayerId: id(2), killerPos: { x: 4500.5, y: 10200.2, z: 310 }, timestamp: new Date(2026, 10, 21, 18, 3, 0).toISOString() })

        const board = yield* leaderboard("?serverId=s1")
        expect(board.season?.number).toBe(1)
        expect(board.entries.map((e) => [e["name"], e["kills"], e["deaths"], e["headshots"], e["kd"], e["headshotPct"]])).toEqual([
          ["Alice", 2, 1, 1, 2, 50],
          ["Bob", 0, 2, 0, 0, 0]
        ])
        expect(board.entries[0]?.["longestKill"]).toMatchObject({ distance: 141.42, weapon: "Mosin9130", victim: "Bob" })

        // Filters: by player in any id form, by kind, by time.
        expect((yield* killfeed(`?player=${steam(2)}`)).body.items).toHaveLength(2)
        expect((yield* killfeed(`?player=${encodeURIComponent(id(1))}&kind=zombie`)).body.items).toHaveLength(1)
        expect((yield* killfeed("?since=2026-11-21T18:15:00&until=2026-11-21T18:30:00")).body.items.length).toBeLessThanOrEqual(1)
        expect((yield* killfeed("?player=somebody")).status).toBe(400)
        // Pages: one kill each, newest first, no kill twice.
        const walked: Array<unknown> = []
        for (let cursor: string | null | undefined; cursor !== null; ) {
          const page = (yield* killfeed(`?limit=1${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)).body
          walked.push(...page.items.map((k) => k["id"]))
          cursor = page.nextCursor
        }
        expect(new Set(walked).size).toBe(3)

        // History: Bob played 18:00:06 to 19:00:05; Alice is still online.
        const bob = (yield* call("GET", `/api/player-history/${steam(2)}`, { as: ADMIN })).body as Record<string, unknown>
        expect(bob).toMatchObject({ playerId: id(2), name: "Bob", kills: 0, deaths: 2, serversPlayed: 1 })
        expect(bob["playtimeHours"]).toBeCloseTo(59.98 / 60, 2)
        const found = (yield* call("GET", "/api/player-history?q=ALI", { as: ADMIN })).body as { items: Array<Record<string, unknown>> }
        expect(found.items.map((p) => p["name"])).toEqual(["Alice"])

        // A second poll reads nothing more and counts nothing twice.
        const again = yield* pollUntilCaughtUp("s1", fleet)
        expect(again.kills).toBe(0)
        expect((yield* killfeed()).body.items).toHaveLength(3)
      })
    )
  })

  it.scoped("reads in small chunks and across a partial last line exactly as in one read; a new log closes open sessions", () => {
    const fleet = new StubFleet()
    const { profiles } = fleet.add("s1")
    const file = NodePath.join(profiles, ADM)
    const text = fight.join("\n") + "\n"
    const cut = text.indexOf("killed by ZmbM") + 5
    Fs.writeFileSync(file, text.slice(0, cut))
    return run(
      fleet,
      Effect.gen(function* () {
        yield* pollUntilCaughtUp("s1", fleet, 97)
        expect((yield* killfeed()).body.items).toHaveLength(1)
        Fs.appendFileSync(file, text.slice(cut))
        yield* pollUntilCaughtUp("s1", fleet, 61)
        const feed = (yield* killfeed()).body.items
        expect(feed.map((k) => [k["victimName"], k["zone"], k["headshot"]])).toEqual([
          ["Bob", "Torso", false],
          ["Alice", null, false],
          ["Bob", "Head", true]
        ])
        expect((yield* leaderboard("?serverId=s1")).entries[0]).toMatchObject({ name: "Alice", kills: 2, deaths: 1, headshots: 1 })

        // The server starts again: a new log. Alice never disconnected: her session ends at her last sighting (18:20:00).
        Fs.writeFileSync(NodePath.join(profiles, NEXT_ADM), ["AdminLog started on 2026-11-22 at 06:00:00", `06:00:10 | Player "Alice" is connected (id=${id(1)})`].join("\n") + "\n")
        const report = yield* pollUntilCaughtUp("s1", fleet)
        expect(report.file).toBe(NEXT_ADM)
        const alice = (yield* call("GET", `/api/player-history/${encodeURIComponent(id(1))}`, { as: ADMIN })).body as { servers: Array<{ sessions: number; online: boolean }> }
        expect(alice.servers[0]).toMatchObject({ sessions: 2, online: true })
      })
    )
  })

  it.scoped("a new season starts empty and the past one stays readable; a caller scoped to another server sees none of it", () => {
    const fleet = new StubFleet()
    fleet.add("s2")
    const { profiles } = fleet.add("s1")
    Fs.writeFileSync(NodePath.join(profiles, ADM), fight.join("\n") + "\n")
    return run(
      fleet,
      Effect.gen(function* () {
        yield* pollUntilCaughtUp("s1", fleet)
        const first = yield* leaderboard("?serverId=s1")
        const reset = yield* call("POST", "/api/servers/s1/leaderboard/seasons", { as: ADMIN, json: { reason: "monthly" } })
        expect(reset.status).toBe(201)
        expect((yield* leaderboard("?serverId=s1")).entries).toEqual([])
        const seasons = (yield* call("GET", "/api/leaderboard/seasons?serverId=s1", { as: ADMIN })).body as { items: Array<{ id: string; number: number; endedAt: string | null }> }
        expect(seasons.items.map((s) => [s.number, s.endedAt === null])).toEqual([
          [2, true],
          [1, false]
        ])
        const past = yield* leaderboard(`?season=${seasons.items[1]!.id}`)
        expect(past.entries).toEqual(first.entries)

        // players.view everywhere, servers seen: s2 only.
        const scoped = "mod:players.view,server.view@s2"
        expect((yield* killfeed("", scoped)).body.items).toEqual([])
        expect((yield* killfeed("?serverId=s1", scoped)).body.items).toEqual([])
        expect((yield* call("GET", `/api/leaderboard?season=${seasons.items[1]!.id}`, { as: scoped })).status).toBe(404)
        expect((yield* call("GET", `/api/player-history/${steam(2)}`, { as: scoped })).status).toBe(404)
        expect((yield* call("GET", "/api/servers/s1/map/players", { as: scoped })).status).toBe(403)
        expect((yield* call("POST", "/api/servers/s1/leaderboard/seasons", { as: "mod:leaderboard.manage@s2", json: {} })).status).toBe(403)
      })
    )
  })
})

describe("gamelog and the trust network", () => {
  it.scoped("a trust lookup's playtime_hours and servers_seen come from the player history", () => {
    const fleet = new StubFleet()
    const { profiles } = fleet.add("s1")
    Fs.writeFileSync(NodePath.join(profiles, ADM), fight.join("\n") + "\n")
    const plugins = [GameLogPlugin, ActionsPlugin, PlayersPlugin, MapsPlugin, TrustPlugin, BansPlugin] as ReadonlyArray<AnyPlugin>
    return Effect.gen(function* () {
      yield* pollUntilCaughtUp("s1", fleet)
      const bob = (yield* call("GET", `/api/v1/trust/${steam(2)}`)).body as { signals: Record<string, unknown> }
      expect(bob.signals["servers_seen"]).toBe(1)
      expect(bob.signals["playtime_hours"]).toBeCloseTo(59.98 / 60, 2)
      const stranger = (yield* call("GET", `/api/v1/trust/${steam(9)}`)).body as { signals: Record<string, unknown> }
      expect([stranger.signals["servers_seen"], stranger.signals["playtime_hours"]]).toEqual([null, null])
    }).pipe(Effect.provide(testController<Ingest>([...plugins, fleet.plugin()], { dataPrefix: "garrison-gamelog-trust-" })))
  })
})
