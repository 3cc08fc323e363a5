/**
 * `POST /api/chat/action` end to end: the bot key, every mutation of the
 * signed call, the replay check, unsigned calls tagged in the audit (and
 * refused when signatures are required), unknown actions, role resolution
 * with `chat.denied`, scoped grants, cooldowns on the TestClock, and what
 * the actions do to the servers.
 */
import { describe, expect, it } from "@effect/vitest"
import type { HttpClient } from "@effect/platform"
import { Effect, TestClock } from "effect"
import { bot, BOT_KEY, BRAVO, CHAT_USER, chatController, makeRole, mapUser, START_MS } from "./support.js"

const atStart = TestClock.setTime(START_MS)

const run = <A, E>(body: (fleet: ReturnType<typeof chatController>["fleet"]) => Effect.Effect<A, E, HttpClient.HttpClient>, config?: Record<string, string>) =>
  Effect.gen(function* () {
    yield* atStart
    const { fleet, layer } = chatController(config)
    return yield* Effect.provide(body(fleet), layer)
  })

const rowsOf = (fleet: ReturnType<typeof chatController>["fleet"], action: string) => fleet.audit.rows.filter((row) => row.action === action)

describe("chat-bot calls: the key and the signature", () => {
  it.scoped("a signed call by an unmapped user runs with the chat-bot role; the audit row says verified", () =>
    run((fleet) =>
      Effect.gen(function* () {
        const reply = yield* bot({ action: "status", serverId: "s1" })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        expect(reply.body).toMatchObject({
          ok: true,
          action: "status",
          serverId: "s1",
          verified: true,
          message: "Chernarus: running, 2 players on chernarusplus",
          server: { id: "s1", name: "Chernarus", status: "running", playerCount: 2, map: "chernarusplus", locked: false }
        })
        expect(rowsOf(fleet, "chat.action")).toEqual([
          expect.objectContaining({
            actor: `chat:${CHAT_USER}`,
            actorName: "survivor#0001",
            target: "s1",
            result: "success",
            details: expect.objectContaining({ action: "status", role: "chat-bot", signature: "verified" })
          })
        ])
      })
    )
  )

  it.scoped("every mutation is 403 with its reason and a chat.sig-rejected row; a wrong key has no row", () =>
    run((fleet) =>
      Effect.gen(function* () {
        const refused = [
          yield* bot({ action: "status", serverId: "s1", skew: 301 }),
          yield* bot({ action: "status", serverId: "s1", skew: -301 }),
          yield* bot({ action: "status", serverId: "s1", sent: { action: "players" } }),
          yield* bot({ action: "status", serverId: "s1", sent: { chatUserId: "222222222222222222" } }),
          yield* bot({ action: "status", serverId: "s1", signature: "A".repeat(64) }),
          yield* bot({ action: "status", serverId: "s1", headers: { "x-chat-ts": "soon" } }),
          yield* bot({ action: "status", serverId: "s1", headers: { "x-chat-sig": "" } })
        ]
        for (const reply of refused) expect(reply.status, JSON.stringify(reply.body)).toBe(403)
        const messages = refused.map((reply) => String((reply.body as { message: string }).message))
        expect(messages[0]).toContain("more than 300 seconds")
        expect(messages[1]).toContain("more than 300 seconds")
        expect(messages[2]).toContain("does not match")
        expect(messages[3]).toContain("does not match")
        expect(messages[4]).toContain("lower-case hex")
        expect(rowsOf(fleet, "chat.sig-rejected")).toHaveLength(refused.length)
        // The same bytes as the right signature, in upper case: a second spelling, refused.
        const upper = yield* bot({ action: "status", serverId: "s1", signature: "0".repeat(64).toUpperCase() })
        expect(upper.status).toBe(403)

        const before = fleet.audit.rows.length
        yield* TestClock.adjust("1 second")
        const wrongKey = yield* bot({ action: "status", serverId: "s1", key: `${BOT_KEY}x` })
        expect(wrongKey.status).toBe(403)
        expect(wrongKey.body).toMatchObject({ error: "forbidden" })
        const noKey = yield* bot({ action: "status", serverId: "s1", headers: { authorization: "" } })
        expect(noKey.status).toBe(403)
        // The host's own row of every refused request, and nothing of the chat plugin's.
        expect(fleet.audit.rows.slice(before).map((row) => row.action)).toEqual(["http.POST /api/chat/action", "http.POST /api/chat/action"])
        expect(rowsOf(fleet, "chat.action")).toHaveLength(0)
      })
    )
  )

  it.scoped("a signature is accepted once inside the window: the replay is refused, even after the cooldown", () =>
    run((fleet) =>
      Effect.gen(function* () {
        const first = yield* bot({ action: "status", serverId: "s1", skew: 0 })
        expect(first.status).toBe(200)
        // The bot signs again at the same second: the same signature.
        yield* TestClock.adjust("10 seconds")
        const replay = yield* bot({ action: "status", serverId: "s1", skew: -10 })
        expect(replay.status).toBe(403)
        expect(replay.body).toMatchObject({ message: expect.stringContaining("already used") })
        expect(rowsOf(fleet, "chat.sig-rejected").at(-1)).toMatchObject({ details: expect.objectContaining({ reason: expect.stringContaining("replayed") }) })
        // A new signature (a new second) is a new call.
        const fresh = yield* bot({ action: "status", serverId: "s1" })
        expect(fresh.status).toBe(200)
      })
    )
  )

  it.scoped("no signature headers: the call runs, tagged unverified in its answer and audit row", () =>
    run((fleet) =>
      Effect.gen(function* () {
        const reply = yield* bot({ action: "status", serverId: "s1", signature: false })
        expect(reply.status).toBe(200)
        expect(reply.body).toMatchObject({ verified: false })
        expect(rowsOf(fleet, "chat.action")[0]).toMatchObject({ details: expect.objectContaining({ signature: "unverified" }) })
      })
    )
  )

  it.scoped("CHAT_REQUIRE_SIGNATURE=true: an unsigned call is refused with chat.sig-rejected; a signed one runs", () =>
    run(
      (fleet) =>
        Effect.gen(function* () {
          const unsigned = yield* bot({ action: "status", serverId: "s1", signature: false })
          expect(unsigned.status).toBe(403)
          expect(unsigned.body).toMatchObject({ message: expect.stringContaining("requires signed calls") })
          expect(rowsOf(fleet, "chat.sig-rejected")).toHaveLength(1)
          expect((yield* bot({ action: "status", serverId: "s1" })).status).toBe(200)
        }),
      { CHAT_REQUIRE_SIGNATURE: "true" }
    )
  )
})

