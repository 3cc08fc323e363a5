/**
 * The priority list and export answer JSON written by the database
 * (JsonRows, the rows' `jsonColumns`), over names that test the escaping
 * (quotes, backslashes, control characters, emoji, non-Latin scripts, line
 * separators), across the export's chunks, page by page through the list's
 * cursors with every filter, and on both sides of an expiry (TestClock:
 * time moves only what the `active` filter keeps). PostgreSQL text cannot
 * hold NUL: no name here has one (see docs/database.md).
 *
 * On either engine: each answer held to the endpoint's schema and, parsed,
 * to the service's decoded entries (the text the routes answered before,
 * key for key). On PostgreSQL (the controller's own `SqlClient` says
 * which): each page, each export and each `listJson` row is also byte for
 * byte the text the routes wrote when they encoded the decoded entries
 * (`JSON.stringify`); SQLite may spell numbers its own way, so there only
 * the parsed values are compared.
 */
import { describe, expect, it } from "@effect/vitest"
import { request } from "@garrison/testkit"
import { Effect, Schema, TestClock } from "effect"
import { PRIORITY_ROLES, PriorityEntry, PriorityPage, PriorityQueue, type PriorityRole } from "../../src/priority/index.js"
import { EXPORT_CHUNK } from "../../src/priority/PriorityQueue.js"
import { isPostgres } from "../support/engine.js"
import { call, makeController, MANAGER } from "./support.js"

const BASE = "/api/priority-queue"
const strictPage = Schema.decodeUnknownSync(PriorityPage, { onExcessProperty: "error" })
const strictExport = Schema.decodeUnknownSync(Schema.Array(PriorityEntry), { onExcessProperty: "error" })
const encodePage = Schema.encodeSync(PriorityPage)
const encodeEntry = Schema.encodeSync(PriorityEntry)

const T0 = Date.parse("2026-03-01T12:00:00.000Z")
/** When the entries with `expiresAt: BOUNDARY` stop being active (`expiresAt <= now` is expired). */
const BOUNDARY = T0 + 10_000

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

const PATCHED = 'Patched "name" \\ 🎯'

interface ImportEntry {
  readonly platformId: string
  readonly name: string
  readonly role: PriorityRole
  readonly expiresAt: string | null
  readonly addedBy?: string
}

/** Expiry cases: permanent, at BOUNDARY, far off written with an offset (stored in UTC), a day on. */
const expiryOf = (i: number): string | null =>
  [null, new Date(BOUNDARY).toISOString(), "2030-01-01T02:00:00+02:00", new Date(T0 + 86_400_000).toISOString()][i % 4]!

const importEntries = (count: number, from = 0): ReadonlyArray<ImportEntry> =>
  Array.from({ length: count }, (_, k) => {
    const i = from + k
    return {
      platformId: (76561198000000000n + BigInt(i)).toString(),
      name: i < NAMES.length ? NAMES[i]! : `Player ${i}`,
      role: PRIORITY_ROLES[i % PRIORITY_ROLES.length]!,
      expiresAt: expiryOf(i),
      ...(i % 5 === 0 ? { addedBy: i % 10 === 0 ? 'ad"min\\ 管理' : "bot" } : {})
    }
  })

const importAll = (body: ReadonlyArray<ImportEntry>) =>
  Effect.map(call("POST", `${BASE}/import`, { as: MANAGER, json: body }), (reply) => {
    expect(reply.body).toMatchObject({ added: body.length, skipped: 0, errors: [] })
  })

interface Query {
  readonly role?: PriorityRole
  readonly active?: "true" | "false"
}

/**
 * Every page of the list for `query` as the route answers it, each held to
 * the schema and to the service's decoded page for the same cursor (on
 * PostgreSQL: its JSON byte for byte, the route's and `listJson`'s); the
 * platform ids in order.
 */
