/**
 * Mods on a server through `/api/servers/:id/mods/*`: an install downloads
 * through SteamCMD into the shared cache and lands as `@<name>` with its
 * keys, the server entry's launch parameters follow every change, files of
 * a running server are never touched, hostile names stay inside the
 * server, and updates are found by comparing download and workshop times.
 */
import { describe, expect, it } from "@effect/vitest"
import { fakeInstall, request } from "@garrison/testkit"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { publishItemVersion } from "@garrison/example-sim-steamcmd"
import { ADMIN, call, createServer, fakeSteam, installed, jobEnd, MODDER, modsController, VIEWER, webApi } from "./support.js"

const CF = "1559212036"
const COT = "1564026768"
const LOADER = "2545327648"

interface Mod {
  readonly workshopId: string
  readonly name: string
  readonly type: string
  readonly enabled: boolean
  readonly loadOrder: number
  readonly keys: ReadonlyArray<string>
  readonly pendingUpdate: unknown
}
interface ModList {
  readonly items: ReadonlyArray<Mod>
  readonly launch: { readonly mod: string; readonly serverMod: string }
}

const modsOf = (id: string) => Effect.map(call("GET", `/api/servers/${id}/mods`, { as: VIEWER }), (r) => r.body as ModList)
/** The stored entry's launch lists (the backup answers entries as stored). */
const entryOf = (id: string) =>
  Effect.map(call("GET", "/api/backup/servers", { as: ADMIN }), (r) => {
    const servers = (r.body as { servers: ReadonlyArray<{ id: string; mods: ReadonlyArray<string>; serverMods: ReadonlyArray<string> }> }).servers
    return servers.find((s) => s.id === id)!
  })