describe("chat-bot calls: actions, roles and cooldowns", () => {
  it.scoped("an unknown action is 400 listing the known ones; a server action without serverId is 400", () =>
    run(() =>
      Effect.gen(function* () {
        const unknown = yield* bot({ action: "nuke", serverId: "s1" })
        expect(unknown.status).toBe(400)
        expect(unknown.body).toMatchObject({ message: expect.stringContaining("known actions: actionExplode") })
        expect((unknown.body as { details: { known: Array<string> } }).details.known).toHaveLength(34)
        const noServer = yield* bot({ action: "status" })
        expect(noServer.status).toBe(400)
        expect(noServer.body).toMatchObject({ message: "serverId is required for status" })
      })
    )
  )

  it.scoped("the chat-bot role cannot restart: 403 and chat.denied; mapped to moderator, the user can; the spec's server.restart spelling too", () =>
    run((fleet) =>
      Effect.gen(function* () {
        const denied = yield* bot({ action: "restart", serverId: "s1" })
        expect(denied.status).toBe(403)
        expect(denied.body).toMatchObject({ message: 'the role "chat-bot" lacks the permission "server.restart" on server s1' })
        expect(rowsOf(fleet, "chat.denied")).toEqual([
          expect.objectContaining({ actor: `chat:${CHAT_USER}`, result: "denied", details: expect.objectContaining({ permission: "server.restart", role: "chat-bot" }) })
        ])
        expect(fleet.power).toEqual([])

        expect((yield* mapUser(CHAT_USER, "moderator")).status).toBe(200)
        const restarted = yield* bot({ action: "server.restart", serverId: "s1" })
        expect(restarted.status, JSON.stringify(restarted.body)).toBe(200)
        expect(restarted.body).toMatchObject({ action: "restart", message: expect.stringContaining("Chernarus: restarted") })
        expect(fleet.power).toEqual(["s1: restart"])
      })
    )
  )

  it.scoped("a role scoped to s1 acts on s1 only; servers lists only what it may see", () =>
    run((fleet) =>
      Effect.gen(function* () {
        expect((yield* makeRole("s1-helper", [{ permission: "server.view", servers: ["s1"] }, { permission: "server.rcon", servers: ["s1"] }])).status).toBe(201)
        expect((yield* mapUser(CHAT_USER, "s1-helper")).status).toBe(200)
        const onS1 = yield* bot({ action: "message", serverId: "s1", params: { message: "Restart in 5 minutes" } })
        expect(onS1.status, JSON.stringify(onS1.body)).toBe(200)
        expect(fleet.said).toEqual(["s1: say -1 Restart in 5 minutes"])
        yield* TestClock.adjust("11 seconds")
        const onS2 = yield* bot({ action: "message", serverId: "s2", params: { message: "hello" } })
        expect(onS2.status).toBe(403)
        expect(fleet.said).toHaveLength(1)
        const list = yield* bot({ action: "servers" })
        expect(list.status).toBe(200)
        expect((list.body as { servers: Array<{ id: string }> }).servers.map((s) => s.id)).toEqual(["s1"])
        // The unmapped floor role sees both.
        const floor = yield* bot({ action: "servers", chatUserId: "333333333333333333" })
        expect((floor.body as { servers: Array<{ id: string }> }).servers.map((s) => s.id)).toEqual(["s1", "s2"])
      })
    )
  )

  it.scoped("cooldowns per user and action: a query again within 3 s is 429 with Retry-After; another user or action is not held", () =>
    run(() =>
      Effect.gen(function* () {
        expect((yield* bot({ action: "status", serverId: "s1" })).status).toBe(200)
        yield* TestClock.adjust("1 second")
        const again = yield* bot({ action: "status", serverId: "s1" })
        expect(again.status).toBe(429)
        expect(again.headers["retry-after"]).toBe("2")
        expect(again.body).toMatchObject({ error: "rate-limited" })
        expect((yield* bot({ action: "players", serverId: "s1" })).status).toBe(200)
        expect((yield* bot({ action: "status", serverId: "s1", chatUserId: "444444444444444444" })).status).toBe(200)
        yield* TestClock.adjust("2 seconds")
        expect((yield* bot({ action: "status", serverId: "s1" })).status).toBe(200)
      })
    )
  )

  it.scoped("power actions cool down 30 s, admin actions 10 s; a refused input gives the cooldown back", () =>
    run((fleet) =>
      Effect.gen(function* () {
        expect((yield* mapUser(CHAT_USER, "moderator")).status).toBe(200)
        const started = yield* bot({ action: "start", serverId: "s2" })
        expect(started.status, JSON.stringify(started.body)).toBe(200)
        yield* TestClock.adjust("29 seconds")
        expect((yield* bot({ action: "start", serverId: "s2" })).status).toBe(429)
        yield* TestClock.adjust("1 second")
        expect((yield* bot({ action: "start", serverId: "s2" })).status).toBe(200)
        expect(fleet.power).toEqual(["s2: start", "s2: start"])

        const tooLong = yield* bot({ action: "message", serverId: "s1", params: { message: "x".repeat(257) } })
        expect(tooLong.status).toBe(400)
        expect(tooLong.body).toMatchObject({ message: "params.message must be at most 256 characters", details: [{ path: "params.message" }] })
        yield* TestClock.adjust("1 second")
        const sent = yield* bot({ action: "message", serverId: "s1", params: { message: "x".repeat(256) } })
        expect(sent.status).toBe(200)
        yield* TestClock.adjust("9 seconds")
        expect((yield* bot({ action: "message", serverId: "s1", params: { message: "again" } })).status).toBe(429)
      })
    )
  )
})

