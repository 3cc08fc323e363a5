/**
 * The priority list and export JSON written by PostgreSQL (JsonRows, the
 * rows' `jsonColumns`): on a real PostgreSQL 15, each page, each export and
 * each row is byte for byte the text the routes wrote when they encoded the
 * service's decoded entries (`JSON.stringify`), across the export's chunks
 * and page by page through the list's cursors with every filter, over names
 * that test the escaping (quotes, backslashes, control characters, emoji,
 * non-Latin scripts, line separators). PostgreSQL text cannot hold NUL: no
 * name here has one (see docs/database.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { request } from "@garrison/testkit"
import { Effect, Schema, TestClock } from "effect"
import { PRIORITY_ROLES, PriorityEntry, PriorityPage, PriorityQueue } from "../../src/priority/index.js"
import { EXPORT_CHUNK } from "../../src/priority/PriorityQueue.js"
import { expectPostgres, usePostgres } from "../support/postgres.js"
import { call, makeControllerWith, MANAGER } from "./support.js"

const { freshDatabase } = usePostgres()

const BASE = "/api/priority-queue"
const encodePage = Schema.encodeSync(PriorityPage)
const encodeEntry = Schema.encodeSync(PriorityEntry)

const T0 = Date.parse("2026-03-01T12:00:00.000Z")

const NAMES = [
  'Quote " and \\ backslash',
  "Tab\there",
  "Bell \u0007, \u0001, \u001f and DEL \u007f",
  "Emoji 🎯 and 𝔘𝔫𝔦",
  "Кириллица 漢字 عربى",
  "</script><b>",
  "Separators \u2028 \u2029 inside",
  "\\u0041 is not A"
]

const importEntries = (count: number, from = 0) =>
  Array.from({ length: count }, (_, k) => {
    const i = from + k
    return {
      platformId: (76561198000000000n + BigInt(i)).toString(),
      name: i < NAMES.length ? NAMES[i]! : `Player ${i}`,
      role: PRIORITY_ROLES[i % PRIORITY_ROLES.length]!,
      expiresAt: [null, new Date(T0 + 10_000).toISOString(), "2030-01-01T02:00:00+02:00"][i % 3]!,
      ...(i % 5 === 0 ? { addedBy: i % 10 === 0 ? 'ad"min\\ 管理' : "bot" } : {})
    }
  })

/** On TestClock at T0, the priority controller on a fresh database of the file's PostgreSQL. */
const onPostgres = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(T0)
    const controller = yield* makeControllerWith(yield* freshDatabase)
    return yield* Effect.provide(Effect.zipRight(expectPostgres, body), controller.layer)
  })

/** Every page for `query`, each the decoded page's JSON byte for byte (the route's and `listJson`'s); the platform ids. */
const walk = (query: Readonly<Record<string, string>>, limit: number) =>
  Effect.gen(function* () {
    const service = yield* PriorityQueue
    const ids: Array<string> = []
    let cursor: string | undefined
    let pages = 0
    do {
      const params = { ...query, limit: String(limit), ...(cursor === undefined ? {} : { cursor }) }
      const answer = yield* request("GET", `${BASE}?${new URLSearchParams(params).toString()}`, { as: MANAGER })
      expect(answer.status).toBe(200)
      const paged = { ...query, limit, ...(cursor === undefined ? {} : { cursor }) }
      const decoded = yield* service.list(paged)
      expect(answer.text).toBe(JSON.stringify(encodePage(decoded)))
      const json = yield* service.listJson(paged)
      expect(json.items.map((row) => row.json)).toEqual(decoded.items.map((entry) => JSON.stringify(encodeEntry(entry))))
      ids.push(...decoded.items.map((entry) => entry.platformId))
      cursor = decoded.nextCursor ?? undefined
      pages++
    } while (cursor !== undefined && pages < 50)
    expect(cursor).toBeUndefined()
    return { ids, pages }
  })

describe("priority JSON from PostgreSQL", () => {
  it.scoped("the export spans several chunks, byte for byte the decoded entries' JSON", () =>
    onPostgres(
      Effect.gen(function* () {
        const entries = importEntries(EXPORT_CHUNK * 2 + 37)
        const imported = yield* call("POST", `${BASE}/import`, { as: MANAGER, json: entries })
        expect(imported.body).toMatchObject({ added: entries.length, skipped: 0, errors: [] })
        const exported = yield* request("GET", `${BASE}/export`, { as: MANAGER })
        expect(exported.status).toBe(200)
        expect(exported.headers["content-type"]).toContain("application/json")
        const all = yield* Effect.flatMap(PriorityQueue, (queue) => queue.exportAll)
        expect(exported.text).toBe(JSON.stringify(all.map((entry) => encodeEntry(entry))))
        expect(all.map((entry) => entry.platformId)).toEqual(entries.map((entry) => entry.platformId))
        for (const name of NAMES) expect(all.some((entry) => entry.name === name), name).toBe(true)
      })
    ), 120_000)

  it.scoped("an empty export and an empty list", () =>
    onPostgres(
      Effect.gen(function* () {
        expect((yield* request("GET", `${BASE}/export`, { as: MANAGER })).text).toBe("[]")
        expect((yield* request("GET", BASE, { as: MANAGER })).text).toBe('{"items":[],"nextCursor":null}')
      })
    ), 120_000)

  it.scoped("list pages are the decoded pages' JSON byte for byte, cursor for cursor, with every filter", () =>
    onPostgres(
      Effect.gen(function* () {
        yield* call("POST", `${BASE}/import`, { as: MANAGER, json: importEntries(120) })
        const firstId = (yield* Effect.flatMap(PriorityQueue, (queue) => queue.list({ limit: 1 }))).items[0]!.id
        expect((yield* call("PATCH", `${BASE}/${firstId}`, { as: MANAGER, json: { name: 'Patched "name" \\ 🎯', expiresAt: null } })).status).toBe(200)
        expect((yield* call("POST", BASE, { as: MANAGER, json: { platformId: "76561198999999999", name: "Añadido ✓", role: "Premium" } })).status).toBe(201)
        const queries: ReadonlyArray<Record<string, string>> = [{}, ...PRIORITY_ROLES.map((role) => ({ role })), { active: "true" }, { active: "false" }]
        for (const query of queries) yield* walk(query, 25)
        // After the expiry some are expired: the filters move, the JSON stays the decoded text.
        yield* TestClock.setTime(T0 + 10_000)
        expect((yield* walk({ active: "false" }, 25)).ids.length).toBeGreaterThan(0)
        expect((yield* walk({}, 1000)).pages).toBe(1)
      })
    ), 120_000)
})