describe("installing mods", () => {
  it.scopedLive("two mods land as folders with their keys, and the entry's launch parameters name them", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF", keys: ["CF.bikey"] })
      steam.publish(LOADER, { name: "DayZ-Editor-Loader", keys: ["InclementDab.bikey"] })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        const id = yield* createServer(dir)

        const cf = yield* installed(id, { workshopId: CF })
        expect(cf).toMatchObject({ state: "done", error: null, mod: { name: "@cf" } })
        const loader = yield* installed(id, { workshopId: LOADER, type: "server" })
        expect(loader.state).toBe("done")

        expect(Fs.readFileSync(NodePath.join(dir, "@cf", "meta.cpp"), "utf8")).toContain('name = "CF"')
        expect(Fs.readFileSync(NodePath.join(dir, "@cf", "addons", "data.pbo"), "utf8")).toBe(`item ${CF} version 1`)
        expect(Fs.readdirSync(NodePath.join(dir, "keys")).sort()).toEqual(["CF.bikey", "InclementDab.bikey"])
        // Nothing half-built is left beside the server's files.
        expect(Fs.readdirSync(NodePath.join(dir, ".garrison", "staging"))).toEqual([])

        const list = yield* modsOf(id)
        expect(list.items.map((m) => [m.workshopId, m.name, m.type, m.loadOrder, m.keys])).toEqual([
          [CF, "@cf", "client", 1, ["CF.bikey"]],
          [LOADER, "@dayz-editor-loader", "server", 2, ["InclementDab.bikey"]]
        ])
        expect(list.launch).toEqual({ mod: "@cf", serverMod: "@dayz-editor-loader" })
        expect(yield* entryOf(id)).toMatchObject({ mods: ["@cf"], serverMods: ["@dayz-editor-loader"] })
        // Downloads went to the shared cache, logged in with nothing but the stored account (none here: anonymous is never used).
        expect(steam.runs().length).toBe(2)

        // A second server takes the cached copy without downloading again.
        const other = yield* createServer(fakeInstall())
        expect((yield* installed(other, { workshopId: CF })).state).toBe("done")
        expect(steam.runs().length).toBe(2)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("refused: a running server (409), a mod installed twice (409), an unknown workshop id (400), bad ids (400)", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF" })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        const id = yield* createServer(dir)
        expect((yield* installed(id, { workshopId: CF })).state).toBe("done")

        const twice = yield* call("POST", `/api/servers/${id}/mods/install`, { as: MODDER, json: { workshopId: CF } })
        expect(twice.status).toBe(409)
        const unknown = yield* call("POST", `/api/servers/${id}/mods/install`, { as: MODDER, json: { workshopId: "999999" } })
        expect(unknown.status).toBe(400)
        expect(unknown.text).toContain("workshopId")
        for (const workshopId of ["../etc", "12 34", ""]) {
          expect((yield* call("POST", `/api/servers/${id}/mods/install`, { as: MODDER, json: { workshopId } })).status).toBe(400)
        }
        expect((yield* call("POST", `/api/servers/${id}/mods/install`, { as: VIEWER, json: { workshopId: COT } })).status).toBe(403)
        expect((yield* call("POST", `/api/servers/nope/mods/install`, { as: MODDER, json: { workshopId: COT } })).status).toBe(404)

        expect((yield* call("POST", `/api/servers/${id}/start`, { as: MODDER })).status).toBe(200)
        const running = yield* call("POST", `/api/servers/${id}/mods/install`, { as: MODDER, json: { workshopId: COT } })
        expect(running.status).toBe(409)
        expect(running.text).toContain("stop it first")
        expect((yield* call("DELETE", `/api/servers/${id}/mods/uninstall/${CF}`, { as: MODDER })).status).toBe(409)
        expect(Fs.existsSync(NodePath.join(dir, "@cf"))).toBe(true)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("a hostile meta.cpp name stays inside the server; a failed download leaves the server as it was", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "../../x" })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        const id = yield* createServer(dir)
        const job = yield* installed(id, { workshopId: CF })
        expect(job.mod?.name).toBe("@x")
        expect(Fs.existsSync(NodePath.join(dir, "@x", "meta.cpp"))).toBe(true)
        expect(Fs.existsSync(NodePath.join(dir, "..", "x"))).toBe(false)

        // COT is on the workshop (details answer) but the download fails.
        const before = Fs.readdirSync(dir).sort()
        const failed = yield* installed(id, { workshopId: COT })
        expect(failed.state).toBe("failed")
        expect(failed.error).toContain("not found")
        expect(Fs.readdirSync(dir).sort()).toEqual(before)
        expect((yield* modsOf(id)).items.map((m) => m.workshopId)).toEqual([CF])
      }).pipe(Effect.provide(layer))
    }))
})

