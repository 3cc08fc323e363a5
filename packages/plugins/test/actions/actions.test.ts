/**
 * The Provider System over a stand-in agent on loopback and a fake RCON:
 * actions go through the agent when the entry names one and it answers;
 * bad bodies are 400 and never reach it; a mod that does not answer is 504
 * naming the server and the action; an agent that refuses the key is 503
 * saying to fix the key; a health answer that says no never refuses on its
 * own (the agent is called, its answer decides); without the agent,
 * `message` falls back to RCON (`say <slot>`) and everything else is 503
 * `provider-unavailable`; every action is audited and
 * published; the capabilities say who would serve what and why not.
 */
import { describe, expect, it } from "@effect/vitest"
import { type AnyEvent, initialState, makeServerEntry, on, PlayerIds, type ServerActor, ServerEntry } from "@garrison/runtime"
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { Effect, Option, TestClock } from "effect"
import { ActionsPlugin, AdminAction, AgentLinks } from "../../src/actions/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { type FakeAgent, startFakeAgent } from "./fakeAgent.js"
import { auditRecorder, call, fakeActor, identifiedPlayers, jsonBody, playersReply, request, stubServersPlugin, testController } from "@garrison/testkit"

const BRAVO = "76561198012345678"
const BRAVO_GUID = "2d3fe9abaa51e04aa876a7bcfe84e0d6"
const ECHO = "76561198000000009" as PlayerIds.Steam64
const MOD = "mod:server.rcon,players.view,server.view,players.kick"
const ROSTER = playersReply([
  [4, BRAVO_GUID, "Bravo"],
  [5, "0123456789abcdef0123456789abcdef", "Charlie"]
])

/** The log line that proves a player's Steam64. */
const connected = (name: string, steam64: string) => `Player "${name}"(steamID=${steam64}) is connected`

const setUp = (
  agent: { readonly url: string; readonly key: string } | undefined,
  roster: string = ROSTER,
  // Bravo's Steam64 is proven by the logs; Charlie's is not.
  logLines: ReadonlyArray<string> = [connected("Bravo", BRAVO)]
) =>
  Effect.sync(() => {
    const said: Array<string> = []
    const events: Array<AnyEvent> = []
    const audit = auditRecorder()
    const entry = makeServerEntry({
      id: "s1",
      name: "Chernarus",
      installDir: "/srv/s1",
      rcon: { protocol: "battleye", host: "127.0.0.1", port: 2306, password: "pw" },
      ...(agent === undefined ? {} : { agent: { url: agent.url, apiKey: agent.key } })
    })
    const actor: ServerActor.ServerActor = fakeActor("s1", {
      entry: Effect.succeed(entry),
      state: Effect.succeed({ ...initialState("s1"), status: "running" }),
      rcon: (command) =>
        Effect.sync(() => {
          if (command === "players") return roster
          said.push(command)
          return ""
        }),
      players: Effect.sync(() => identifiedPlayers(roster, logLines))
    })
    const recorder = on(AdminAction, (event) => Effect.sync(() => void events.push(event)), "record")
    const layer = testController([audit.plugin, stubServersPlugin(new Map([["s1", actor]]), { events: [recorder] }), ActionsPlugin, PlayersPlugin], {
      dataPrefix: "garrison-actions-"
    })
    return { said, events, audit, layer }
  })

type Env = Effect.Effect.Success<ReturnType<typeof setUp>>

const withAgent = <A, E>(use: (agent: FakeAgent, env: Env) => Effect.Effect<A, E, HttpClient.HttpClient>, key?: string) =>
  Effect.gen(function* () {
    const agent = yield* startFakeAgent()
    const env = yield* setUp(key === undefined ? agent : { url: agent.url, key })
    return yield* Effect.provide(use(agent, env), env.layer)
  })

