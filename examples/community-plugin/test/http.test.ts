/**
 * The plugin in the controller (`@garrison/testkit`'s in-process
 * controller: the real host on a loopback port, a throw-away data
 * directory, the test authenticator), exercised over HTTP as a client
 * would. `loading.e2e.test.ts` loads it into the controller process through
 * `PLUGINS`, as an operator does.
 */
import type { HttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { undocumentedEndpoints } from "@garrison/runtime"
import { call as api, eventually, testController } from "@garrison/testkit"
import { Effect } from "effect"
import { MotdApi } from "../src/contract/Api.js"
import MotdPlugin from "../src/index.js"

const MANAGER = "mia:motd.manage"
const READER = "rex:server.view"

interface MotdPage {
  readonly items: ReadonlyArray<{ readonly id: string; readonly text: string }>
  readonly nextCursor: string | null
}

const messageIds = (body: unknown) => (body as MotdPage).items.map((m) => m.id)

/**
 * A test against a controller of its own with the motd plugin, on the live
 * clock as in a real controller (messages get real, distinct times).
 */
const test = <E>(name: string, body: () => Effect.Effect<void, E, HttpClient.HttpClient>) =>
  it.scopedLive(name, () => Effect.provide(body(), testController([MotdPlugin])))

describe("motd over HTTP", () => {
  describe("permission", () => {
    test("the routes are mounted with the access the plugin declared", () =>
      Effect.gen(function* () {
        const { body } = yield* api("GET", "/api/openapi.json")
        const paths = (body as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths
        const access = (path: string, method: string) => ({
          access: paths[path]?.[method]?.["x-garrison-access"],
          plugin: paths[path]?.[method]?.["x-garrison-plugin"]
        })
        expect(access("/api/motd", "get")).toEqual({ access: "Any auth", plugin: "motd" })
        expect(access("/api/motd/stats", "get")).toEqual({ access: "Any auth", plugin: "motd" })
        expect(access("/api/motd", "post")).toEqual({ access: "motd.manage", plugin: "motd" })
        expect(access("/api/motd/{id}", "delete")).toEqual({ access: "motd.manage", plugin: "motd" })
      }))

    test("every endpoint is documented: a summary, its permission in words, an example body", () =>
      Effect.gen(function* () {
        // The check a plugin's own tests can run; the controller also warns at start-up.
        expect(undocumentedEndpoints(MotdApi)).toEqual([])
        const { body } = yield* api("GET", "/api/openapi.json")
        const post = (body as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths["/api/motd"]?.["post"]
        expect(post?.["summary"]).toBe("Post a message of the day")
        expect(String(post?.["description"])).toMatch(
          /Needs the `motd\.manage` permission \(.+\)\. Admins may call every operation\. Rate limit: `api`, 600 requests per 1m per client address\.$/
        )
        expect(post?.["requestBody"]).toMatchObject({ content: { "application/json": { example: { text: expect.any(String) } } } })
      }))

    test("reading needs a signed-in caller, but no permission", () =>
      Effect.gen(function* () {
        const anonymous = yield* api("GET", "/api/motd")
        expect(anonymous.status).toBe(401)
        expect(anonymous.body).toMatchObject({ error: "unauthenticated" })
        const reader = yield* api("GET", "/api/motd", { as: READER })
        expect(reader.status).toBe(200)
      }))

    test("posting and deleting without motd.manage is 403 naming the permission; nothing changes", () =>
      Effect.gen(function* () {
        const posted = yield* api("POST", "/api/motd", { as: READER, json: { text: "not allowed" } })
        expect(posted.status).toBe(403)
        expect(posted.body).toEqual({
          error: "forbidden",
          message: 'missing permission "motd.manage"',
          details: { permission: "motd.manage", role: "test" }
        })

        const own = yield* api("POST", "/api/motd", { as: MANAGER, json: { text: "keep me" } })
        const id = (own.body as { id: string }).id
        const deleted = yield* api("DELETE", `/api/motd/${id}`, { as: READER })
        expect(deleted.status).toBe(403)
        expect(deleted.body).toMatchObject({ error: "forbidden", details: { permission: "motd.manage" } })

        const list = yield* api("GET", "/api/motd", { as: READER })
        expect(messageIds(list.body)).toContain(id)
        expect((list.body as MotdPage).items.map((m) => m.text)).not.toContain("not allowed")
      }))

    test("admin implies motd.manage", () =>
      Effect.gen(function* () {
        const posted = yield* api("POST", "/api/motd", { as: "root:admin", json: { text: "from admin" } })
        expect(posted.status).toBe(201)
      }))
  })

  describe("routes", () => {
    test("create, list, delete, and 404 for a message that is gone", () =>
      Effect.gen(function* () {
        const first = yield* api("POST", "/api/motd", { as: MANAGER, json: { text: "  Restart at 18:00 UTC  " } })
        expect(first.status).toBe(201)
        expect(first.body).toMatchObject({ text: "Restart at 18:00 UTC", author: "mia" })
        const { id, postedAt } = first.body as { id: string; postedAt: string }
        expect(Number.isNaN(Date.parse(postedAt))).toBe(false)

        const listed = yield* api("GET", "/api/motd", { as: READER })
        expect((listed.body as MotdPage).items).toContainEqual(first.body)

        const deleted = yield* api("DELETE", `/api/motd/${id}`, { as: MANAGER })
        expect(deleted).toEqual({ status: 204, body: undefined })
        const after = yield* api("GET", "/api/motd", { as: READER })
        expect(messageIds(after.body)).not.toContain(id)

        const again = yield* api("DELETE", `/api/motd/${id}`, { as: MANAGER })
        expect(again.status).toBe(404)
        expect(again.body).toEqual({ error: "not-found", message: `no message with id "${id}"` })
      }))

    test("a bad body is 400 naming the field, and stores nothing", () =>
      Effect.gen(function* () {
        const before = yield* api("GET", "/api/motd", { as: READER })
        for (const json of [{}, { text: "   " }, { text: 42 }, { text: "x".repeat(281) }]) {
          const response = yield* api("POST", "/api/motd", { as: MANAGER, json })
          expect(response.status, JSON.stringify(json)).toBe(400)
          expect(response.body).toMatchObject({ error: "invalid-request", details: [{ path: "text" }] })
        }
        // The host's rule for every plugin: a field the body does not have is refused, not dropped.
        const unknown = yield* api("POST", "/api/motd", { as: MANAGER, json: { text: "hi", pinned: true } })
        expect(unknown.status).toBe(400)
        expect(unknown.body).toMatchObject({ error: "invalid-request", details: [{ path: "pinned" }] })
        const notJson = yield* api("POST", "/api/motd", {
          as: MANAGER,
          text: { body: "{text:", contentType: "application/json" }
        })
        expect(notJson.status).toBe(400)
        expect(notJson.body).toMatchObject({ error: "invalid-json" })
        const after = yield* api("GET", "/api/motd", { as: READER })
        expect(after.body).toEqual(before.body)
      }))
  })

  describe("list", () => {
    test("answers {items, nextCursor} in pages: limit, then nextCursor until null, newest first", () =>
      Effect.gen(function* () {
        for (const text of ["page a", "page b", "page c"]) yield* api("POST", "/api/motd", { as: MANAGER, json: { text } })
        const all = (yield* api("GET", "/api/motd?limit=200", { as: READER })).body as MotdPage
        expect(all.items.length).toBeGreaterThanOrEqual(3)
        expect(all.items.slice(0, 3).map((m) => m.text)).toEqual(["page c", "page b", "page a"])
        const walked: Array<string> = []
        for (let cursor: string | null | undefined; cursor !== null; ) {
          const page = (yield* api("GET", `/api/motd?limit=2${cursor === undefined ? "" : `&cursor=${cursor}`}`, { as: READER })).body as MotdPage
          expect(page.items.length).toBeLessThanOrEqual(2)
          walked.push(...page.items.map((m) => m.id))
          cursor = page.nextCursor
        }
        expect(walked).toEqual(all.items.map((m) => m.id))
        const forged = yield* api("GET", "/api/motd?cursor=bm90LWEtY3Vyc29y", { as: READER })
        expect(forged.status).toBe(400)
        expect(forged.body).toMatchObject({ error: "invalid-request", details: [{ path: "cursor" }] })
      }))
  })

  describe("event handler", () => {
    test("MotdPosted is counted per author, and deleting a message does not uncount it", () =>
      Effect.gen(function* () {
        for (const text of ["one", "two", "three"]) {
          yield* api("POST", "/api/motd", { as: "cleo:motd.manage", json: { text } })
        }
        const last = yield* api("POST", "/api/motd", { as: "dan:motd.manage", json: { text: "four" } })
        yield* api("DELETE", `/api/motd/${(last.body as { id: string }).id}`, { as: MANAGER })

        type Stats = { totalPosted: number; authors: ReadonlyArray<{ author: string; posted: number; lastPostedAt: string }> }
        const countOf = (stats: Stats, author: string) => stats.authors.find((a) => a.author === author)?.posted
        const stats = yield* eventually(
          Effect.map(api("GET", "/api/motd/stats", { as: READER }), (r) => r.body as Stats),
          (s) => countOf(s, "cleo") === 3 && countOf(s, "dan") === 1
        )
        expect(stats.authors.find((a) => a.author === "dan")).toEqual({
          author: "dan",
          posted: 1,
          lastPostedAt: (last.body as { postedAt: string }).postedAt
        })
        expect(stats.totalPosted).toBe(stats.authors.reduce((sum, a) => sum + a.posted, 0))
      }))
  })
})