describe("changing installed mods", () => {
  it.scopedLive("disable, type, load order and reorder drive the launch parameters; uninstall keeps shared keys", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF", keys: ["CF.bikey", "Shared.bikey"] })
      steam.publish(COT, { name: "COT", keys: ["Shared.bikey"] })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        const id = yield* createServer(dir)
        yield* installed(id, { workshopId: CF })
        yield* installed(id, { workshopId: COT })
        // An entry may name a folder by hand: it stays after the managed ones.
        expect((yield* call("PATCH", `/api/servers/${id}`, { as: ADMIN, json: { mods: ["@cf", "@cot", "@Handmade"] } })).status).toBe(200)

        expect((yield* call("PATCH", `/api/servers/${id}/mods/${COT}`, { as: MODDER, json: { loadOrder: 1 } })).status).toBe(200)
        expect((yield* entryOf(id)).mods).toEqual(["@cot", "@cf", "@Handmade"])
        expect((yield* call("PATCH", `/api/servers/${id}/mods/${CF}`, { as: MODDER, json: { enabled: false } })).status).toBe(200)
        expect((yield* entryOf(id)).mods).toEqual(["@cot", "@Handmade"])
        const typed = yield* call("PATCH", `/api/servers/${id}/mods/@COT/type`, { as: MODDER, json: { type: "server" } })
        expect(typed.body).toMatchObject({ name: "@cot", type: "server" })
        expect(yield* entryOf(id)).toMatchObject({ mods: ["@Handmade"], serverMods: ["@cot"] })

        const bad = yield* call("POST", `/api/servers/${id}/mods/reorder`, { as: MODDER, json: { order: [CF] } })
        expect(bad.status).toBe(400)
        expect(bad.text).toContain(`missing: ${COT}`)
        const reordered = yield* call("POST", `/api/servers/${id}/mods/reorder`, { as: MODDER, json: { order: [CF, COT] } })
        expect((reordered.body as ModList).items.map((m) => [m.workshopId, m.loadOrder])).toEqual([[CF, 1], [COT, 2]])

        expect((yield* call("DELETE", `/api/servers/${id}/mods/uninstall/${CF}`, { as: MODDER })).status).toBe(204)
        expect(Fs.existsSync(NodePath.join(dir, "@cf"))).toBe(false)
        expect(Fs.readdirSync(NodePath.join(dir, "keys")).sort()).toEqual(["Shared.bikey"])
        expect((yield* modsOf(id)).items.map((m) => [m.workshopId, m.loadOrder])).toEqual([[COT, 1]])
        expect((yield* call("DELETE", `/api/servers/${id}/mods/uninstall/${CF}`, { as: MODDER })).status).toBe(404)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("check-updates finds newer workshop versions; update replaces the files and clears it; pinned mods stay", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF" })
      steam.publish(COT, { name: "COT" })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        const id = yield* createServer(dir)
        yield* installed(id, { workshopId: CF })
        yield* installed(id, { workshopId: COT })
        const none = yield* call("POST", `/api/servers/${id}/mods/check-updates`, { as: MODDER })
        expect(none.body).toMatchObject({ checked: 2, pending: [], missing: [] })

        publishItemVersion(api.dir, CF, { timeUpdated: 1800000000 })
        publishItemVersion(api.dir, COT, { timeUpdated: 1800000000 })
        steam.publish(CF, { name: "CF", version: 2 })
        expect((yield* call("PATCH", `/api/servers/${id}/mods/${COT}`, { as: MODDER, json: { pinned: true } })).status).toBe(200)
        // The check asks Steam now, whatever answers are kept; pinned mods are listed, never applied.
        const found = yield* call("POST", `/api/servers/${id}/mods/check-updates`, { as: MODDER })
        expect((found.body as { pending: ReadonlyArray<Mod> }).pending.map((m) => m.workshopId).sort()).toEqual([CF, COT])
        expect((yield* call("GET", `/api/servers/${id}/mods/updates`, { as: VIEWER })).body).toMatchObject({ items: [{ workshopId: CF }, { workshopId: COT }] })

        const all = yield* call("POST", `/api/servers/${id}/mods/update-all`, { as: MODDER })
        expect(all.status).toBe(202)
        const jobs = (all.body as { jobs: ReadonlyArray<{ id: string; workshopId: string }> }).jobs
        expect(jobs.map((j) => j.workshopId)).toEqual([CF])
        expect((yield* jobEnd(jobs[0]!.id)).state).toBe("done")
        expect(Fs.readFileSync(NodePath.join(dir, "@cf", "addons", "data.pbo"), "utf8")).toBe(`item ${CF} version 2`)
        const after = yield* modsOf(id)
        expect(after.items.map((m) => [m.workshopId, m.pendingUpdate === null])).toEqual([[CF, true], [COT, false]])

        const pinned = yield* call("POST", `/api/servers/${id}/mods/update/${COT}`, { as: MODDER })
        expect(pinned.status).toBe(409)
        expect(pinned.text).toContain("pinned")
        expect((yield* call("DELETE", `/api/servers/${id}/mods/updates/${COT}`, { as: MODDER })).status).toBe(204)
        expect((yield* modsOf(id)).items.every((m) => m.pendingUpdate === null)).toBe(true)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("the cache: stats count what servers use; clean removes only items no server has", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF" })
      steam.publish(COT, { name: "COT" })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const id = yield* createServer(fakeInstall())
        yield* installed(id, { workshopId: CF })
        yield* installed(id, { workshopId: COT })
        expect((yield* call("DELETE", `/api/servers/${id}/mods/uninstall/${COT}`, { as: MODDER })).status).toBe(204)
        const stats = yield* call("GET", "/api/mods/cache/stats", { as: ADMIN })
        expect(stats.body).toMatchObject({ items: 2, unusedItems: 1 })
        expect((yield* call("GET", "/api/mods/cache/stats", { as: MODDER })).status).toBe(403)
        const cleaned = yield* call("POST", "/api/mods/cache/clean", { as: ADMIN })
        expect(cleaned.body).toMatchObject({ removed: [COT] })
        expect((yield* call("GET", "/api/mods/cache/stats", { as: ADMIN })).body).toMatchObject({ items: 1, unusedItems: 0 })
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("a caller whose roles name some servers sees only their jobs, in the list and the event stream", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF" })
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const a = yield* createServer(fakeInstall())
        const b = yield* createServer(fakeInstall())
        yield* installed(a, { workshopId: CF })
        yield* installed(b, { workshopId: CF })
        const scoped = `sam:mods.view,server.view@${a}`
        const listed = (yield* call("GET", "/api/mods/install-status", { as: scoped })).body as { items: ReadonlyArray<{ serverId: string }> }
        expect(listed.items.map((job) => job.serverId)).toEqual([a])
        const streamed = yield* request("GET", "/api/mods/install-status/events", { as: scoped })
        expect(streamed.text).toContain(a)
        expect(streamed.text).not.toContain(b)
        // mods.view granted on one server only (the tab's scoped moderator): that server's jobs, over both routes.
        const modsOnA = `mia:server.view,mods.view@${a}`
        const scopedJobs = (yield* call("GET", "/api/mods/install-status", { as: modsOnA })).body as { items: ReadonlyArray<{ serverId: string }> }
        expect(scopedJobs.items.map((job) => job.serverId)).toEqual([a])
        const scopedStream = yield* request("GET", "/api/mods/install-status/events", { as: modsOnA })
        expect(scopedStream.text).toContain(a)
        expect(scopedStream.text).not.toContain(b)
        // mods.view nowhere: refused, naming it.
        const none = yield* call("GET", "/api/mods/install-status", { as: "nat:server.view" })
        expect(none.status).toBe(403)
        expect(String((none.body as { message?: unknown }).message)).toContain("mods.view")
        expect((yield* request("GET", "/api/mods/install-status/events", { as: "nat:server.view" })).status).toBe(403)
        // Roles that name no server see every job.
        const everyone = (yield* call("GET", "/api/mods/install-status", { as: VIEWER })).body as { items: ReadonlyArray<{ serverId: string }> }
        expect(new Set(everyone.items.map((job) => job.serverId))).toEqual(new Set([a, b]))
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("install progress as Server-Sent Events until no job runs", () =>
    Effect.gen(function* () {
      const steam = fakeSteam()
      steam.publish(CF, { name: "CF" })
      steam.slow()
      const api = yield* webApi
      const { layer } = modsController(steam, api.url)
      yield* Effect.gen(function* () {
        const id = yield* createServer(fakeInstall())
        const started = yield* call("POST", `/api/servers/${id}/mods/install`, { as: MODDER, json: { workshopId: CF } })
        expect(started.status).toBe(202)
        const reply = yield* request("GET", "/api/mods/install-status/events", { as: VIEWER })
        expect(reply.headers["content-type"]).toContain("text/event-stream")
        const events = reply.text.trim().split("\n\n").map((block) => {
          const [event, data] = block.split("\n")
          expect(event).toBe("event: jobs")
          return (JSON.parse(data!.slice("data: ".length)) as { items: ReadonlyArray<{ state: string; workshopId: string }> }).items
        })
        expect(events.length).toBeGreaterThan(1)
        expect(events[0]?.[0]).toMatchObject({ workshopId: CF })
        expect(["queued", "downloading"]).toContain(events[0]?.[0]?.state)
        expect(events.at(-1)?.[0]?.state).toBe("done")
      }).pipe(Effect.provide(layer))
    }))
})