describe("admin actions through the agent", () => {
  it.scopedLive("heal runs through the agent, is audited and published; a bad body is 400 and never reaches it", () =>
    withAgent((agent, env) =>
      Effect.gen(function* () {
        agent.data.set("/player/heal", { health: 100 })
        const healed = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: BRAVO } })
        expect(healed.status).toBe(200)
        expect(healed.body).toEqual({ action: "player.heal", provider: "agent", data: { health: 100 } })
        expect(agent.calls).toEqual([{ method: "POST", path: "/player/heal", body: { platformId: BRAVO } }])
        expect(env.audit.rows.find((row) => row.action === "action.player.heal")).toMatchObject({
          actor: "mod",
          target: "s1",
          result: "success",
          details: { provider: "agent", target: BRAVO, params: { platformId: BRAVO } }
        })
        expect(env.events).toEqual([expect.objectContaining({ _tag: "AdminAction", serverId: "s1", action: "player.heal", actor: "mod", ok: true })])

        const before = agent.calls.length
        for (const [path, json, field] of [
          ["/api/servers/s1/actions/world/weather", { overcast: 0.5, rain: 1.5, fog: 0, snow: 0, wind: 0 }, "rain"],
          ["/api/servers/s1/actions/teleport", { platformId: BRAVO, x: 1, y: 2 }, "z"],
          ["/api/servers/s1/actions/spawn-item", { platformId: BRAVO, itemClass: "M4A1", quantity: 0 }, "quantity"],
          ["/api/servers/s1/actions/heal", { platformId: "" }, "platformId"],
          ["/api/servers/s1/actions/heal", { platformId: "two\nlines" }, "platformId"]
        ] as const) {
          const refused = yield* call("POST", path, { as: MOD, json })
          expect(refused.status, path).toBe(400)
          expect(JSON.stringify(refused.body), path).toContain(field)
        }
        expect(agent.calls.length).toBe(before)
        // Not an id: a name, looked up among the players online (as a kick does); no one by that name is 404.
        const nobody = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: "not-an-id" } })
        expect(nobody.status).toBe(404)
        expect(nobody.body).toEqual({ error: "not-found", message: 'no player "not-an-id" is online on this server' })
        expect(agent.calls.length).toBe(before)
        // Permissions: actions need server.rcon; player details players.view.
        expect((yield* call("POST", "/api/servers/s1/actions/heal", { as: "viewer:players.view", json: { platformId: BRAVO } })).status).toBe(403)
        const details = yield* call("GET", `/api/servers/s1/actions/player/${BRAVO}`, { as: "viewer:players.view" })
        expect(details.status).toBe(200)
        expect(agent.calls.at(-1)).toEqual({ method: "GET", path: "/player/details", body: { platformId: BRAVO } })
      })
    )
  )

  it.scopedLive("the game refusing is 409, the mod not answering 504 naming server and action", () =>
    withAgent((agent) =>
      Effect.gen(function* () {
        agent.mode = "refuse"
        const refused = yield* call("POST", "/api/servers/s1/actions/kill", { as: MOD, json: { platformId: BRAVO } })
        expect(refused.status).toBe(409)
        expect(refused.body).toMatchObject({ error: "conflict", message: "Chernarus: the game refused player.kill: player not online" })
        agent.mode = "timeout"
        const late = yield* call("POST", "/api/servers/s1/actions/world/sunny", { as: MOD })
        expect(late.status).toBe(504)
        expect(late.body).toMatchObject({ error: "gateway-timeout" })
        expect(String((late.body as { message: string }).message)).toContain("Chernarus: the game did not answer world.sunny in time")
      })
    )
  )

  it.scopedLive("an agent that refuses Garrison's key is not used; the answer says to fix agent.apiKey", () =>
    withAgent(
      (agent) =>
        Effect.gen(function* () {
          // An admin is told why; anyone else that it is unreachable (an open port refusing the key and a closed one look alike).
          const heal = yield* call("POST", "/api/servers/s1/actions/heal", { as: "root:admin", json: { platformId: BRAVO } })
          expect(heal.status).toBe(503)
          expect(String((heal.body as { message: string }).message)).toContain("refused Garrison's key: set the entry's agent.apiKey")
          const moderator = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: BRAVO } })
          expect(moderator.status).toBe(503)
          expect(String((moderator.body as { message: string }).message)).toContain(`the agent at ${agent.url} is unreachable`)
          expect(String((moderator.body as { message: string }).message)).not.toContain("key")
          expect(agent.calls).toEqual([])
        }),
      "the-wrong-key"
    )
  )

  it.scopedLive("every other catalogue action is reachable under /agent/, queries with players.view", () =>
    withAgent((agent) =>
      Effect.gen(function* () {
        const fog = yield* call("POST", "/api/servers/s1/agent/world/set-fog", { as: MOD, json: { density: 0.4 } })
        expect(fog.status, JSON.stringify(fog.body)).toBe(200)
        expect(agent.calls.at(-1)).toEqual({ method: "POST", path: "/world/set-fog", body: { density: 0.4 } })
        const position = yield* call("GET", `/api/servers/s1/agent/player/position?platformId=${BRAVO}`, { as: "viewer:players.view" })
        expect(position.status).toBe(200)
        const unban = yield* call("DELETE", "/api/servers/s1/agent/bans/ban-7", { as: MOD })
        expect(unban.status, JSON.stringify(unban.body)).toBe(200)
        expect(agent.calls.at(-1)).toMatchObject({ method: "DELETE", path: "/bans/ban-7" })
        expect((yield* call("POST", "/api/servers/s1/agent/world/set-fog", { as: "viewer:players.view", json: { density: 0.4 } })).status).toBe(403)
      })
    )
  )
})

