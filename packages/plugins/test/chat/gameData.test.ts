/**
 * The actions that read the game through the agent's mod (time and weather,
 * the kill feed, the leaderboard, a player's record) and run in-game admin
 * actions through it; the chat feed from the chat lines RCON forwards.
 */
import { describe, expect, it } from "@effect/vitest"
import { ChatMessage, EventBus } from "@garrison/runtime"
import { Effect } from "effect"
import { startFakeAgent } from "../actions/fakeAgent.js"
import { bot, BRAVO, CHAT_USER, chatController, makeRole, mapUser } from "./support.js"

const withAgent = <A, E, R>(body: (agent: Effect.Effect.Success<ReturnType<typeof startFakeAgent>>) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const agent = yield* startFakeAgent()
    const { layer } = chatController({}, agent)
    return yield* Effect.provide(body(agent), layer)
  })

describe("chat-bot actions through the agent", () => {
  it.scopedLive("timeWeather, killfeed (the kills of the world events) and the top-20 leaderboard", () =>
    withAgent((agent) =>
      Effect.gen(function* () {
        expect((yield* makeRole("watcher", ["server.view", "logs.view", "metrics.view"])).status).toBe(201)
        expect((yield* mapUser(CHAT_USER, "watcher")).status).toBe(200)
        agent.data.set("/data/server-info", { time: { hour: 7, minute: 5 }, weather: { overcast: 0.25, rain: 0, fog: 0.1, snow: 0, wind: 0.5 } })
        const weather = yield* bot({ action: "timeWeather", serverId: "s1" })
        expect(weather.status, JSON.stringify(weather.body)).toBe(200)
        expect(weather.body).toMatchObject({ message: "In-game time 07:05; weather: overcast 25%, rain 0%, fog 10%, snow 0%, wind 50%.", time: { hour: 7, minute: 5 } })

        agent.data.set("/world-events", {
          events: [
            { type: "chat", timestamp: Date.parse("2026-11-27T10:00:00Z"), data: { name: "Bravo", text: "hi" } },
            { type: "player.killed", timestamp: Date.parse("2026-11-27T10:01:00Z"), data: { platformId: BRAVO, name: "Bravo", killer: "Charlie", weapon: "M4A1", distance: 87 } }
          ]
        })
        const kills = yield* bot({ action: "killfeed", serverId: "s1" })
        expect(kills.body).toMatchObject({
          message: "Charlie killed Bravo with M4A1 (87 m)",
          kills: [{ at: "2026-11-27T10:01:00.000Z", victim: "Bravo", victimId: BRAVO, killer: "Charlie", weapon: "M4A1", distance: 87 }]
        })

        agent.data.set("/leaderboard", {
          entries: Array.from({ length: 25 }, (_, i) => ({ name: `P${i}`, kills: 50 - i, deaths: i, platformId: "x", kd: 1 }))
        })
        const board = yield* bot({ action: "leaderboard", serverId: "s1" })
        const entries = (board.body as { entries: Array<unknown> }).entries
        expect(entries).toHaveLength(20)
        expect(entries[0]).toEqual({ name: "P0", kills: 50, deaths: 0 })
        expect(agent.calls.find((c) => c.path === "/leaderboard")?.body).toEqual({ limit: "20" })
      })
    )
  )

  it.scopedLive("playerInfo from the agent's record; actionHeal, actionTeleport and actionFreeze through the agent with the chat user as actor", () =>
    withAgent((agent) =>
      Effect.gen(function* () {
        expect((yield* mapUser(CHAT_USER, "moderator")).status).toBe(200)
        agent.data.set("/player/details", { name: "Bravo", online: true, playtimeSeconds: 7200, kills: 3, deaths: 1 })
        const info = yield* bot({ action: "playerInfo", serverId: "s1", params: { platformId: BRAVO } })
        expect(info.body).toMatchObject({ message: "Bravo: online, 2 h played, 3 kills, 1 deaths" })
        const heal = yield* bot({ action: "actionHeal", serverId: "s1", params: { platformId: BRAVO } })
        expect(heal.status, JSON.stringify(heal.body)).toBe(200)
        expect(heal.body).toMatchObject({ provider: "agent", message: `${BRAVO}: healed.` })
        const teleport = yield* bot({ action: "actionTeleport", serverId: "s1", params: { platformId: BRAVO, x: 4500, y: 300, z: 10200 } })
        expect(teleport.status).toBe(200)
        const freeze = yield* bot({ action: "actionFreeze", serverId: "s1", params: { platformId: BRAVO, frozen: false } })
        expect(freeze.body).toMatchObject({ message: `${BRAVO}: unfrozen.` })
        expect(agent.calls.filter((c) => c.path.startsWith("/player/") && c.path !== "/player/details")).toEqual([
          { method: "POST", path: "/player/heal", body: { platformId: BRAVO } },
          { method: "POST", path: "/player/teleport", body: { platformId: BRAVO, x: 4500, y: 300, z: 10200 } },
          { method: "POST", path: "/player/freeze", body: { platformId: BRAVO, frozen: 0 } }
        ])
      })
    )
  )

  it.scopedLive("chatFeed answers the last lines RCON forwarded, oldest first; a role without logs.view is refused", () =>
    withAgent(() =>
      Effect.gen(function* () {
        expect((yield* makeRole("reader", ["logs.view"])).status).toBe(201)
        expect((yield* mapUser(CHAT_USER, "reader")).status).toBe(200)
        const bus = yield* EventBus
        for (const [i, text] of ["one", "two", "three"].entries()) {
          yield* bus.publish(new ChatMessage({ serverId: "s1", name: "Chernarus", channel: i === 0 ? "Side" : "Global", playerName: "Bravo", text }))
        }
        const feed = yield* bot({ action: "chatFeed", serverId: "s1", params: { limit: 2 } })
        expect(feed.status, JSON.stringify(feed.body)).toBe(200)
        expect(feed.body).toMatchObject({ message: "[Global] Bravo: two\n[Global] Bravo: three", chat: [{ text: "two" }, { text: "three" }] })
        const tooMany = yield* bot({ action: "chatFeed", serverId: "s1", chatUserId: "777", params: { limit: 51 } })
        expect(tooMany.status).toBe(403)
      })
    )
  )
})
