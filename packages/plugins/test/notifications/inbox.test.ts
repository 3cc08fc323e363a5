/**
 * Notifications over HTTP: who sees what, read marks and clearing per
 * caller (broadcasts included), pagination, and what publishers may send.
 */
import { describe, expect, it } from "@effect/vitest"
import { on, Plugin } from "@garrison/runtime"
import { Context, Effect, Layer, Ref } from "effect"
import { type NotificationInput, NotificationPublished, Notifications } from "../../src/notifications/index.js"
import { call, eventually, notificationsController, type Reply } from "./support.js"

interface Item {
  readonly id: string
  readonly title: string
  readonly read: boolean
  readonly audience: unknown
  readonly level: string
  readonly link: string | null
  readonly serverId: string | null
}
interface Page {
  readonly items: ReadonlyArray<Item>
  readonly unreadCount: number
  readonly nextCursor: string | null
}

const asPage = (reply: Reply): Page => {
  expect(reply.status).toBe(200)
  return reply.body as Page
}
const inbox = (as: string, query = "") => Effect.map(call("GET", `/api/notifications${query}`, { as }), asPage)
const titles = (page: Page) => page.items.map((item) => item.title)

const publish = (title: string, audience: NotificationInput["audience"], extra: Partial<NotificationInput> = {}) =>
  Effect.flatMap(Notifications, (n) => n.publish({ audience, level: "info", title, message: `${title} body`, ...extra }))

const markRead = (as: string, json?: unknown) =>
  Effect.map(call("PATCH", "/api/notifications/read", { as, json }), (reply) => {
    expect(reply.status).toBe(200)
    return (reply.body as { marked: number }).marked
  })

const clear = (as: string) =>
  Effect.map(call("DELETE", "/api/notifications", { as }), (reply) => {
    expect(reply.status).toBe(200)
    return (reply.body as { cleared: number }).cleared
  })

const ALICE = "alice:server.restart"
const BOB = "bob:players.ban"

