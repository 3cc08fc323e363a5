/**
 * The notification list's JSON written by PostgreSQL (JsonRows, the rows'
 * `jsonColumns`): on a real PostgreSQL 15, each page and each row is byte
 * for byte the text the route wrote when it encoded the service's decoded
 * page (`JSON.stringify`), through the cursors, for callers who see
 * different audiences (the nested audience object, the "all" string), with
 * read marks and watermarks (the `read` boolean), a level edited by hand,
 * and text that tests the escaping.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { request } from "@garrison/testkit"
import { Effect, Layer, Schema, TestClock } from "effect"
import { Notification, type NotificationInput, NotificationPage, Notifications, type Viewer } from "../../src/notifications/index.js"
import { expectPostgres, usePostgres } from "../support/postgres.js"
import { call, notificationsController } from "./support.js"

const { freshDatabase } = usePostgres()

/** The notifications controller on a fresh database of the file's PostgreSQL. */
const onPostgres = Layer.unwrapEffect(Effect.map(freshDatabase, (settings) => notificationsController([], settings)))

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

/** Every page `caller` gets, each the decoded page's JSON byte for byte (the route's and `listJson`'s); the items. */
const pagesOf = (caller: { readonly as: string; readonly viewer: Viewer }, limit?: number) =>
  Effect.gen(function* () {
    const service = yield* Notifications
    const items: Array<Notification> = []
    let cursor: string | undefined
    let pages = 0
    do {
      const query = new URLSearchParams()
      if (limit !== undefined) query.set("limit", String(limit))
      if (cursor !== undefined) query.set("cursor", cursor)
      const answer = yield* request("GET", `/api/notifications?${query.toString()}`, { as: caller.as })
      expect(answer.status).toBe(200)
      const decoded = yield* service.list(caller.viewer, { limit, cursor })
      expect(answer.text).toBe(JSON.stringify(encodePage(decoded)))
      const json = yield* service.listJson(caller.viewer, { limit, cursor })
      expect(json.items.map((row) => row.json)).toEqual(decoded.items.map((item) => JSON.stringify(encodeNotification(item))))
      expect(json.unreadCount).toBe(decoded.unreadCount)
      items.push(...decoded.items)
      cursor = decoded.nextCursor ?? undefined
      pages++
    } while (cursor !== undefined && pages < 50)
    expect(cursor).toBeUndefined()
    return { items, pages }
  })

describe("notification list JSON from PostgreSQL", () => {
  it.scoped("pages are the decoded pages' JSON byte for byte, for every caller, read and unread", () =>
    Effect.gen(function* () {
      const published = yield* seed(45)
      const marks = published.filter((_, i) => i % 4 === 1).map((n) => n.id)
      expect((yield* call("PATCH", "/api/notifications/read", { as: ALICE.as, json: { ids: marks } })).status).toBe(200)
      expect((yield* call("PATCH", "/api/notifications/read", { as: BOB.as })).status).toBe(200)
      const later = yield* seed(20, 45)
      yield* call("PATCH", "/api/notifications/read", { as: BOB.as, json: { ids: later.filter((_, i) => i % 3 === 0).map((n) => n.id) } })

      for (const caller of [ALICE, BOB, CAROL, ROOT]) {
        for (const limit of [undefined, 7, 200]) {
          const { items, pages } = yield* pagesOf(caller, limit)
          if (limit === 7) expect(pages, caller.as).toBeGreaterThan(1)
          expect(new Set(items.map((item) => item.id)).size).toBe(items.length)
        }
      }
      const everything = [...(yield* pagesOf(ROOT, 200)).items, ...(yield* pagesOf(ALICE, 200)).items, ...(yield* pagesOf(BOB, 200)).items]
      expect(everything.some((item) => item.read)).toBe(true)
      expect(everything.some((item) => !item.read)).toBe(true)
      expect(everything.map((item) => item.audience)).toContainEqual({ permission: "players.ban" })
      expect(everything.map((item) => item.audience)).toContainEqual({ userId: "alice" })
      expect(everything.map((item) => item.audience)).toContain("all")
      for (const text of TEXTS) expect(everything.some((item) => item.title.startsWith(text)), text).toBe(true)
    }).pipe(Effect.zipRight(expectPostgres), Effect.provide(onPostgres)), 120_000)

  it.scoped("cleared watermarks, an empty list and a level edited by hand", () =>
    Effect.gen(function* () {
      expect((yield* request("GET", "/api/notifications", { as: CAROL.as })).text).toBe('{"items":[],"nextCursor":null,"unreadCount":0}')
      yield* seed(12)
      expect((yield* call("DELETE", "/api/notifications", { as: CAROL.as })).status).toBe(200)
      expect((yield* pagesOf(CAROL)).items).toEqual([])
      yield* seed(12, 12)
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`UPDATE notifications SET level = 'fatal' WHERE audience_kind = 'all'`)
      const { items } = yield* pagesOf(CAROL, 4)
      expect(items.length).toBeGreaterThan(0)
      expect(items.every((item) => item.level === "info")).toBe(true)
      yield* pagesOf(ALICE, 5)
    }).pipe(Effect.zipRight(expectPostgres), Effect.provide(onPostgres)), 120_000)
})