describe("freeze", () => {
  it.scopedLive("without frozen toggles what the game says now; with it, sets it", () =>
    withAgent((agent) =>
      Effect.gen(function* () {
        agent.data.set("/player/info", { platformId: BRAVO, frozen: true })
        expect((yield* call("POST", "/api/servers/s1/actions/freeze", { as: MOD, json: { platformId: BRAVO } })).status).toBe(200)
        expect(agent.calls.at(-1)).toEqual({ method: "POST", path: "/player/freeze", body: { platformId: BRAVO, frozen: 0 } })
        agent.data.set("/player/info", { platformId: BRAVO, frozen: 0 })
        yield* call("POST", "/api/servers/s1/actions/freeze", { as: MOD, json: { platformId: BRAVO } })
        expect(agent.calls.at(-1)?.body).toEqual({ platformId: BRAVO, frozen: 1 })
        yield* call("POST", "/api/servers/s1/actions/freeze", { as: MOD, json: { platformId: BRAVO, frozen: false } })
        expect(agent.calls.at(-1)?.body).toEqual({ platformId: BRAVO, frozen: 0 })
        expect((yield* call("POST", "/api/servers/s1/actions/freeze", { as: MOD, json: { platformId: BRAVO, frozen: 2 } })).status).toBe(400)
      })
    )
  )
})

describe("the agent's health", () => {
  it.scoped("is asked at most once per HEALTH_TTL: a mod that starts answering is used once the cached answer is old", () =>
    Effect.gen(function* () {
      const agent = yield* startFakeAgent()
      agent.modAnswering = false
      const links = yield* AgentLinks.make.pipe(Effect.provide(FetchHttpClient.layer))
      const entry = makeServerEntry({ id: "s1", name: "One", installDir: "/srv/one", agent: { url: agent.url, apiKey: agent.key } })
      const link = Option.getOrThrow(links.forEntry(entry))
      expect(yield* link.availability).toEqual({ available: false, reason: "the agent is up but its mod is not answering" })
      agent.modAnswering = true
      expect((yield* link.availability).available).toBe(false)
      yield* TestClock.adjust("3 seconds")
      expect(yield* link.availability).toEqual({ available: true })
      // A changed key makes a new link; an entry without an agent has none.
      expect(Option.getOrThrow(links.forEntry(new ServerEntry({ ...entry, agent: { url: agent.url, apiKey: "other" } })))).not.toBe(link)
      expect(Option.isNone(links.forEntry(new ServerEntry({ ...entry, agent: undefined })))).toBe(true)
    })
  )
})