describe("who sees what", () => {
  it.scoped("a user audience reaches that principal, a permission audience its holders and admins, all everyone", () =>
    Effect.gen(function* () {
      yield* publish("for alice", { userId: "alice" })
      yield* publish("for restarters", { permission: "server.restart" })
      yield* publish("for everyone", "all")
      yield* publish("for bob", { userId: "bob" })
      yield* publish("for banners", { permission: "players.ban" }, { level: "error", link: "/bans" })

      const alice = yield* inbox(ALICE)
      expect(titles(alice)).toEqual(["for everyone", "for restarters", "for alice"])
      expect(alice.unreadCount).toBe(3)
      expect(alice.items.map((item) => item.audience)).toEqual(["all", { permission: "server.restart" }, { userId: "alice" }])

      const bob = yield* inbox(BOB)
      expect(titles(bob)).toEqual(["for banners", "for bob", "for everyone"])
      expect(bob.items[0]).toMatchObject({ level: "error", link: "/bans", read: false })

      expect(titles(yield* inbox("carol:"))).toEqual(["for everyone"])
      // admin grants every permission, so every permission audience; never someone else's user audience.
      expect(titles(yield* inbox("root:admin"))).toEqual(["for banners", "for everyone", "for restarters"])
      // Resolved per request: a permission lost is a notification no longer seen.
      expect(titles(yield* inbox("alice:"))).toEqual(["for everyone", "for alice"])

      const anonymous = yield* call("GET", "/api/notifications")
      expect(anonymous.status).toBe(401)
      expect((yield* call("DELETE", "/api/notifications")).status).toBe(401)
    }).pipe(Effect.provide(notificationsController())))

  it.scoped("a notification about a server reaches only callers who may view that server; a permission held there alone is enough", () =>
    Effect.gen(function* () {
      yield* publish("A crashed", { permission: "server.view" }, { serverId: "A" })
      yield* publish("B crashed", { permission: "server.view" }, { serverId: "B" })
      const aboutB = yield* publish("B for everyone", "all", { serverId: "B" })
      yield* publish("for everyone", "all")

      // Scoped to A: A's alert through the permission held on A alone; nothing about B, even for everyone.
      const scoped = "sam:server.view@A"
      const sam = yield* inbox(scoped)
      expect(titles(sam)).toEqual(["for everyone", "A crashed"])
      expect(sam.items.find((item) => item.title === "A crashed")).toMatchObject({ serverId: "A" })
      expect(sam.unreadCount).toBe(2)
      // Ids of B's are ignored: nothing marked, nothing cleared beyond what sam sees.
      expect(yield* markRead(scoped, { ids: [aboutB.id] })).toBe(0)
      expect(yield* clear(scoped)).toBe(2)

      // Another permission scoped to A does not reach a server.view audience, but A's servers stay visible.
      expect(titles(yield* inbox("rex:server.restart@A"))).toEqual(["for everyone"])
      // Held everywhere (and admin): every server's.
      expect(titles(yield* inbox("vic:server.view"))).toEqual(["for everyone", "B for everyone", "B crashed", "A crashed"])
      expect(titles(yield* inbox("root:admin"))).toEqual(["for everyone", "B for everyone", "B crashed", "A crashed"])
    }).pipe(Effect.provide(notificationsController())))

  it.scoped("publishers get InvalidNotification for bad input: unknown permission, empty title, unsafe link", () =>
    Effect.gen(function* () {
      const failure = (input: Partial<NotificationInput>) =>
        Effect.flip(publish("t", "all", input)).pipe(Effect.map((error) => [error._tag, error.message] as const))
      const [tag, message] = yield* failure({ audience: { permission: "server.restrat" } })
      expect(tag).toBe("InvalidNotification")
      expect(message).toContain("server.restrat")
      expect((yield* failure({ title: "   " }))[0]).toBe("InvalidNotification")
      expect((yield* failure({ message: "" }))[0]).toBe("InvalidNotification")
      expect((yield* failure({ link: "javascript:alert(1)" }))[1]).toContain("link")
      expect((yield* failure({ link: "//evil.example/x" }))[0]).toBe("InvalidNotification")
      expect((yield* failure({ audience: { userId: "" } }))[0]).toBe("InvalidNotification")

      const ok = yield* publish("  padded  ", { userId: "alice" }, { link: "https://example.com/x" })
      expect(ok).toMatchObject({ title: "padded", link: "https://example.com/x", read: false, audience: { userId: "alice" } })
      expect(titles(yield* inbox("alice:"))).toEqual(["padded"])
    }).pipe(Effect.provide(notificationsController())))
})

describe("read marks", () => {
  it.scoped("are per caller, even for broadcasts; ids absent means all", () =>
    Effect.gen(function* () {
      const first = yield* publish("first", "all")
      yield* publish("second", "all")
      const mine = yield* publish("mine", { userId: "alice" })

      expect(yield* markRead(ALICE, { ids: [first.id] })).toBe(1)
      expect(yield* markRead(ALICE, { ids: [first.id] })).toBe(0)
      const alice = yield* inbox(ALICE)
      expect(alice.items.map((item) => [item.title, item.read])).toEqual([["mine", false], ["second", false], ["first", true]])
      expect(alice.unreadCount).toBe(2)

      // Alice's read mark is hers: Bob still has both broadcasts unread.
      const bob = yield* inbox(BOB)
      expect(bob.items.map((item) => item.read)).toEqual([false, false])
      expect(bob.unreadCount).toBe(2)
      // Ids the caller cannot see (or that do not exist) are ignored.
      expect(yield* markRead(BOB, { ids: [mine.id, "no-such-id"] })).toBe(0)
      expect((yield* inbox(ALICE)).items[0]).toMatchObject({ title: "mine", read: false })

      // No body at all, or a body without ids: everything the caller sees.
      expect(yield* markRead(ALICE)).toBe(2)
      expect(yield* inbox(ALICE)).toMatchObject({ unreadCount: 0 })
      expect((yield* inbox(ALICE)).items.every((item) => item.read)).toBe(true)

      yield* publish("third", "all")
      const later = yield* inbox(ALICE)
      expect(later.unreadCount).toBe(1)
      expect(later.items.map((item) => [item.title, item.read])[0]).toEqual(["third", false])
      expect(yield* markRead(ALICE, {})).toBe(1)
      expect(yield* markRead(ALICE, { ids: [] })).toBe(0)
      expect(yield* inbox(BOB)).toMatchObject({ unreadCount: 3 })

      const bad = yield* call("PATCH", "/api/notifications/read", { as: ALICE, json: { ids: "all" } })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ error: "invalid-request" })
    }).pipe(Effect.provide(notificationsController())))
})

