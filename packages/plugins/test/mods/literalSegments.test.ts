/**
 * The mods routes whose paths a linter calls ambiguous
 * (`/mods/{modName}/type` beside `/mods/update/{workshopId}`,
 * `/mods/updates/{workshopId}` and `/mods/uninstall/{workshopId}`): a
 * request reaches the route its method and literal segments name. A literal
 * segment (`update`, `updates`, `uninstall`) wins over `{modName}`, even when
 * the last segment is `type`; `{modName}` is only what no literal route of
 * that method takes.
 */
import { describe, expect, it } from "@effect/vitest"
import { fakeInstall } from "@garrison/testkit"
import { Effect } from "effect"
import { ADMIN, call, createServer, fakeSteam, installed, jobEnd, MODDER, modsController, webApi } from "./support.js"

const CF = "1559212036"

describe("mods routes: literal segments win over {modName}", () => {
  it.scopedLive("update, updates and uninstall reach their own routes; {modName}/type takes the rest", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF" })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const id = yield* createServer(fakeInstall())
        yield* installed(id, { workshopId: CF })
        const mods = `/api/servers/${id}/mods`

        // POST .../update/{workshopId} is updateOne: a job for that mod (202), never a type change.
        const updated = yield* call("POST", `${mods}/update/${CF}`, { as: MODDER })
        expect([updated.status, (updated.body as { workshopId?: string }).workshopId], updated.text).toEqual([202, CF])
        expect((yield* jobEnd((updated.body as { id: string }).id)).state).toBe("done")
        // Even spelt like setType's path, POST and DELETE reach the literal routes, which judge "type" as a workshop id.
        const postType = yield* call("POST", `${mods}/update/type`, { as: MODDER, json: { type: "server" } })
        expect(postType.status, postType.text).toBe(400)
        expect(postType.text).toContain("workshopId")
        for (const literal of ["updates", "uninstall"]) {
          const deleted = yield* call("DELETE", `${mods}/${literal}/type`, { as: MODDER })
          expect(deleted.status, `${literal}: ${deleted.text}`).toBe(400)
          expect(deleted.text).toContain("workshopId")
        }
        expect((yield* call("DELETE", `${mods}/updates/${CF}`, { as: MODDER })).status).toBe(204)

        // PATCH has no literal route there: `update` is a mod name for setType, and no mod has it.
        const patched = yield* call("PATCH", `${mods}/update/type`, { as: MODDER, json: { type: "server" } })
        expect(patched.status, patched.text).toBe(404)
        expect(patched.text).toContain("update")
        // The installed mod by its workshop id through the same route.
        const typed = yield* call("PATCH", `${mods}/${CF}/type`, { as: MODDER, json: { type: "server" } })
        expect([typed.status, (typed.body as { type?: string }).type]).toEqual([200, "server"])

        // The uninstall route, last: the mod goes.
        expect((yield* call("DELETE", `${mods}/uninstall/${CF}`, { as: ADMIN })).status).toBe(204)
      }).pipe(Effect.provide(layer))
    }))
})
