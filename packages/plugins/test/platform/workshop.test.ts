/**
 * Workshop lookups through `/api/workshop/*` against the example stand-in's
 * Steam Web API (its default catalogue): details, search and trending in
 * the list envelope, answers kept for a while, and a Web API that is down
 * or refuses the key is a 502 that says so.
 */
import { describe, expect, it } from "@effect/vitest"
import { tempDir } from "@garrison/testkit"
import { Effect } from "effect"
import { defaultCatalogue, setBehaviour, startWebApi, writeCatalogue } from "@garrison/example-sim-steamcmd"
import { ADMIN, call, platformController, VIEWER } from "./support.js"

const api = Effect.acquireRelease(
  Effect.promise(() => {
    const dir = tempDir("garrison-platform-api-")
    writeCatalogue(dir, defaultCatalogue())
    return startWebApi({ dir }).then((started) => ({ ...started, dir }))
  }),
  (started) => Effect.promise(() => started.close())
)

interface Page {
  readonly items: ReadonlyArray<{ readonly workshopId: string; readonly title: string; readonly timeUpdated: string | null; readonly sizeBytes: number }>
  readonly nextCursor: string | null
  readonly total: number
}

describe("workshop lookups", () => {
  it.scopedLive("details, search and trending in Steam's words, paged with cursors", () =>
    Effect.gen(function* () {
      const steamApi = yield* api
      yield* Effect.gen(function* () {
        const cf = yield* call("GET", "/api/workshop/details/1559212036", { as: VIEWER })
        expect(cf.status).toBe(200)
        expect(cf.body).toMatchObject({
          workshopId: "1559212036",
          title: "Community Framework",
          sizeBytes: 300000,
          timeUpdated: new Date(1700000000 * 1000).toISOString(),
          banned: false,
          tags: ["Mod"]
        })
        const missing = yield* call("GET", "/api/workshop/details/42", { as: VIEWER })
        expect(missing.status).toBe(404)
        expect(missing.text).toContain("no workshop item 42")
        expect((yield* call("GET", "/api/workshop/details/x1", { as: VIEWER })).status).toBe(400)

        const found = (yield* call("GET", "/api/workshop/search?q=admin", { as: VIEWER })).body as Page
        expect(found.items.map((i) => i.title).sort()).toEqual(["Community Online Tools", "VPPAdminTools"])
        expect(found.nextCursor).toBeNull()

        const first = (yield* call("GET", "/api/workshop/popular?limit=4", { as: VIEWER })).body as Page
        expect(first.items).toHaveLength(4)
        expect(first.total).toBe(6)
        expect(first.items[0]?.title).toBe("Community Framework")
        const second = (yield* call("GET", `/api/workshop/popular?limit=4&cursor=${first.nextCursor}`, { as: VIEWER })).body as Page
        expect(second.items).toHaveLength(2)
        expect(second.nextCursor).toBeNull()
        expect(new Set([...first.items, ...second.items].map((i) => i.workshopId)).size).toBe(6)

        const badCursor = yield* call("GET", "/api/workshop/popular?cursor=abc", { as: VIEWER })
        expect(badCursor.status).toBe(400)
        expect(badCursor.text).toContain("cursor")
        expect((yield* call("GET", "/api/workshop/search?q=", { as: VIEWER })).status).toBe(400)
        expect((yield* call("GET", "/api/workshop/search?q=cf&limit=101", { as: VIEWER })).status).toBe(400)
        expect((yield* call("GET", "/api/workshop/popular")).status).toBe(401)
      }).pipe(Effect.provide(platformController({ STEAM_WEB_API_URL: steamApi.url })))
    }))

  it.scopedLive("answers are kept (the status counts them); a refused key is 502, a Web API that is down 503, each naming it", () =>
    Effect.gen(function* () {
      const steamApi = yield* api
      yield* Effect.gen(function* () {
        expect((yield* call("GET", "/api/workshop/details/1559212036", { as: VIEWER })).status).toBe(200)
        expect((yield* call("GET", "/api/platform/status", { as: VIEWER })).body).toMatchObject({ workshopCache: { entries: 1, ttlSeconds: 600 } })

        // Steam now wants a key: the kept details still answer; a new query is refused.
        setBehaviour(steamApi.dir, { webApiKey: "ABCDEF0123456789" })
        expect((yield* call("GET", "/api/workshop/details/1559212036", { as: VIEWER })).status).toBe(200)
        const refused = yield* call("GET", "/api/workshop/popular", { as: VIEWER })
        expect(refused.status).toBe(502)
        expect(refused.text).toContain("Web API key")
        // With the key set, the same query answers (settings changes forget kept answers).
        expect((yield* call("PATCH", "/api/platform/settings", { as: ADMIN, json: { webApiKey: "ABCDEF0123456789" } })).status).toBe(200)
        expect((yield* call("GET", "/api/workshop/popular", { as: VIEWER })).status).toBe(200)

        expect((yield* call("PATCH", "/api/platform/settings", { as: ADMIN, json: { webApiUrl: "http://127.0.0.1:9" } })).status).toBe(200)
        // Unreachable is a passing state: 503, try again later.
        const down = yield* call("GET", "/api/workshop/details/1559212036", { as: VIEWER })
        expect(down.status).toBe(503)
        expect(down.text).toContain("http://127.0.0.1:9")
      }).pipe(Effect.provide(platformController({ STEAM_WEB_API_URL: steamApi.url })))
    }))
})
