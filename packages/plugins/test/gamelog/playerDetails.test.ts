/**
 * The agent's `player.details` answer carries the game log's history of
 * the player beside the mod's own fields: names, servers, sessions,
 * playtime, kills and deaths, as the caller may see them; null for a player
 * the logs never named.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { initialState, makeServerEntry, PlayerIds, profilesFolder, type ServerActor } from "@garrison/runtime"
import { auditRecorder, call, fakeActor, stubServersPlugin, tempDir, testController } from "@garrison/testkit"
import { ActionsPlugin } from "../../src/actions/index.js"
import { GameLogPlugin, Ingest } from "../../src/gamelog/index.js"
import { MapsPlugin } from "../../src/maps/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { startFakeAgent } from "../actions/fakeAgent.js"

const BRAVO = "76561198012345678"
const STRANGER = "76561198000000077"
const dayz = (steam64: string) => PlayerIds.toDayzId(steam64 as PlayerIds.Steam64)

describe("player.details and the game log", () => {
  it.scopedLive("the mod's answer keeps its fields and gains the player's history; a player never seen gets null", () =>
    Effect.gen(function* () {
      const agent = yield* startFakeAgent()
      agent.data.set("/player/details", { platformId: BRAVO, online: true, health: 100 })
      const installDir = tempDir("garrison-details-")
      Fs.mkdirSync(NodePath.join(installDir, "profiles"))
      Fs.writeFileSync(
        NodePath.join(installDir, "profiles", "DayZServer_x64_2026-11-21_18-00-00.ADM"),
        [
          "AdminLog started on 2026-11-21 at 18:00:00",
          `18:00:00 | Player "Bravo" is connected (id=${dayz(BRAVO)})`,
          `19:30:00 | Player "Bravo"(id=${dayz(BRAVO)}) has been disconnected`
        ].join("\n") + "\n"
      )
      const entry = makeServerEntry({ id: "s1", name: "Chernarus", installDir, agent: { url: agent.url, apiKey: agent.key } })
      const actor: ServerActor.ServerActor = fakeActor("s1", { entry: Effect.succeed(entry), state: Effect.succeed({ ...initialState("s1"), status: "running" }) })
      const layer = testController<Ingest>(
        [auditRecorder().plugin, stubServersPlugin(new Map([["s1", actor]])), ActionsPlugin, PlayersPlugin, MapsPlugin, GameLogPlugin],
        { dataPrefix: "garrison-details-data-" }
      )
      return yield* Effect.gen(function* () {
        yield* (yield* Ingest).poll("s1", profilesFolder(entry))
        const details = yield* call("GET", `/api/servers/s1/actions/player/${BRAVO}`, { as: "viewer:players.view" })
        expect(details.status, JSON.stringify(details.body)).toBe(200)
        const data = (details.body as { data: Record<string, unknown> }).data
        expect(data).toMatchObject({ platformId: BRAVO, online: true, health: 100 })
        expect(data["history"]).toMatchObject({ playerId: dayz(BRAVO), name: "Bravo", playtimeHours: 1.5, servers: [{ serverId: "s1", sessions: 1, online: false }] })

        agent.data.set("/player/details", { platformId: STRANGER, online: false })
        const stranger = yield* call("GET", `/api/servers/s1/actions/player/${STRANGER}`, { as: "viewer:players.view" })
        expect((stranger.body as { data: Record<string, unknown> }).data).toEqual({ platformId: STRANGER, online: false, history: null })
      }).pipe(Effect.provide(layer))
    })
  )
})