describe("chat-bot actions on players, bans and the priority queue", () => {
  it.scoped("kick by name; ban, check and unban a Steam64; bad Steam64 refused by its field", () =>
    run((fleet) =>
      Effect.gen(function* () {
        expect((yield* mapUser(CHAT_USER, "moderator")).status).toBe(200)
        const kicked = yield* bot({ action: "kick", serverId: "s1", params: { player: "Bravo", reason: "AFK" } })
        expect(kicked.status, JSON.stringify(kicked.body)).toBe(200)
        expect(fleet.said).toContain("s1: kick 4 AFK")
        const nobody = yield* bot({ action: "kick", serverId: "s1", chatUserId: "555555555555555555", params: { player: "Zed" } })
        expect(nobody.status).toBe(403)

        yield* TestClock.adjust("1 second")
        const badId = yield* bot({ action: "banWhitelist", serverId: "s1", params: { op: "ban", platformId: "12345678901234567", reason: "x" } })
        expect(badId.status).toBe(400)
        expect(badId.body).toMatchObject({ message: "params.platformId must be a Steam64 id: 17 digits starting 7656119", details: [{ path: "params.platformId" }] })
        // Same action, user and second: the same signature, a replay; the bot signs at the next second.
        yield* TestClock.adjust("1 second")
        const banned = yield* bot({ action: "banWhitelist", serverId: "s1", params: { op: "ban", platformId: BRAVO, reason: "Cheating", duration: "7d" } })
        expect(banned.status, JSON.stringify(banned.body)).toBe(200)
        expect(banned.body).toMatchObject({ ban: { reason: "Cheating", expiresAt: new Date(START_MS + 2_000 + 7 * 86_400_000).toISOString() } })
        yield* TestClock.adjust("10 seconds")
        const checked = yield* bot({ action: "banWhitelist", serverId: "s1", params: { op: "check", platformId: BRAVO } })
        expect(checked.body).toMatchObject({ banned: true })
        yield* TestClock.adjust("10 seconds")
        const lifted = yield* bot({ action: "banWhitelist", serverId: "s1", params: { op: "unban", platformId: BRAVO } })
        expect(lifted.status).toBe(200)
        expect(fleet.audit.rows.filter((row) => row.actor === `chat:${CHAT_USER}`).map((row) => row.action)).toEqual(
          expect.arrayContaining(["bans.add", "bans.remove"])
        )
      })
    )
  )

  it.scoped("priorityQueue adds with days, checks and removes; an in-game action on a server with no agent is 409 agent-not-configured", () =>
    run(() =>
      Effect.gen(function* () {
        expect((yield* makeRole("events", ["priority.manage", "server.rcon", "server.view"])).status).toBe(201)
        expect((yield* mapUser(CHAT_USER, "events")).status).toBe(200)
        const added = yield* bot({ action: "priorityQueue", serverId: "s1", params: { op: "add", platformId: BRAVO, name: "Bravo", role: "VIP", days: 30 } })
        expect(added.status, JSON.stringify(added.body)).toBe(200)
        expect(added.body).toMatchObject({ outcome: "added", entry: { platformId: BRAVO, role: "VIP" } })
        yield* TestClock.adjust("10 seconds")
        expect((yield* bot({ action: "priorityQueue", serverId: "s1", params: { op: "remove", platformId: BRAVO } })).status).toBe(200)
        const heal = yield* bot({ action: "actionHeal", serverId: "s1", params: { platformId: BRAVO } })
        // No agent set up: a setting to change (409, no Retry-After), not a passing state.
        expect(heal.status).toBe(409)
        expect(heal.body).toMatchObject({ error: "agent-not-configured", details: { serverId: "s1", action: "player.heal" } })
        expect(heal.headers["retry-after"]).toBeUndefined()
        const spawn = yield* bot({ action: "actionSpawnItem", serverId: "s1", params: { platformId: BRAVO, itemClass: "M4A1", quantity: 101 } })
        expect(spawn.status).toBe(400)
        expect(spawn.body).toMatchObject({ details: [{ path: "params.quantity" }] })
      })
    )
  )
})