const walk = (query: Query, limit: number) =>
  Effect.gen(function* () {
    const service = yield* PriorityQueue
    const postgres = yield* isPostgres
    const ids: Array<string> = []
    let cursor: string | undefined
    let pages = 0
    do {
      const params = new URLSearchParams({ ...query, limit: String(limit), ...(cursor === undefined ? {} : { cursor }) })
      const answer = yield* request("GET", `${BASE}?${params.toString()}`, { as: MANAGER })
      expect(answer.status).toBe(200)
      expect(answer.headers["content-type"]).toContain("application/json")
      const body: unknown = JSON.parse(answer.text)
      const page = strictPage(body)
      const paged = { ...query, limit, ...(cursor === undefined ? {} : { cursor }) }
      const decoded = yield* service.list(paged)
      // The text the route answered when it encoded the decoded page: the same keys, in the same order.
      expect(JSON.stringify(body)).toBe(JSON.stringify(encodePage(decoded)))
      expect(page.items.map((entry) => encodeEntry(entry))).toEqual(decoded.items.map((entry) => encodeEntry(entry)))
      expect(page.nextCursor).toBe(decoded.nextCursor)
      if (postgres) {
        expect(answer.text).toBe(JSON.stringify(encodePage(decoded)))
        const json = yield* service.listJson(paged)
        expect(json.items.map((row) => row.json)).toEqual(decoded.items.map((entry) => JSON.stringify(encodeEntry(entry))))
      }
      ids.push(...page.items.map((entry) => entry.platformId))
      cursor = page.nextCursor ?? undefined
      pages++
    } while (cursor !== undefined && pages < 50)
    expect(cursor).toBeUndefined()
    return { ids, pages }
  })

/** The platform ids of `entries` that `query` keeps at `now`, in the list's order (import order). */
const expected = (entries: ReadonlyArray<ImportEntry>, query: Query, now: number) =>
  entries
    .filter((entry) => query.role === undefined || entry.role === query.role)
    .filter((entry) => {
      if (query.active === undefined) return true
      const active = entry.expiresAt === null || Date.parse(entry.expiresAt) > now
      return active === (query.active === "true")
    })
    .map((entry) => entry.platformId)

/** On TestClock at T0: every date is fixed, and only the test moves time. */
const onController = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(T0)
    const controller = yield* makeController
    return yield* Effect.provide(body, controller.layer)
  })

