/**
 * The ban list and export answer JSON written by the database (JsonRows,
 * the rows' `jsonColumns`), over names that test the escaping (quotes,
 * backslashes, control characters, emoji, non-Latin scripts; a line
 * separator in reasons), across the export's chunks and page by page
 * through the list's cursors with filters.
 *
 * On either engine: each answer held to the endpoint's schema and, parsed,
 * to the service's decoded bans, field for field, cursor for cursor.
 * On PostgreSQL (the controller's own `SqlClient` says which): each page,
 * each export (served again from memory too) and each `listJson` row is
 * also byte for byte the text the routes wrote when they encoded the
 * decoded bans (`JSON.stringify`); SQLite may spell keys and numbers its
 * own way, so there only the parsed values are compared.
 */
import { describe, expect, it } from "@effect/vitest"
import { request } from "@garrison/testkit"
import { Effect, Schema } from "effect"
import { Ban, BanPage } from "../../src/bans/contract/Api.js"
import { Bans, EXPORT_CHUNK } from "../../src/bans/index.js"
import { isPostgres } from "../support/engine.js"
import { bansController, call, makeFleet } from "./support.js"

const MOD = "mod:bans.manage"
const strictPage = Schema.decodeUnknownSync(BanPage, { onExcessProperty: "error" })
const strictExport = Schema.decodeUnknownSync(Schema.Array(Ban), { onExcessProperty: "error" })
const encodePage = Schema.encodeSync(BanPage)
const encodeBan = Schema.encodeSync(Ban)

const NAMES = [
  'Quote " and \\ backslash',
  "Tab\there",
  "Bell \u0007, \u0001, \u001f and DEL \u007f",
  "Emoji 🎯 and 𝔘𝔫𝔦",
  "Кириллица 漢字 عربى",
  "</script><b>",
  "\\u0041 is not A"
]

const importRows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    platformId: (76561198000000000n + BigInt(i)).toString(),
    playerName: i < NAMES.length ? NAMES[i]! : `Player ${i}`,
    reason: i % 7 === 0 ? "reason with \"quotes\", a \u2028 separator and \\n" : "cheating",
    bannedBy: i % 3 === 0 ? 'ad"min\\ 管理' : "admin",
    bannedAt: new Date(Date.parse("2025-01-01T00:00:00Z") + Math.floor(i / 3) * 1000).toISOString(),
    ...(i % 5 === 0 ? { expiresAt: "2999-01-01T00:00:00Z" } : {})
  }))

