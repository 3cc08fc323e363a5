/**
 * The `/api/bans` routes in-process over fake servers: each route's success
 * and error cases, platform id normalisation, import de-duplication and
 * partial errors, ban.txt following every change, and the audit rows
 * naming who acted by id and name.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder } from "@garrison/testkit"
import { Effect } from "effect"
import { BAN_BLOCK_BEGIN, BAN_BLOCK_END, Bans } from "../../src/bans/index.js"
import { banFileWhen, bansController, call, makeFleet, server } from "./support.js"

const MOD = "mod:bans.manage"
const STEAM64 = "76561198012345678"

describe("bans routes", () => {
  it.scopedLive("add normalises Steam2, Steam3 and Steam64; junk is 400 naming platformId", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      for (const [input, expected] of [
        ["STEAM_0:0:26039975", STEAM64],
        ["STEAM_1:1:1", "76561197960265731"],
        ["[U:1:52079952]", "76561198012345680"],
        ["U:1:52079954", "76561198012345682"],
        ["76561198012345684", "76561198012345684"]
      ] as const) {
        const added = yield* call("POST", "/api/bans", { as: MOD, json: { platformId: input, playerName: "P", reason: "r" } })
        expect(added.status).toBe(201)
        expect(added.body.platformId).toBe(expected)
        expect(added.body.source).toBe("manual")
        expect(added.body.bannedBy).toBe("mod")
        expect(added.body.expiresAt).toBeNull()
        expect(String(added.body.id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      }
      for (const junk of ["hello", "123", "STEAM_2:0:1", "76561197960265728", "[U:1:0]", "7656119801234567X"]) {
        const bad = yield* call("POST", "/api/bans", { as: MOD, json: { platformId: junk, playerName: "P", reason: "r" } })
        expect(bad.status).toBe(400)
        expect(String(bad.body.message)).toContain("platformId")
      }
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("add: 409 for a player already banned, 400 for bad fields, 401 and 403", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      const body = { platformId: STEAM64, playerName: "Bravo", reason: "cheating", expiresAt: "2999-01-01T00:00:00Z" }
      const first = yield* call("POST", "/api/bans", { as: MOD, json: body })
      expect(first.status).toBe(201)
      expect(first.body.expiresAt).toBe("2999-01-01T00:00:00.000Z")
      const again = yield* call("POST", "/api/bans", { as: MOD, json: { ...body, platformId: "STEAM_0:0:26039975" } })
      expect(again.status).toBe(409)
      expect(again.body.details).toMatchObject({ existingId: first.body.id })

      const past = yield* call("POST", "/api/bans", { as: MOD, json: { ...body, platformId: "76561198000000001", expiresAt: "2001-01-01T00:00:00Z" } })
      expect(past.status).toBe(400)
      expect(String(past.body.message)).toContain("expiresAt")
      const notADate = yield* call("POST", "/api/bans", { as: MOD, json: { ...body, platformId: "76561198000000001", expiresAt: "soon" } })
      expect(notADate.status).toBe(400)
      expect((yield* call("POST", "/api/bans", { as: MOD, json: { ...body, platformId: "76561198000000001", reason: "" } })).status).toBe(400)
      expect((yield* call("POST", "/api/bans", { as: MOD, json: { platformId: "76561198000000001" } })).status).toBe(400)
      // PostgreSQL text cannot hold NUL: refused at the door on both engines, naming the field.
      for (const field of ["playerName", "reason"]) {
        const nul = yield* call("POST", "/api/bans", { as: MOD, json: { ...body, platformId: "76561198000000001", [field]: "a\u0000b" } })
        expect(nul.status).toBe(400)
        expect(String(nul.body.message)).toContain(`${field} must not contain a NUL character (U+0000)`)
      }

      expect((yield* call("POST", "/api/bans", { json: body })).status).toBe(401)
      expect((yield* call("POST", "/api/bans", { as: "x:players.ban", json: body })).status).toBe(403)
      expect((yield* call("GET", "/api/bans", { as: "x:players.view" })).status).toBe(403)
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("get, delete and 404s; delete cleans every server's ban.txt", () => {
    const fleet = makeFleet({ alpha: "stopped", bravo: "running" })
    return Effect.gen(function* () {
      const added = yield* call("POST", "/api/bans", { as: MOD, json: { platformId: STEAM64, playerName: "Bravo", reason: "r" } })
      const id = String(added.body.id)
      const got = yield* call("GET", `/api/bans/${id}`, { as: MOD })
      expect(got.status).toBe(200)
      expect(got.body).toEqual(added.body)
      expect((yield* call("GET", "/api/bans/nope", { as: MOD })).status).toBe(404)

      for (const name of ["alpha", "bravo"]) {
        const text = yield* banFileWhen(server(fleet, name), (t) => t.includes(STEAM64))
        expect(text).toBe(`${BAN_BLOCK_BEGIN}\n${STEAM64}\n${BAN_BLOCK_END}\n`)
      }

      expect((yield* call("DELETE", `/api/bans/${id}`, { as: MOD })).status).toBeLessThan(300)
      expect((yield* call("DELETE", `/api/bans/${id}`, { as: MOD })).status).toBe(404)
      expect((yield* call("GET", `/api/bans/${id}`, { as: MOD })).status).toBe(404)
      for (const name of ["alpha", "bravo"]) {
        const text = yield* banFileWhen(server(fleet, name), (t) => !t.includes(STEAM64))
        expect(text).toBe(`${BAN_BLOCK_BEGIN}\n${BAN_BLOCK_END}\n`)
      }
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("list: filters by player, status and text, pages by keyset cursor", () => {
    const fleet = makeFleet({})
    return Effect.gen(function* () {
      const imported = yield* call("POST", "/api/bans/import", {
        as: MOD,
        json: [
          { platformId: "76561198000000001", playerName: "Alpha", reason: "aimbot", bannedBy: "x", bannedAt: "2024-01-01T00:00:00Z" },
          { platformId: "76561198000000002", playerName: "Bravo", reason: "100% toxic", bannedBy: "x", bannedAt: "2024-01-02T00:00:00Z" },
          {
            platformId: "76561198000000003",
            playerName: "Charlie",
            reason: "duping",
            bannedBy: "x",
            bannedAt: "2024-01-03T00:00:00Z",
            expiresAt: "2024-02-01T00:00:00Z"
          },
          { platformId: "76561198000000004", playerName: "Delta", reason: "Aimbot again", bannedBy: "x", bannedAt: "2024-01-04T00:00:00Z" },
          { platformId: "76561198000000005", playerName: "Echo_1", reason: "spam", bannedBy: "x", bannedAt: "2024-01-05T00:00:00Z" }
        ]
      })
      expect(imported.body).toMatchObject({ added: 5, skipped: 0, errors: [], total: 5 })

      const names = (reply: { body: Record<string, unknown> }) => (reply.body.items as Array<{ playerName: string }>).map((b) => b.playerName)
      const all = yield* call("GET", "/api/bans", { as: MOD })
      expect(names(all)).toEqual(["Echo_1", "Delta", "Charlie", "Bravo", "Alpha"])
      expect(all.body.nextCursor).toBeNull()

      expect(names(yield* call("GET", "/api/bans?status=expired", { as: MOD }))).toEqual(["Charlie"])
      expect(names(yield* call("GET", "/api/bans?status=active", { as: MOD }))).toEqual(["Echo_1", "Delta", "Bravo", "Alpha"])
      expect(names(yield* call("GET", "/api/bans?q=AIMBOT", { as: MOD }))).toEqual(["Delta", "Alpha"])
      expect(names(yield* call("GET", "/api/bans?q=charl", { as: MOD }))).toEqual(["Charlie"])
      // LIKE wildcards are taken literally.
      expect(names(yield* call("GET", "/api/bans?q=100%25", { as: MOD }))).toEqual(["Bravo"])
      expect(names(yield* call("GET", "/api/bans?q=o_1", { as: MOD }))).toEqual(["Echo_1"])
      expect(names(yield* call("GET", "/api/bans?q=_", { as: MOD }))).toEqual(["Echo_1"])
      expect(names(yield* call("GET", `/api/bans?platformId=${encodeURIComponent("[U:1:39734274]")}`, { as: MOD }))).toEqual(["Bravo"])
      const badId = yield* call("GET", "/api/bans?platformId=nobody", { as: MOD })
      expect(badId.status).toBe(400)
      expect(String(badId.body.message)).toContain("platformId")

      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const query: string = cursor === null ? "" : `&cursor=${cursor}`
        const page = yield* call("GET", `/api/bans?limit=2${query}`, { as: MOD })
        expect(page.status).toBe(200)
        seen.push(...names(page))
        cursor = page.body.nextCursor as string | null
      } while (cursor !== null)
      expect(seen).toEqual(["Echo_1", "Delta", "Charlie", "Bravo", "Alpha"])

      expect((yield* call("GET", "/api/bans?cursor=garbage", { as: MOD })).status).toBe(400)
      expect((yield* call("GET", "/api/bans?limit=0", { as: MOD })).status).toBe(400)
      expect((yield* call("GET", "/api/bans?status=sometimes", { as: MOD })).status).toBe(400)
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("export: every ban as an attachment named by date, which imports back as all skipped", () => {
    const fleet = makeFleet({})
    return Effect.gen(function* () {
      yield* call("POST", "/api/bans", { as: MOD, json: { platformId: STEAM64, playerName: "Bravo", reason: "r" } })
      yield* call("POST", "/api/bans", { as: MOD, json: { platformId: "76561198000000009", playerName: "Zed", reason: "z", expiresAt: "2999-01-01T00:00:00Z" } })
      const exported = yield* call("GET", "/api/bans/export", { as: MOD })
      expect(exported.status).toBe(200)
      expect(exported.headers["content-type"]).toContain("application/json")
      expect(exported.headers["content-disposition"]).toMatch(/^attachment; filename="service-bans-\d{4}-\d{2}-\d{2}\.json"$/)
      const rows = exported.body as unknown as Array<Record<string, unknown>>
      expect(rows).toHaveLength(2)
      expect(Object.keys(rows[0]!).sort()).toEqual(["bannedAt", "bannedBy", "expiresAt", "id", "platformId", "playerName", "reason", "source"])
      const again = yield* call("POST", "/api/bans/import", { as: MOD, json: rows })
      expect(again.body).toEqual({ added: 0, skipped: 2, errors: [], total: 2 })
      expect((yield* call("GET", "/api/bans/export", { as: "x:players.ban" })).status).toBe(403)
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("import: merges, de-duplicates, reports each bad entry and keeps the good ones", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      yield* call("POST", "/api/bans", { as: MOD, json: { platformId: STEAM64, playerName: "Bravo", reason: "r" } })
      const entry = (platformId: unknown, extra: Record<string, unknown> = {}) => ({
        platformId,
        playerName: "P",
        reason: "r",
        bannedBy: "other community",
        bannedAt: "2024-05-01T10:00:00Z",
        ...extra
      })
      const reply = yield* call("POST", "/api/bans/import", {
        as: MOD,
        json: [
          entry("76561198000000001"),
          entry("STEAM_0:0:26039975"), // already banned here
          entry("[U:1:39734273]"), // the same player as the first entry
          entry("junk"),
          entry("76561198000000002", { bannedAt: "yesterday" }),
          "not an object",
          entry("76561198000000003", { reason: "" }),
          entry(42),
          entry("76561198000000004", { expiresAt: "2024-04-01T00:00:00Z" }),
          entry("STEAM_1:1:5", { expiresAt: "2999-01-01T00:00:00Z" })
        ]
      })
      expect(reply.status).toBe(200)
      expect(reply.body.added).toBe(2)
      expect(reply.body.skipped).toBe(2)
      expect(reply.body.total).toBe(10)
      expect(reply.body.errors).toEqual([
        { index: 3, platformId: "junk", error: expect.stringContaining("platformId") },
        { index: 4, platformId: "76561198000000002", error: expect.stringContaining("bannedAt") },
        { index: 5, error: "expected an object" },
        { index: 6, platformId: "76561198000000003", error: expect.stringContaining("reason") },
        { index: 7, error: expect.stringContaining("platformId") },
        { index: 8, platformId: "76561198000000004", error: expect.stringContaining("expiresAt") }
      ])
      const listed = yield* call("GET", "/api/bans?limit=10", { as: MOD })
      const rows = listed.body.items as Array<{ platformId: string; bannedBy: string; source: string }>
      expect(rows.map((r) => r.platformId).sort()).toEqual([STEAM64, "76561197960265739", "76561198000000001"].sort())
      expect(rows.find((r) => r.platformId === "76561198000000001")).toMatchObject({ bannedBy: "other community", source: "import" })

      const text = yield* banFileWhen(server(fleet, "alpha"), (t) => t.includes("76561197960265739"))
      expect(text).toContain("76561198000000001")
      for (const body of [{ not: "an array" }, "text", 7, null]) {
        const rejected = yield* call("POST", "/api/bans/import", { as: MOD, json: body })
        expect(rejected.status).toBe(400)
        expect(rejected.body).toMatchObject({ error: "invalid-request", message: expect.stringContaining("JSON array") })
      }
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("audit rows name who acted by id (actor) and name (actorName); the ban keeps the name", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    const audit = auditRecorder()
    return Effect.gen(function* () {
      // Over HTTP: the test caller "mod" (a test caller's id is its name).
      const added = yield* call("POST", "/api/bans", { as: MOD, json: { platformId: STEAM64, playerName: "Bravo", reason: "r" } })
      expect(added.status).toBe(201)
      expect((yield* call("DELETE", `/api/bans/${String(added.body.id)}`, { as: MOD })).status).toBeLessThan(300)
      const imported = yield* call("POST", "/api/bans/import", {
        as: MOD,
        json: [{ platformId: "76561198000000001", playerName: "P", reason: "r", bannedBy: "other community", bannedAt: "2024-05-01T10:00:00Z" }]
      })
      expect(imported.status).toBe(200)
      const rows = (action: string) => audit.rows.filter((row) => row.action === action).map((row) => [row.actor, row.actorName])
      expect(rows("bans.add")).toEqual([["mod", "mod"]])
      expect(rows("bans.remove")).toEqual([["mod", "mod"]])
      expect(rows("bans.import")).toEqual([["mod", "mod"]])

      // Through the service (another plugin, a chat bot), outside any request: an actor whose id is not its name.
      const bans = yield* Bans
      const alice = { id: "u-1", name: "Alice Smith" }
      const ban = yield* bans.add({ platformId: "76561198000000002", playerName: "Charlie", reason: "r" }, alice)
      expect(ban.bannedBy).toBe("Alice Smith")
      yield* bans.remove(ban.id, alice)
      yield* bans.importMany([], alice)
      expect(audit.rows.slice(-3).map((row) => [row.action, row.actor, row.actorName])).toEqual([
        ["bans.add", "u-1", "Alice Smith"],
        ["bans.remove", "u-1", "Alice Smith"],
        ["bans.import", "u-1", "Alice Smith"]
      ])
    }).pipe(Effect.provide(bansController(fleet, [audit.plugin])))
  })
})