describe("a health answer that says no", () => {
  it.scopedLive("never refuses on its own: the agent is called, its answer decides, and the kept answer is asked again", () =>
    withAgent((agent) =>
      Effect.gen(function* () {
        agent.modAnswering = false
        const before = (yield* call("GET", "/api/servers/s1/actions/capabilities", { as: "v:server.view" })).body as {
          agent: { available: boolean; reason: string }
          actions: Array<{ action: string; provider: string | null }>
        }
        expect(before.agent).toMatchObject({ available: false, reason: "the agent is up but its mod is not answering" })
        expect(before.actions.find((a) => a.action === "player.heal")?.provider).toBe("agent")
        // The mod answers after all (it was between polls): the heal goes through the agent.
        agent.modAnswering = true
        const heal = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: BRAVO } })
        expect(heal.status, JSON.stringify(heal.body)).toBe(200)
        expect(heal.body).toMatchObject({ provider: "agent" })
        expect(agent.calls).toEqual([{ method: "POST", path: "/player/heal", body: { platformId: BRAVO } }])
        // The call proved the kept answer wrong: the next look asks /health again, within the TTL.
        const after = (yield* call("GET", "/api/servers/s1/actions/capabilities", { as: "v:server.view" })).body as { agent: { available: boolean } }
        expect(after.agent.available).toBe(true)
        // A mod that really is silent: the agent's own wait decides (504), not the health answer (503).
        agent.modAnswering = false
        agent.mode = "timeout"
        const late = yield* call("POST", "/api/servers/s1/actions/teleport", { as: MOD, json: { platformId: BRAVO, x: 1, y: 2, z: 3 } })
        expect(late.status, JSON.stringify(late.body)).toBe(504)
        expect(agent.calls.at(-1)?.path).toBe("/player/teleport")
      })
    )
  )
})

describe("without the agent", () => {
  it.scopedLive("message falls back to RCON (say <slot>); teleport is 503 provider-unavailable naming why", () =>
    Effect.gen(function* () {
      // An agent that went away: its port is closed.
      const gone = yield* Effect.scoped(startFakeAgent())
      const env = yield* setUp(gone)
      yield* Effect.gen(function* () {
        const message = yield* call("POST", "/api/servers/s1/actions/message", { as: MOD, json: { platformId: BRAVO, message: "hello" } })
        expect(message.status, JSON.stringify(message.body)).toBe(200)
        expect(message.body).toMatchObject({ action: "player.message", provider: "rcon" })
        expect(env.said).toEqual(["say 4 hello"])
        const teleport = yield* call("POST", "/api/servers/s1/actions/teleport", { as: MOD, json: { platformId: BRAVO, x: 1, y: 2, z: 3 } })
        expect(teleport.status).toBe(503)
        expect(teleport.body).toMatchObject({ error: "provider-unavailable", details: { serverId: "s1", action: "player.teleport" } })
        expect(String((teleport.body as { message: string }).message)).toContain("is unreachable")

        const capabilities = (yield* call("GET", "/api/servers/s1/actions/capabilities", { as: "v:server.view" })).body as {
          agent: { configured: boolean; available: boolean; reason: string }
          actions: Array<{ action: string; available: boolean; provider: string | null; reason: string | null; route: string }>
          control: Array<{ capability: string; provider: string | null }>
        }
        expect(capabilities.agent).toMatchObject({ configured: true, available: false })
        expect(capabilities.actions.find((a) => a.action === "player.message")).toMatchObject({ available: true, provider: "rcon" })
        // Still sent to the agent (its health is a few seconds old), and the listing says it looked down.
        const heal = capabilities.actions.find((a) => a.action === "player.heal")
        expect(heal).toMatchObject({ available: false, provider: "agent", route: "/api/servers/:id/actions/heal" })
        expect(heal?.reason).toContain("is unreachable; a call is still sent to the agent")
        expect(capabilities.control.find((c) => c.capability === "kick")?.provider).toBe("rcon")
      }).pipe(Effect.provide(env.layer))
    })
  )

  it.scopedLive("with the agent up, the game control kicks through it by Steam64, and through RCON who it cannot name", () =>
    withAgent((agent, env) =>
      Effect.gen(function* () {
        const bravo = yield* call("POST", "/api/servers/s1/players/Bravo/kick", { as: MOD, json: { reason: "AFK" } })
        expect(bravo.status, JSON.stringify(bravo.body)).toBe(200)
        expect(agent.calls).toEqual([{ method: "POST", path: "/player/kick", body: { platformId: BRAVO, reason: "AFK" } }])
        const charlie = yield* call("POST", "/api/servers/s1/players/Charlie/kick", { as: MOD, json: { reason: "AFK" } })
        expect(charlie.status).toBe(200)
        expect(env.said).toEqual(["kick 5 AFK"])
        const capabilities = (yield* call("GET", "/api/servers/s1/actions/capabilities", { as: "v:server.view" })).body as {
          control: Array<{ capability: string; provider: string | null }>
          actions: Array<{ action: string; provider: string | null }>
        }
        expect(capabilities.control.find((c) => c.capability === "kick")?.provider).toBe("agent")
        expect(capabilities.control.find((c) => c.capability === "lock")?.provider).toBe("rcon")
        expect(capabilities.actions.every((a) => a.provider === "agent")).toBe(true)
      })
    )
  )
})