describe("priority JSON from the database", () => {
  it.scoped("the export spans several chunks, in order, each entry exactly as the service reads it", () =>
    onController(
      Effect.gen(function* () {
        const service = yield* PriorityQueue
        const exportAs = Effect.gen(function* () {
          const exported = yield* request("GET", `${BASE}/export`, { as: MANAGER })
          expect(exported.status).toBe(200)
          expect(exported.headers["content-type"]).toContain("application/json")
          expect(exported.headers["content-disposition"]).toBe('attachment; filename="service-priority-2026-03-01.json"')
          const body: unknown = JSON.parse(exported.text)
          const entries = strictExport(body)
          const all = yield* service.exportAll
          // The text the route answered when it wrote the decoded entries (JSON.stringify of the classes).
          expect(JSON.stringify(body)).toBe(JSON.stringify(all))
          expect(entries.map((entry) => encodeEntry(entry))).toEqual(all.map((entry) => encodeEntry(entry)))
          if (yield* isPostgres) expect(exported.text).toBe(JSON.stringify(all.map((entry) => encodeEntry(entry))))
          return entries
        })

        // Exactly two full chunks: the third read finds nothing, and the array still closes.
        const first = importEntries(EXPORT_CHUNK * 2)
        yield* importAll(first)
        expect((yield* exportAs).map((entry) => entry.platformId)).toEqual(first.map((entry) => entry.platformId))

        const more = importEntries(37, EXPORT_CHUNK * 2)
        yield* importAll(more)
        const entries = yield* exportAs
        expect(entries.map((entry) => entry.platformId)).toEqual([...first, ...more].map((entry) => entry.platformId))
        expect(new Set(entries.map((entry) => entry.id)).size).toBe(EXPORT_CHUNK * 2 + 37)
        for (const name of NAMES) expect(entries.some((entry) => entry.name === name), name).toBe(true)
        expect(entries[0]).toMatchObject({ name: NAMES[0], expiresAt: null, addedBy: 'ad"min\\ 管理', addedAt: new Date(T0).toISOString() })
        // Stored in UTC whatever zone was sent; the export shows it as stored.
        expect(entries[2]?.expiresAt).toBe("2030-01-01T00:00:00.000Z")
      })
    )
  )

  it.scoped("an empty export is an empty array, and an empty list an empty page", () =>
    onController(
      Effect.gen(function* () {
        const exported = yield* request("GET", `${BASE}/export`, { as: MANAGER })
        expect(exported.status).toBe(200)
        expect(strictExport(JSON.parse(exported.text))).toEqual([])
        const listed = yield* request("GET", BASE, { as: MANAGER })
        expect(listed.status).toBe(200)
        expect(JSON.parse(listed.text)).toEqual({ items: [], nextCursor: null })
        if (yield* isPostgres) {
          expect(exported.text).toBe("[]")
          expect(listed.text).toBe('{"items":[],"nextCursor":null}')
        }
      })
    )
  )

  it.scoped("list pages match the service's decoded pages, field for field, cursor for cursor, with every filter", () =>
    onController(
      Effect.gen(function* () {
        const entries = importEntries(230)
        yield* importAll(entries)
        // Changed and added one by one as well: a PATCH and an add over HTTP write the same columns.
        const firstId = (yield* Effect.flatMap(PriorityQueue, (queue) => queue.list({ limit: 1 }))).items[0]!.id
        const patched = yield* call("PATCH", `${BASE}/${firstId}`, { as: MANAGER, json: { name: PATCHED, expiresAt: null } })
        expect(patched.status).toBe(200)
        const added = yield* call("POST", BASE, { as: MANAGER, json: { platformId: "76561198999999999", name: "Añadido ✓", role: "Premium" } })
        expect(added.status).toBe(201)
        const all = [{ ...entries[0]!, name: PATCHED, expiresAt: null }, ...entries.slice(1), {
          platformId: "76561198999999999",
          name: "Añadido ✓",
          role: "Premium" as const,
          expiresAt: null
        }]

        const queries: ReadonlyArray<Query> = [
          {},
          ...PRIORITY_ROLES.map((role) => ({ role })),
          { active: "true" },
          { active: "false" },
          { role: "Supporter", active: "true" }
        ]
        for (const query of queries) {
          const { ids, pages } = yield* walk(query, 40)
          expect(ids, JSON.stringify(query)).toEqual(expected(all, query, T0))
          if (query.active !== "false") expect(pages, JSON.stringify(query)).toBeGreaterThan(1)
        }
        // After the expiry some are expired: the filters move, the JSON stays the decoded entries'.
        yield* TestClock.setTime(BOUNDARY)
        const expired = yield* walk({ active: "false" }, 40)
        expect(expired.ids).toEqual(expected(all, { active: "false" }, BOUNDARY))
        expect(expired.ids.length).toBeGreaterThan(0)
        // The default limit (100), and one page holding everything.
        expect((yield* walk({}, 100)).pages).toBe(3)
        expect((yield* walk({}, 1000)).pages).toBe(1)

        const bad = yield* call("GET", `${BASE}?cursor=not-a-cursor`, { as: MANAGER })
        expect(bad.status).toBe(400)
      })
    )
  )

  it.scoped("active and expired entries change lists at the expiry, to the millisecond, as the decoded list does", () =>
    onController(
      Effect.gen(function* () {
        const entries = importEntries(60)
        yield* importAll(entries)
        const atBoundary = expected(entries, { active: "false" }, BOUNDARY)
        expect(atBoundary).toHaveLength(15)

        // One millisecond before: every entry is active.
        yield* TestClock.setTime(BOUNDARY - 1)
        expect((yield* walk({ active: "true" }, 7)).ids).toEqual(entries.map((entry) => entry.platformId))
        expect((yield* walk({ active: "false" }, 7)).ids).toEqual([])

        // At the expiry: those expiring then are expired (listed until the cleanup removes them).
        yield* TestClock.adjust("1 millis")
        expect((yield* walk({ active: "false" }, 7)).ids).toEqual(atBoundary)
        expect((yield* walk({ active: "true" }, 7)).ids).toEqual(expected(entries, { active: "true" }, BOUNDARY))
        expect((yield* walk({ role: "VIP", active: "false" }, 3)).ids).toEqual(expected(entries, { role: "VIP", active: "false" }, BOUNDARY))
        // Time changes no entry, only which ones a filter keeps.
        expect((yield* walk({}, 7)).ids).toEqual(entries.map((entry) => entry.platformId))
      })
    )
  )
})