describe("bans JSON from the database", () => {
  it.scopedLive("the export spans several chunks, in order, each ban exactly as the service reads it", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    const count = EXPORT_CHUNK * 2 + 37
    return Effect.gen(function* () {
      const imported = yield* call("POST", "/api/bans/import", { as: MOD, json: importRows(count) })
      expect(imported.body).toMatchObject({ added: count })
      const exported = yield* request("GET", "/api/bans/export", { as: MOD })
      expect(exported.status).toBe(200)
      expect(exported.headers["content-type"]).toContain("application/json")
      expect(exported.headers["content-disposition"]).toMatch(/^attachment; filename="service-bans-\d{4}-\d{2}-\d{2}\.json"$/)
      const bans = strictExport(JSON.parse(exported.text))
      const expected = (yield* Effect.flatMap(Bans, (service) => service.exportAll)).map((ban) => encodeBan(ban))
      expect(bans.map((ban) => encodeBan(ban))).toEqual(expected)
      expect(bans).toHaveLength(count)
      expect(new Set(bans.map((ban) => ban.id)).size).toBe(count)
      for (const name of NAMES) expect(bans.some((ban) => ban.playerName === name), name).toBe(true)
      // Served again from memory (kept), still the same text.
      expect((yield* request("GET", "/api/bans/export", { as: MOD })).text).toBe(exported.text)
      if (yield* isPostgres) expect(exported.text).toBe(JSON.stringify(expected))
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("a kept export follows every add, delete and import at once, and answers 304 to its own ETag", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      const ids = () => Effect.map(call("GET", "/api/bans/export", { as: MOD }), (answer) => strictExport(answer.body).map((ban) => ban.platformId))
      yield* call("POST", "/api/bans/import", { as: MOD, json: importRows(3) })
      expect(yield* ids()).toHaveLength(3)
      const kept = yield* call("GET", "/api/bans/export", { as: MOD })
      const etag = kept.headers["etag"]
      expect(etag).toMatch(/^W\/"/)
      expect((yield* call("GET", "/api/bans/export", { as: MOD, headers: { "if-none-match": etag! } })).status).toBe(304)

      const added = yield* call("POST", "/api/bans", { as: MOD, json: { platformId: "76561198999999999", playerName: "Kept", reason: "kept export" } })
      expect(added.status).toBe(201)
      expect(yield* ids()).toContain("76561198999999999")
      expect((yield* call("GET", "/api/bans/export", { as: MOD, headers: { "if-none-match": etag! } })).status).toBe(200)
      yield* call("DELETE", `/api/bans/${(added.body as { id: string }).id}`, { as: MOD })
      expect(yield* ids()).not.toContain("76561198999999999")
      yield* call("POST", "/api/bans/import", { as: MOD, json: [{ ...importRows(1)[0]!, platformId: "76561198888888888" }] })
      expect(yield* ids()).toContain("76561198888888888")
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("an empty export is an empty array, and an empty list an empty page", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      const exported = yield* request("GET", "/api/bans/export", { as: MOD })
      expect(exported.status).toBe(200)
      expect(strictExport(JSON.parse(exported.text))).toEqual([])
      const listed = yield* request("GET", "/api/bans", { as: MOD })
      expect(listed.status).toBe(200)
      expect(JSON.parse(listed.text)).toStrictEqual({ items: [], nextCursor: null })
      if (yield* isPostgres) {
        expect(exported.text).toBe("[]")
        expect(listed.text).toBe('{"items":[],"nextCursor":null}')
      }
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive("list pages match the service's decoded pages, field for field, cursor for cursor, with filters", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      yield* call("POST", "/api/bans/import", { as: MOD, json: importRows(230) })
      // One added over HTTP too, as a single write.
      expect((yield* call("POST", "/api/bans", { as: MOD, json: { platformId: "76561198999999999", playerName: "Añadido ✓ \u0007", reason: "one \"more\"" } })).status)
        .toBe(201)
      const service = yield* Bans
      const postgres = yield* isPostgres
      for (const query of [{}, { status: "active" as const }, { status: "expired" as const }, { q: "quote" }, { q: "player 1" }]) {
        let cursor: string | undefined
        let pages = 0
        do {
          const params = { ...query, limit: 40, ...(cursor === undefined ? {} : { cursor }) }
          const answer = yield* request("GET", `/api/bans?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`, { as: MOD })
          expect(answer.status).toBe(200)
          const page = strictPage(JSON.parse(answer.text))
          const decoded = yield* service.list(params)
          expect(page.items.map((ban) => encodeBan(ban))).toEqual(decoded.items.map((ban) => encodeBan(ban)))
          expect(page.nextCursor).toBe(decoded.nextCursor)
          if (postgres) {
            expect(answer.text).toBe(JSON.stringify(encodePage(decoded)))
            const json = yield* service.listJson(params)
            expect(json.items.map((row) => row.json)).toEqual(decoded.items.map((ban) => JSON.stringify(encodeBan(ban))))
          }
          cursor = page.nextCursor ?? undefined
          pages++
        } while (cursor !== undefined && pages < 20)
        expect(cursor).toBeUndefined()
        if (Object.keys(query).length === 0) expect(pages).toBe(6)
      }
      const bad = yield* call("GET", "/api/bans?cursor=not-a-cursor", { as: MOD })
      expect(bad.status).toBe(400)
    }).pipe(Effect.provide(bansController(fleet)))
  })
})
