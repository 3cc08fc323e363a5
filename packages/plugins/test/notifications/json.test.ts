/**
 * The notification list answers JSON written by the database (JsonRows,
 * the rows' `jsonColumns`), page by page through the cursors, for callers
 * who see different audiences (the nested audience object, the "all"
 * string), with read marks, read and cleared watermarks (the `read`
 * boolean), a level edited by hand, and text that tests the escaping
 * (quotes, backslashes, control characters, emoji, non-Latin scripts).
 *
 * On either engine: each page held to the endpoint's schema and, parsed,
 * to the service's decoded `list`. On PostgreSQL (the controller's own
 * `SqlClient` says which): each page and each `listJson` row is also byte
 * for byte the text the route wrote when it encoded the decoded page
 * (`JSON.stringify`); SQLite may spell keys its own way, so there only the
 * parsed values are compared.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { request } from "@garrison/testkit"
import { Effect, Schema, TestClock } from "effect"
import { Notification, type NotificationInput, NotificationPage, Notifications, type Viewer } from "../../src/notifications/index.js"
import { isPostgres } from "../support/engine.js"
import { call, notificationsController } from "./support.js"

const strictPage = Schema.decodeUnknownSync(NotificationPage, { onExcessProperty: "error" })
const encodePage = Schema.encodeSync(NotificationPage)
const encodeNotification = Schema.encodeSync(Notification)

const TEXTS = [
  'Quote " and \\ backslash',
  "Tab\there and new\nline",
  "Bell \u0007, \u0001 and \u001f",
  "Emoji 🎯 and 𝔘𝔫𝔦",
  "Кириллица 漢字 عربى",
  "</script><b>&amp;",
  "separators \u2028 and \u2029"
]
const LINKS = [undefined, '/servers/1?q="x"&y=\\z', "https://example.com/a?b=%22c%22", "/players/Кириллица"]

const ALICE = { as: "alice:server.restart", viewer: { id: "alice", permissions: new Set(["server.restart"]) } }
const BOB = { as: "bob:players.ban", viewer: { id: "bob", permissions: new Set(["players.ban"]) } }
const CAROL = { as: "carol:", viewer: { id: "carol", permissions: new Set<string>() } }
const ROOT = { as: "root:admin", viewer: { id: "root", permissions: new Set(["admin"]) } }

const AUDIENCES: ReadonlyArray<NotificationInput["audience"]> = [
  "all",
  { userId: "alice" },
  { userId: "bob" },
  { permission: "server.restart" },
  { permission: "players.ban" }
]
const LEVELS = ["info", "warning", "error"] as const

/** `count` notifications a second apart, over every audience, level, text and link. */
const seed = (count: number, from = 0) =>
  Effect.gen(function* () {
    const notifications = yield* Notifications
    const published = []
    for (let i = from; i < from + count; i++) {
      yield* TestClock.adjust("1 second")
      const link = LINKS[i % LINKS.length]
      published.push(
        yield* notifications.publish({
          audience: AUDIENCES[i % AUDIENCES.length]!,
          level: LEVELS[i % LEVELS.length]!,
          title: `${TEXTS[i % TEXTS.length]!} #${i}`,
          message: `${TEXTS[(i + 3) % TEXTS.length]!}\n${TEXTS[i % TEXTS.length]!}`,
          ...(link === undefined ? {} : { link })
        })
      )
    }
    return published
  })

/**
 * Every page `caller` gets from the endpoint, following its cursors: each
 * must decode strictly and equal, once parsed, the service's decoded page
 * for the same request (on PostgreSQL: be its JSON byte for byte, the
 * route's and `listJson`'s).
 */
const pagesOf = (caller: { readonly as: string; readonly viewer: Viewer }, limit?: number) =>
  Effect.gen(function* () {
    const service = yield* Notifications
    const postgres = yield* isPostgres
    const pages: Array<NotificationPage> = []
    let cursor: string | undefined
    do {
      const query = new URLSearchParams()
      if (limit !== undefined) query.set("limit", String(limit))
      if (cursor !== undefined) query.set("cursor", cursor)
      const answer = yield* request("GET", `/api/notifications?${query.toString()}`, { as: caller.as })
      expect(answer.status).toBe(200)
      const body: unknown = JSON.parse(answer.text)
      const page = strictPage(body)
      const decoded = yield* service.list(caller.viewer, { limit, cursor })
      expect(body).toStrictEqual(encodePage(decoded))
      expect(page.items.map((item) => item.id)).toEqual(decoded.items.map((item) => item.id))
      if (postgres) {
        expect(answer.text).toBe(JSON.stringify(encodePage(decoded)))
        const json = yield* service.listJson(caller.viewer, { limit, cursor })
        expect(json.items.map((row) => row.json)).toEqual(decoded.items.map((item) => JSON.stringify(encodeNotification(item))))
        expect(json.unreadCount).toBe(decoded.unreadCount)
      }
      pages.push(page)
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined && pages.length < 50)
    expect(cursor).toBeUndefined()
    return pages
  })

const itemsOf = (pages: ReadonlyArray<NotificationPage>) => pages.flatMap((page) => page.items)