describe("the player argument of an admin action", () => {
  it.scopedLive("is named as a kick names a player: exact name, any case, player number, GUID; sent as the Steam64 the logs prove", () =>
    withAgent((agent) =>
      Effect.gen(function* () {
        for (const named of ["Bravo", "bravo", " BRAVO ", "4", BRAVO_GUID, BRAVO_GUID.toUpperCase()]) {
          const healed = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: named } })
          expect([named, healed.status], JSON.stringify(healed.body)).toEqual([named, 200])
          expect(agent.calls.at(-1), named).toEqual({ method: "POST", path: "/player/heal", body: { platformId: BRAVO } })
        }
        // Every body with a player takes it; freeze (which asks the game first) and player details too.
        expect((yield* call("POST", "/api/servers/s1/actions/teleport", { as: MOD, json: { platformId: "Bravo", x: 1, y: 2, z: 3 } })).status).toBe(200)
        expect(agent.calls.at(-1)).toEqual({ method: "POST", path: "/player/teleport", body: { platformId: BRAVO, x: 1, y: 2, z: 3 } })
        expect((yield* call("POST", "/api/servers/s1/actions/freeze", { as: MOD, json: { platformId: "bravo", frozen: true } })).status).toBe(200)
        expect(agent.calls.at(-1)).toEqual({ method: "POST", path: "/player/freeze", body: { platformId: BRAVO, frozen: 1 } })
        const details = yield* call("GET", "/api/servers/s1/actions/player/Bravo", { as: "viewer:players.view" })
        expect(details.status, JSON.stringify(details.body)).toBe(200)
        expect(agent.calls.at(-1)).toEqual({ method: "GET", path: "/player/details", body: { platformId: BRAVO } })
        // A Steam64 need not be online: sent as is, RCON not asked.
        const offline = "76561198000000042"
        expect((yield* call("POST", "/api/servers/s1/actions/kill", { as: MOD, json: { platformId: offline } })).status).toBe(200)
        expect(agent.calls.at(-1)).toEqual({ method: "POST", path: "/player/kill", body: { platformId: offline } })

        // Charlie is online, but no log names his Steam64: the agent could not find him; 409 says so.
        const before = agent.calls.length
        const charlie = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: "Charlie" } })
        expect(charlie.status).toBe(409)
        expect(charlie.body).toMatchObject({ error: "conflict", details: { serverId: "s1", slot: 5 } })
        expect(String((charlie.body as { message: string }).message)).toContain("Chernarus: Charlie (player number 5) is online, but the server's logs do not name their Steam64 yet")
        expect(agent.calls.length).toBe(before)
      })
    )
  )

  it.scopedLive("answers what a kick answers for a name no one online has, or several share", () =>
    Effect.gen(function* () {
      const agent = yield* startFakeAgent()
      const roster = playersReply([
        [4, BRAVO_GUID, "Bravo"],
        [6, "11111111111111111111111111111111", "Delta"],
        [7, "22222222222222222222222222222222", "Delta"],
        [8, "33333333333333333333333333333333", "echo"],
        [9, PlayerIds.toBattlEyeGuid(ECHO), "Echo"]
      ])
      const env = yield* setUp(agent, roster, [connected("Bravo", BRAVO), connected("Echo", ECHO)])
      yield* Effect.gen(function* () {
        for (const named of ["Nobody", "Delta", "ECHO", "12"]) {
          const kick = yield* call("POST", `/api/servers/s1/players/${named}/kick`, { as: MOD, json: { reason: "AFK" } })
          const heal = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: named } })
          expect([named, heal.status, heal.body]).toEqual([named, kick.status, kick.body])
          expect(heal.status, named).toBe(named === "Nobody" || named === "12" ? 404 : 409)
        }
        const delta = yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: "Delta" } })
        expect(delta.body).toEqual({
          error: "conflict",
          message: '2 players named "Delta" are online on this server (player numbers 6, 7): name one by its player number, GUID or Steam64',
          details: { playerId: "Delta", players: [{ slot: 6, name: "Delta" }, { slot: 7, name: "Delta" }] }
        })
        // The exact spelling picks one of two names that differ only in case.
        expect((yield* call("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: "Echo" } })).status).toBe(200)
        expect(agent.calls).toEqual([{ method: "POST", path: "/player/heal", body: { platformId: ECHO } }])
        expect(env.said).toEqual([])
      }).pipe(Effect.provide(env.layer))
    })
  )
})

