/**
 * The ban list and export JSON written by PostgreSQL (JsonRows, the rows'
 * `jsonColumns`): on a real PostgreSQL 15, each page, each export and each
 * row is byte for byte the text the routes wrote when they encoded the
 * service's decoded bans (`JSON.stringify`), across the export's chunks
 * and page by page through the list's cursors with filters, over names
 * that test the escaping (quotes, backslashes, control characters, emoji,
 * non-Latin scripts; a line separator in reasons).
 */
import { describe, expect, it } from "@effect/vitest"
import { request } from "@garrison/testkit"
import { Effect, Layer, Schema } from "effect"
import { Ban, BanPage } from "../../src/bans/contract/Api.js"
import { Bans, EXPORT_CHUNK } from "../../src/bans/index.js"
import { expectPostgres, usePostgres } from "../support/postgres.js"
import { bansController, call, makeFleet } from "./support.js"

const { freshDatabase } = usePostgres()

const MOD = "mod:bans.manage"
const encodePage = Schema.encodeSync(BanPage)
const encodeBan = Schema.encodeSync(Ban)

/** The bans controller on a fresh database of the file's PostgreSQL. */
const onPostgres = Layer.unwrapEffect(Effect.map(freshDatabase, (settings) => bansController(makeFleet({ alpha: "stopped" }), [], settings)))

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

describe("bans JSON from PostgreSQL", () => {
  it.scopedLive("the export spans several chunks, byte for byte the decoded bans' JSON", () =>
    Effect.gen(function* () {
      const count = EXPORT_CHUNK * 2 + 37
      const imported = yield* call("POST", "/api/bans/import", { as: MOD, json: importRows(count) })
      expect(imported.body).toMatchObject({ added: count })
      const service = yield* Bans
      const expected = JSON.stringify((yield* service.exportAll).map((ban) => encodeBan(ban)))
      const exported = yield* request("GET", "/api/bans/export", { as: MOD })
      expect(exported.status).toBe(200)
      expect(exported.headers["content-type"]).toContain("application/json")
      expect(exported.text).toBe(expected)
      // Served again from memory (kept), still the same text.
      expect((yield* request("GET", "/api/bans/export", { as: MOD })).text).toBe(expected)
      const bans = JSON.parse(exported.text) as ReadonlyArray<{ readonly playerName: string }>
      expect(bans).toHaveLength(count)
      for (const name of NAMES) expect(bans.some((ban) => ban.playerName === name), name).toBe(true)
    }).pipe(Effect.zipRight(expectPostgres), Effect.provide(onPostgres)), 120_000)

  it.scopedLive("an empty export and an empty list", () =>
    Effect.gen(function* () {
      expect((yield* request("GET", "/api/bans/export", { as: MOD })).text).toBe("[]")
      expect((yield* request("GET", "/api/bans", { as: MOD })).text).toBe('{"items":[],"nextCursor":null}')
    }).pipe(Effect.zipRight(expectPostgres), Effect.provide(onPostgres)), 120_000)

  it.scopedLive("list pages are the decoded pages' JSON byte for byte, cursor for cursor, with filters", () =>
    Effect.gen(function* () {
      yield* call("POST", "/api/bans/import", { as: MOD, json: importRows(230) })
      // One added over HTTP too, as a single write.
      expect((yield* call("POST", "/api/bans", { as: MOD, json: { platformId: "76561198999999999", playerName: "Añadido ✓ \u0007", reason: "one \"more\"" } })).status)
        .toBe(201)
      const service = yield* Bans
      for (const query of [{}, { status: "active" as const }, { status: "expired" as const }, { q: "quote" }, { q: "player 1" }]) {
        let cursor: string | undefined
        let pages = 0
        do {
          const params = { ...query, limit: 40, ...(cursor === undefined ? {} : { cursor }) }
          const answer = yield* request("GET", `/api/bans?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`, { as: MOD })
          expect(answer.status).toBe(200)
          const decoded = yield* service.list(params)
          expect(answer.text).toBe(JSON.stringify(encodePage(decoded)))
          const json = yield* service.listJson(params)
          expect(json.items.map((row) => row.json)).toEqual(decoded.items.map((ban) => JSON.stringify(encodeBan(ban))))
          cursor = decoded.nextCursor ?? undefined
          pages++
        } while (cursor !== undefined && pages < 20)
        expect(cursor).toBeUndefined()
        if (Object.keys(query).length === 0) expect(pages).toBe(6)
      }
    }).pipe(Effect.zipRight(expectPostgres), Effect.provide(onPostgres)), 120_000)
})
