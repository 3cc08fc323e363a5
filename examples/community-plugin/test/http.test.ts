/**
 * The plugin loaded into the real controller process with
 * `PLUGINS=./examples/community-plugin`, exercised over loopback HTTP.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { GarrisonConfig, Runtime, undocumentedEndpoints } from "@garrison/runtime"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { MotdApi } from "../src/contract/Api.js"
import MotdPlugin from "../src/index.js"
import { call, ControllerProcess, controllerLayer, eventually, startController, tempDataDir } from "./support.js"

const MANAGER = "mia:motd.manage"
const READER = "rex:server.view"

/** The controller in context, called with `path` relative to it. */
const api = (method: "GET" | "POST" | "DELETE", path: string, options: Parameters<typeof call>[3] = {}) =>
  Effect.flatMap(ControllerProcess, (controller) => call(controller.baseUrl, method, path, options))

const runtimeLayer = (dataDir: string) =>
  Runtime.layer([MotdPlugin], { scheduledBackups: false }).pipe(
    Layer.provide(GarrisonConfig.layerWith({ dataDir })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )

const messageIds = (body: unknown) => (body as ReadonlyArray<{ readonly id: string }>).map((m) => m.id)

layer(controllerLayer(tempDataDir()), { excludeTestServices: true, timeout: "30 seconds" })("motd over HTTP", (it) => {
  describe("permission", () => {
    it.effect("the routes are mounted with the access the plugin declared", () =>
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

    it.effect("every endpoint is documented: a summary, its permission in words, an example body", () =>
      Effect.gen(function* () {
        // The check a plugin's own tests can run; the controller also warns at start-up.
        expect(undocumentedEndpoints(MotdApi)).toEqual([])
        const { body } = yield* api("GET", "/api/openapi.json")
        const post = (body as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths["/api/motd"]?.["post"]
        expect(post?.["summary"]).toBe("Post a message of the day")
        expect(String(post?.["description"])).toMatch(/Needs the `motd\.manage` permission \(.+\)\. Admins may call every operation\.$/)
        expect(post?.["requestBody"]).toMatchObject({ content: { "application/json": { example: { text: expect.any(String) } } } })
      }))

    it.effect("reading needs a signed-in caller, but no permission", () =>
      Effect.gen(function* () {
        const anonymous = yield* api("GET", "/api/motd")
        expect(anonymous.status).toBe(401)
        expect(anonymous.body).toMatchObject({ error: "unauthenticated" })
        const reader = yield* api("GET", "/api/motd", { as: READER })
        expect(reader.status).toBe(200)
      }))

    it.effect("posting and deleting without motd.manage is 403 naming the permission; nothing changes", () =>
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
        expect((list.body as ReadonlyArray<{ text: string }>).map((m) => m.text)).not.toContain("not allowed")
      }))

    it.effect("admin implies motd.manage", () =>
      Effect.gen(function* () {
        const posted = yield* api("POST", "/api/motd", { as: "root:admin", json: { text: "from admin" } })
        expect(posted.status).toBe(201)
      }))
  })

  describe("routes", () => {
    it.effect("create, list, delete, and 404 for a message that is gone", () =>
      Effect.gen(function* () {
        const first = yield* api("POST", "/api/motd", { as: MANAGER, json: { text: "  Restart at 18:00 UTC  " } })
        expect(first.status).toBe(201)
        expect(first.body).toMatchObject({ text: "Restart at 18:00 UTC", author: "mia" })
        const { id, postedAt } = first.body as { id: string; postedAt: string }
        expect(Number.isNaN(Date.parse(postedAt))).toBe(false)

        const listed = yield* api("GET", "/api/motd", { as: READER })
        expect(listed.body).toContainEqual(first.body)

        const deleted = yield* api("DELETE", `/api/motd/${id}`, { as: MANAGER })
        expect(deleted).toEqual({ status: 204, body: undefined })
        const after = yield* api("GET", "/api/motd", { as: READER })
        expect(messageIds(after.body)).not.toContain(id)

        const again = yield* api("DELETE", `/api/motd/${id}`, { as: MANAGER })
        expect(again.status).toBe(404)
        expect(again.body).toEqual({ error: "not-found", message: `no message with id "${id}"` })
      }))

    it.effect("a bad body is 400 naming the field, and stores nothing", () =>
      Effect.gen(function* () {
        const before = yield* api("GET", "/api/motd", { as: READER })
        for (const json of [{}, { text: "   " }, { text: 42 }, { text: "x".repeat(281) }]) {
          const response = yield* api("POST", "/api/motd", { as: MANAGER, json })
          expect(response.status, JSON.stringify(json)).toBe(400)
          expect(response.body).toMatchObject({ error: "invalid-request", details: [{ path: "text" }] })
        }
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

  describe("event handler", () => {
    it.effect("MotdPosted is counted per author, and deleting a message does not uncount it", () =>
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

describe("migrations over a restart", () => {
  it.live(
    "run on the first start only, recorded in garrison_migrations; messages survive the restart",
    () =>
      Effect.gen(function* () {
        const dataDir = tempDataDir()
        const run = <A, E>(use: (baseUrl: string) => Effect.Effect<A, E>) =>
          Effect.scoped(
            Effect.gen(function* () {
              const controller = yield* startController(dataDir)
              return { result: yield* use(controller.baseUrl), output: controller.output }
            })
          )

        const first = yield* run((baseUrl) => call(baseUrl, "POST", "/api/motd", { as: MANAGER, json: { text: "persisted" } }))
        expect(first.output()).toContain('Applied migration motd v1 "create motd_messages"')
        expect(first.output()).toContain('Applied migration motd v2 "create motd_stats"')

        // Same data directory, after the first process has stopped.
        const second = yield* run((baseUrl) => call(baseUrl, "GET", "/api/motd", { as: READER }))
        // Loaded through PLUGINS, after the default plugins.
        expect(second.output()).toMatch(/runtime started in \d+ ms with plugins: .*\bmotd, test-auth\b/)
        expect(second.output()).not.toContain("Applied migration")
        expect(second.result.body).toEqual([first.result.body])

        // The bookkeeping in the database the processes used, read in-process.
        const rows = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql`SELECT plugin_id, version, name FROM garrison_migrations WHERE plugin_id = 'motd' ORDER BY version`
        ).pipe(Effect.provide(runtimeLayer(dataDir)))
        expect(rows).toEqual([
          { plugin_id: "motd", version: 1, name: "create motd_messages" },
          { plugin_id: "motd", version: 2, name: "create motd_stats" }
        ])
      }),
    60_000
  )
})