describe("a server with no agent", () => {
  it.scopedLive("answers 409 agent-not-configured naming the field to set, without Retry-After; message still goes over RCON", () =>
    Effect.gen(function* () {
      const env = yield* setUp(undefined)
      yield* Effect.gen(function* () {
        const heal = yield* request("POST", "/api/servers/s1/actions/heal", { as: MOD, json: { platformId: BRAVO } })
        expect(heal.status, heal.text).toBe(409)
        expect(heal.headers["retry-after"]).toBeUndefined()
        expect(jsonBody(heal.text, undefined)).toEqual({
          error: "agent-not-configured",
          message:
            'server "Chernarus" has no agent, so nothing can run player.heal: set its agent\'s URL and key ' +
            '(PATCH /api/servers/s1 with {"agent": {"url": ..., "apiKey": ...}})',
          details: { serverId: "s1", action: "player.heal" }
        })
        // A role scoped to s1 gets the same answer there (naming s1 alone); on another server, 403 before anything is read.
        const scoped = "mia:server.rcon@s1,players.view@s1,server.view@s1"
        expect((yield* call("POST", "/api/servers/s1/actions/heal", { as: scoped, json: { platformId: BRAVO } })).body).toMatchObject({
          error: "agent-not-configured",
          details: { serverId: "s1" }
        })
        const elsewhere = yield* call("POST", "/api/servers/s2/actions/heal", { as: scoped, json: { platformId: BRAVO } })
        expect(elsewhere.status).toBe(403)
        expect(JSON.stringify(elsewhere.body)).not.toMatch(/agent|Chernarus/)
        // By name as well: the player is found, then the same answer.
        expect((yield* call("POST", "/api/servers/s1/actions/teleport", { as: MOD, json: { platformId: "Bravo", x: 1, y: 2, z: 3 } })).body).toMatchObject({
          error: "agent-not-configured"
        })
        expect((yield* call("POST", "/api/servers/s1/agent/world/set-fog", { as: MOD, json: { density: 0.4 } })).status).toBe(409)
        const message = yield* call("POST", "/api/servers/s1/actions/message", { as: MOD, json: { platformId: "Bravo", message: "hello" } })
        expect(message.status, JSON.stringify(message.body)).toBe(200)
        expect(message.body).toMatchObject({ provider: "rcon" })
        expect(env.said).toEqual(["say 4 hello"])
        // The refusal is audited and published like any action.
        expect(env.audit.rows.find((row) => row.action === "action.player.heal")).toMatchObject({ result: "failure" })
        expect(env.events).toContainEqual(expect.objectContaining({ action: "player.heal", ok: false }))
      }).pipe(Effect.provide(env.layer))
    })
  )
})