describe("clearing", () => {
  it.scoped("hides what the caller sees now, for that caller only; later notifications still arrive", () =>
    Effect.gen(function* () {
      const first = yield* publish("first", "all")
      yield* publish("mine", { userId: "alice" })
      expect(yield* markRead(ALICE, { ids: [first.id] })).toBe(1)

      expect(yield* clear(ALICE)).toBe(2)
      expect(yield* inbox(ALICE)).toEqual({ items: [], unreadCount: 0, nextCursor: null })
      expect(yield* inbox(BOB)).toMatchObject({ unreadCount: 1, items: [{ title: "first", read: false }] })

      yield* publish("after", "all")
      const alice = yield* inbox(ALICE)
      expect(titles(alice)).toEqual(["after"])
      expect(alice.unreadCount).toBe(1)
      expect(yield* clear(ALICE)).toBe(1)
      expect(yield* clear(ALICE)).toBe(0)
      expect(titles(yield* inbox(BOB))).toEqual(["after", "first"])
    }).pipe(Effect.provide(notificationsController())))
})

describe("pagination", () => {
  it.scoped("keyset pages, newest first, no duplicates or gaps while notifications keep arriving", () =>
    Effect.gen(function* () {
      for (let i = 1; i <= 120; i++) yield* publish(`n${i}`, i % 3 === 0 ? "all" : { userId: "alice" })
      yield* publish("not alice's", { userId: "bob" })

      expect((yield* inbox(ALICE)).items).toHaveLength(50)
      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const page: Page = yield* inbox(ALICE, `?limit=50${cursor === null ? "" : `&cursor=${cursor}`}`)
        seen.push(...titles(page))
        cursor = page.nextCursor
        yield* publish("late", "all")
      } while (cursor !== null)
      expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `n${120 - i}`))
      expect((yield* inbox(ALICE, "?limit=200")).unreadCount).toBe(123)

      for (const query of ["?limit=0", "?limit=201", "?cursor=bm9wZQ"]) {
        const reply = yield* call("GET", `/api/notifications${query}`, { as: ALICE })
        expect(reply.status, query).toBe(400)
        expect(reply.body, query).toMatchObject({ error: "invalid-request" })
      }
    }).pipe(Effect.provide(notificationsController())))
})

class Seen extends Context.Tag("test/SeenNotifications")<Seen, Ref.Ref<ReadonlyArray<string>>>() {}

/** Subscribes to `NotificationPublished` the way another plugin would. */
const ListenerPlugin = Plugin.make({
  id: "listener",
  dependsOn: ["notifications"],
  layer: Layer.effect(Seen, Ref.make<ReadonlyArray<string>>([])),
  events: [on(NotificationPublished, (event) => Effect.flatMap(Seen, (seen) => Ref.update(seen, (all) => [...all, event.title])))]
})

describe("events", () => {
  it.scoped("each published notification is announced on the event bus after it is stored", () =>
    Effect.gen(function* () {
      yield* publish("announced", { permission: "server.restart" })
      const seen = yield* Seen
      expect(yield* eventually(Ref.get(seen), (titles) => titles.length === 1)).toEqual(["announced"])
    }).pipe(
      Effect.provide(notificationsController([ListenerPlugin]) as Layer.Layer<Notifications | Seen>)
    ))
})
