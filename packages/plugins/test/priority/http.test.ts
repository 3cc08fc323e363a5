/**
 * The priority queue routes in the real controller: access, validation
 * (400 naming the field), id normalisation, 404 and 409, list filters and
 * pages, export.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, entry, failure, makeController, MANAGER, OTHER, page, STEAM2, STEAM3, STEAM64, THIRD } from "./support.js"

const BASE = "/api/priority-queue"
const withController = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.flatMap(makeController, (c) => Effect.provide(body, c.layer))

const future = () => new Date(Date.now() + 86_400_000).toISOString()
const add = (json: Record<string, unknown>) => call("POST", BASE, { as: MANAGER, json })
const detailPaths = (details: unknown) => (Array.isArray(details) ? details.map((d: { path?: unknown }) => String(d.path)) : [])

describe("priority queue over HTTP", () => {
  it.scopedLive("every route needs priority.manage", () =>
    withController(
      Effect.gen(function* () {
        const routes = [
          ["GET", BASE],
          ["POST", BASE],
          ["PATCH", `${BASE}/x`],
          ["DELETE", `${BASE}/x`],
          ["GET", `${BASE}/export`],
          ["POST", `${BASE}/import`],
          ["POST", `${BASE}/cleanup`]
        ] as const
        for (const [method, path] of routes) {
          expect((yield* call(method, path)).status, `${method} ${path} anonymous`).toBe(401)
          expect((yield* call(method, path, { as: "v:server.view", json: {} })).status, `${method} ${path} viewer`).toBe(403)
        }
      })
    )
  )

  it.scopedLive("add stores Steam64 whatever form was sent; addedBy is the caller; 409 for the same player", () =>
    withController(
      Effect.gen(function* () {
        const expiresAt = future()
        const created = yield* add({ platformId: STEAM2, playerName: " Survivor ", role: "VIP", expiresAt })
        expect(created.status).toBe(201)
        expect(entry(created)).toMatchObject({ platformId: STEAM64, playerName: "Survivor", name: "Survivor", role: "VIP", expiresAt, addedBy: "mia" })

        for (const form of [STEAM64, STEAM3, "STEAM_1:0:26039975"]) {
          const again = yield* add({ platformId: form, playerName: "Copy", role: "Supporter", expiresAt: null })
          expect(again.status, form).toBe(409)
          expect(failure(again).error).toBe("conflict")
        }
        const permanent = yield* add({ platformId: OTHER, playerName: "Forever", role: "Premium", expiresAt: null })
        expect(entry(permanent).expiresAt).toBeNull()
        // expiresAt may be left out: permanent.
        expect(entry(yield* add({ platformId: THIRD, playerName: "NoExpiry", role: "VIP" })).expiresAt).toBeNull()
      })
    )
  )

  it.scopedLive("add rejects bad ids, roles, names and past or malformed dates, naming the field", () =>
    withController(
      Effect.gen(function* () {
        const good = { platformId: STEAM64, playerName: "A", role: "VIP", expiresAt: null }
        const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
          [{ ...good, platformId: "12345" }, "platformId"],
          [{ ...good, platformId: "not-an-id" }, "platformId"],
          [{ ...good, platformId: "STEAM_0:0:0" }, "platformId"],
          [{ ...good, role: "Admin" }, "role"],
          [{ ...good, role: "vip" }, "role"],
          [{ ...good, playerName: "" }, "playerName"],
          [{ ...good, playerName: "two\nlines" }, "playerName"],
          [{ platformId: STEAM64, role: "VIP" }, "playerName"],
          [{ ...good, expiresAt: "tomorrow" }, "expiresAt"],
          [{ ...good, expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt"]
        ]
        for (const [body, field] of cases) {
          const reply = yield* add(body)
          expect(reply.status, JSON.stringify(body)).toBe(400)
          expect(failure(reply).message, JSON.stringify(body)).toContain(field)
          expect(detailPaths(failure(reply).details)).toContain(field)
        }
        expect(page(yield* call("GET", BASE, { as: MANAGER })).items).toEqual([])
      })
    )
  )

  it.scopedLive("PATCH changes playerName, role and expiry; validates; 404 for unknown ids", () =>
    withController(
      Effect.gen(function* () {
        const id = entry(yield* add({ platformId: STEAM64, playerName: "A", role: "VIP", expiresAt: future() })).id
        const patched = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { playerName: "B", role: "Premium", expiresAt: null } })
        expect(patched.status).toBe(200)
        expect(entry(patched)).toMatchObject({ id, platformId: STEAM64, playerName: "B", name: "B", role: "Premium", expiresAt: null, addedBy: "mia" })

        const onlyName = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { playerName: "C" } })
        expect(entry(onlyName)).toMatchObject({ playerName: "C", role: "Premium", expiresAt: null })

        const badRole = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { role: "Gold" } })
        expect(badRole.status).toBe(400)
        expect(failure(badRole).message).toContain("role")
        const past = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { expiresAt: "2001-01-01T00:00:00.000Z" } })
        expect(past.status).toBe(400)
        expect(failure(past).message).toContain("expiresAt")

        const missing = yield* call("PATCH", `${BASE}/nope`, { as: MANAGER, json: { playerName: "X" } })
        expect(missing.status).toBe(404)
        expect(failure(missing).error).toBe("not-found")
      })
    )
  )

  it.scopedLive("DELETE removes; 404 after", () =>
    withController(
      Effect.gen(function* () {
        const id = entry(yield* add({ platformId: STEAM64, playerName: "A", role: "VIP", expiresAt: null })).id
        expect((yield* call("DELETE", `${BASE}/${id}`, { as: MANAGER })).status).toBe(204)
        expect((yield* call("DELETE", `${BASE}/${id}`, { as: MANAGER })).status).toBe(404)
        expect(page(yield* call("GET", BASE, { as: MANAGER })).items).toEqual([])
        // The player may be added again.
        expect((yield* add({ platformId: STEAM64, playerName: "A", role: "VIP", expiresAt: null })).status).toBe(201)
      })
    )
  )

  it.scopedLive("list filters by role and active, and pages with a cursor", () =>
    withController(
      Effect.gen(function* () {
        const ids: Array<string> = []
        for (let i = 0; i < 5; i++) {
          const platformId = (76561198000000010n + BigInt(i)).toString()
          const role = i % 2 === 0 ? "VIP" : "Supporter"
          ids.push(entry(yield* add({ platformId, playerName: `P${i}`, role, expiresAt: null })).id)
        }
        const vip = page(yield* call("GET", `${BASE}?role=VIP`, { as: MANAGER }))
        expect(vip.items.map((e) => e.playerName).sort()).toEqual(["P0", "P2", "P4"])
        expect((yield* call("GET", `${BASE}?role=Gold`, { as: MANAGER })).status).toBe(400)

        expect(page(yield* call("GET", `${BASE}?active=true`, { as: MANAGER })).items).toHaveLength(5)
        expect(page(yield* call("GET", `${BASE}?active=false`, { as: MANAGER })).items).toHaveLength(0)

        const seen: Array<string> = []
        let cursor: string | null = null
        let pages = 0
        do {
          const path: string = `${BASE}?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`
          const current = page(yield* call("GET", path, { as: MANAGER }))
          seen.push(...current.items.map((e) => e.id))
          cursor = current.nextCursor
          pages++
        } while (cursor !== null && pages < 10)
        expect(pages).toBe(3)
        expect([...seen].sort()).toEqual([...ids].sort())
        expect(new Set(seen).size).toBe(5)

        expect((yield* call("GET", `${BASE}?cursor=garbage`, { as: MANAGER })).status).toBe(400)
        expect((yield* call("GET", `${BASE}?limit=0`, { as: MANAGER })).status).toBe(400)
      })
    )
  )

  it.scopedLive("export is every entry as a JSON download named by date", () =>
    withController(
      Effect.gen(function* () {
        yield* add({ platformId: STEAM64, playerName: "A", role: "VIP", expiresAt: null })
        yield* add({ platformId: OTHER, playerName: "B", role: "Premium", expiresAt: future() })
        const reply = yield* call("GET", `${BASE}/export`, { as: MANAGER })
        expect(reply.status).toBe(200)
        const today = new Date().toISOString().slice(0, 10)
        expect(reply.headers["content-disposition"]).toBe(`attachment; filename="service-priority-${today}.json"`)
        const body = reply.body as ReadonlyArray<Record<string, unknown>>
        expect(body.map((e) => e["platformId"])).toEqual([STEAM64, OTHER])
        // `name` (deprecated) is answered beside `playerName` for one release.
        expect(Object.keys(body[0] ?? {}).sort()).toEqual(["addedAt", "addedBy", "expiresAt", "id", "name", "platformId", "playerName", "role", "source"])
        expect(body.map((e) => [e["playerName"], e["name"]])).toEqual([["A", "A"], ["B", "B"]])
      })
    )
  )

  it.scopedLive("name is the deprecated spelling of playerName: accepted alone or equal, refused when it differs", () =>
    withController(
      Effect.gen(function* () {
        // An older client's body, with `name` alone: stored as the player name, answered under both keys.
        const old = yield* add({ platformId: STEAM64, name: "Old client", role: "VIP" })
        expect(old.status, JSON.stringify(old.body)).toBe(201)
        expect(entry(old)).toMatchObject({ playerName: "Old client", name: "Old client" })
        expect((yield* add({ platformId: OTHER, playerName: "Both", name: "Both", role: "VIP" })).status).toBe(201)
        const differ = yield* add({ platformId: THIRD, playerName: "One", name: "Other", role: "VIP" })
        expect(differ.status).toBe(400)
        expect(detailPaths(failure(differ).details)).toEqual(["name"])
        expect(failure(differ).message).toContain("send playerName alone")

        const id = entry(old).id
        const renamed = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { name: "Renamed" } })
        expect(entry(renamed)).toMatchObject({ playerName: "Renamed", name: "Renamed" })
        const conflicting = yield* call("PATCH", `${BASE}/${id}`, { as: MANAGER, json: { playerName: "A", name: "B" } })
        expect(conflicting.status).toBe(400)
        expect(detailPaths(failure(conflicting).details)).toEqual(["name"])
        // The list answers both keys too.
        expect(page(yield* call("GET", BASE, { as: MANAGER })).items.map((e) => [e.playerName, e.name])).toEqual([
          ["Renamed", "Renamed"],
          ["Both", "Both"]
        ])
      })
    )
  )
})