describe("notification list JSON from the database", () => {
  it.scoped("pages match the service's decoded pages, field for field, for every caller, read and unread", () =>
    Effect.gen(function* () {
      const published = yield* seed(45)
      // Alice reads some one by one; Bob reads everything (a watermark), then some later ones one by one.
      const marks = published.filter((_, i) => i % 4 === 1).map((n) => n.id)
      expect((yield* call("PATCH", "/api/notifications/read", { as: ALICE.as, json: { ids: marks } })).status).toBe(200)
      expect((yield* call("PATCH", "/api/notifications/read", { as: BOB.as })).status).toBe(200)
      const later = yield* seed(20, 45)
      yield* call("PATCH", "/api/notifications/read", { as: BOB.as, json: { ids: later.filter((_, i) => i % 3 === 0).map((n) => n.id) } })

      for (const caller of [ALICE, BOB, CAROL, ROOT]) {
        for (const limit of [undefined, 7, 200]) {
          const pages = yield* pagesOf(caller, limit)
          if (limit === 7) expect(pages.length, caller.as).toBeGreaterThan(1)
          const items = itemsOf(pages)
          expect(new Set(items.map((item) => item.id)).size).toBe(items.length)
          expect(pages.every((page) => page.unreadCount === items.filter((item) => !item.read).length)).toBe(true)
        }
      }
      for (const caller of [ALICE, BOB]) {
        const items = itemsOf(yield* pagesOf(caller, 200))
        expect(items.some((item) => item.read), caller.as).toBe(true)
        expect(items.some((item) => !item.read), caller.as).toBe(true)
        expect(items.some((item) => item.link === null)).toBe(true)
        expect(new Set(items.map((item) => item.level))).toEqual(new Set(LEVELS))
      }
      // One broadcast, read by Alice and unread for Bob (above his watermark): the read flag is per caller.
      const broadcast = later.find((_, i) => (45 + i) % AUDIENCES.length === 0 && i % 3 !== 0)!
      yield* call("PATCH", "/api/notifications/read", { as: ALICE.as, json: { ids: [broadcast.id] } })
      const flag = (caller: typeof ALICE) =>
        Effect.map(pagesOf(caller, 200), (pages) => itemsOf(pages).find((item) => item.id === broadcast.id)?.read)
      expect([yield* flag(ALICE), yield* flag(BOB)]).toEqual([true, false])

      const everything = itemsOf(yield* pagesOf(ROOT, 200)).concat(itemsOf(yield* pagesOf(ALICE, 200)), itemsOf(yield* pagesOf(BOB, 200)))
      for (const text of TEXTS) {
        expect(everything.some((item) => item.title.startsWith(text)), text).toBe(true)
        expect(everything.some((item) => item.message.includes(text)), text).toBe(true)
      }
      for (const link of LINKS.filter((l) => l !== undefined)) expect(everything.some((item) => item.link === link), link).toBe(true)
      expect(everything.some((item) => item.read)).toBe(true)
      expect(everything.some((item) => !item.read)).toBe(true)
      expect(everything.map((item) => item.audience)).toContainEqual({ permission: "players.ban" })
      expect(everything.map((item) => item.audience)).toContainEqual({ userId: "alice" })
      expect(everything.map((item) => item.audience)).toContain("all")
    }).pipe(Effect.provide(notificationsController())))

  it.scoped("cleared watermarks, an empty list, a level edited by hand, and a foreign cursor", () =>
    Effect.gen(function* () {
      const empty = yield* request("GET", "/api/notifications", { as: CAROL.as })
      expect(JSON.parse(empty.text)).toStrictEqual({ items: [], nextCursor: null, unreadCount: 0 })
      if (yield* isPostgres) expect(empty.text).toBe('{"items":[],"nextCursor":null,"unreadCount":0}')

      yield* seed(12)
      expect((yield* call("DELETE", "/api/notifications", { as: CAROL.as })).status).toBe(200)
      expect(itemsOf(yield* pagesOf(CAROL))).toEqual([])
      yield* seed(12, 12)
      expect(itemsOf(yield* pagesOf(CAROL, 1)).length).toBeGreaterThan(1)
      expect(itemsOf(yield* pagesOf(ALICE, 5)).length).toBeGreaterThan(itemsOf(yield* pagesOf(CAROL, 5)).length)

      // `toNotification` answers "info" for a level no publisher could store; so must the JSON.
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`UPDATE notifications SET level = 'fatal' WHERE audience_kind = 'all'`)
      const items = itemsOf(yield* pagesOf(CAROL, 4))
      expect(items.length).toBeGreaterThan(0)
      expect(items.every((item) => item.level === "info")).toBe(true)
      // Alice's pages too, where the edited broadcasts sit among her own.
      const broadcasts = itemsOf(yield* pagesOf(ALICE, 5)).filter((item) => item.audience === "all")
      expect(broadcasts.length).toBeGreaterThan(0)
      expect(broadcasts.every((item) => item.level === "info")).toBe(true)

      for (const cursor of ["not-a-cursor", Buffer.from("bans:{}").toString("base64url")]) {
        const bad = yield* call("GET", `/api/notifications?cursor=${cursor}`, { as: ALICE.as })
        expect(bad.status).toBe(400)
        expect(bad.body).toMatchObject({ error: "invalid-request" })
      }
    }).pipe(Effect.provide(notificationsController())))
})
