/**
 * The scheduler routes in the real controller (`Controller.layerTest`):
 * access, validation (400 naming the field), 404s, and the CRUD round trip.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { call, makeFleet, type Reply, schedulerController } from "./support.js"

const OPERATOR = "olga:server.restart"
const VIEWER = "vic:server.view"
const BASE = "/api/servers/alpha/scheduler"

const controller = Effect.map(makeFleet({ alpha: "running", beta: "stopped" }), schedulerController)

/** Runs `body` against a fresh controller at 2025-01-06T03:00Z. */
const withController = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(Date.parse("2025-01-06T03:00:00.000Z"))
    return yield* Effect.provide(body, yield* controller)
  })

const restart = { kind: "restart", cron: "0 4 * * *", timeZone: "Europe/Berlin", warnings: [5, 15] }

interface JobBody {
  readonly id: string
  readonly enabled: boolean
  readonly nextRunAt: string | null
  readonly kind: string
}
const job = (reply: Reply) => reply.body as JobBody

interface JobPage {
  readonly items: ReadonlyArray<JobBody>
  readonly nextCursor: string | null
  readonly total: number
}

/** The list of a server without jobs. */
const EMPTY = { items: [], nextCursor: null, total: 0 }
const fieldsOf = (reply: Reply) => ((reply.body as { details?: ReadonlyArray<{ path: unknown }> }).details ?? []).map((d) => String(d.path))

describe("scheduler over HTTP", () => {
  it.scoped("reading needs any signed-in caller; changes need server.restart", () =>
    withController(
      Effect.gen(function* () {
        expect((yield* call("GET", BASE)).status).toBe(401)
        expect(yield* call("GET", BASE, { as: VIEWER })).toEqual({ status: 200, body: EMPTY })

        const denied = yield* call("POST", BASE, { as: VIEWER, json: restart })
        expect(denied.status).toBe(403)
        expect((yield* call("GET", BASE, { as: VIEWER })).body).toEqual(EMPTY)

        const created = yield* call("POST", BASE, { as: OPERATOR, json: restart })
        expect(created.status).toBe(201)
        const id = job(created).id
        for (const [method, path] of [
          ["PUT", `${BASE}/${id}`],
          ["PATCH", `${BASE}/${id}/toggle`],
          ["DELETE", `${BASE}/${id}`]
        ] as const) {
          expect((yield* call(method, path, { as: VIEWER, json: method === "PUT" ? restart : undefined })).status).toBe(403)
        }
      })
    ))

  it.scoped("create, list with next run and warnings, replace, toggle, delete", () =>
    withController(
      Effect.gen(function* () {
        const created = yield* call("POST", BASE, { as: OPERATOR, json: restart })
        expect(created.body).toMatchObject({
          serverId: "alpha",
          kind: "restart",
          cron: "0 4 * * *",
          timeZone: "Europe/Berlin",
          warnings: [15, 5],
          enabled: true,
          lastRunAt: null,
          // 04:00 in Berlin (CET) is 03:00 UTC, already past at 03:00 UTC: tomorrow.
          nextRunAt: "2025-01-07T03:00:00.000Z",
          nextWarnings: [
            { minutes: 15, at: "2025-01-07T02:45:00.000Z" },
            { minutes: 5, at: "2025-01-07T02:55:00.000Z" }
          ]
        })
        const id = job(created).id

        const listed = yield* call("GET", BASE, { as: VIEWER })
        expect((listed.body as JobPage).items.map((j) => j.id)).toEqual([id])
        expect((listed.body as JobPage).total).toBe(1)

        // Pages in creation order with limit and cursor.
        for (const cron of ["0 5 * * *", "0 6 * * *"]) yield* call("POST", BASE, { as: OPERATOR, json: { ...restart, cron } })
        const all = ((yield* call("GET", BASE, { as: VIEWER })).body as JobPage).items.map((j) => j.id)
        expect(all).toHaveLength(3)
        const first = (yield* call("GET", `${BASE}?limit=2`, { as: VIEWER })).body as JobPage
        const rest = (yield* call("GET", `${BASE}?limit=2&cursor=${first.nextCursor}`, { as: VIEWER })).body as JobPage
        expect([...first.items, ...rest.items].map((j) => j.id)).toEqual(all)
        expect([first.total, rest.nextCursor]).toEqual([3, null])
        for (const other of all.filter((j) => j !== id)) yield* call("DELETE", `${BASE}/${other}`, { as: OPERATOR })

        const replaced = yield* call("PUT", `${BASE}/${id}`, { as: OPERATOR, json: { kind: "message", cron: "*/15 * * * *", message: "hi" } })
        expect(replaced.status).toBe(200)
        expect(replaced.body).toMatchObject({ id, kind: "message", timeZone: "UTC", warnings: [], message: "hi", nextRunAt: "2025-01-06T03:15:00.000Z" })

        const off = yield* call("PATCH", `${BASE}/${id}/toggle`, { as: OPERATOR })
        expect(off.status).toBe(200)
        expect(job(off)).toMatchObject({ enabled: false, nextRunAt: null })
        expect(job(yield* call("PATCH", `${BASE}/${id}/toggle`, { as: OPERATOR })).enabled).toBe(true)

        expect((yield* call("DELETE", `${BASE}/${id}`, { as: OPERATOR })).status).toBe(204)
        expect((yield* call("DELETE", `${BASE}/${id}`, { as: OPERATOR })).status).toBe(404)
        expect((yield* call("GET", BASE, { as: VIEWER })).body).toEqual(EMPTY)
      })
    ))

  it.scoped("a bad cron, time zone or field is 400 naming the field", () =>
    withController(
      Effect.gen(function* () {
        const post = (json: unknown) => call("POST", BASE, { as: OPERATOR, json })
        const badCron = yield* post({ ...restart, cron: "61 4 * * *" })
        expect(badCron.status).toBe(400)
        expect(badCron.body).toMatchObject({ error: "invalid-request" })
        expect(fieldsOf(badCron)).toEqual(["cron"])
        expect(fieldsOf(yield* post({ ...restart, cron: "0 0 31 2 *" }))).toEqual(["cron"])
        const badZone = yield* post({ ...restart, timeZone: "Mars/Olympus" })
        expect(badZone.status).toBe(400)
        expect(fieldsOf(badZone)).toEqual(["timeZone"])
        expect(fieldsOf(yield* post({ kind: "message", cron: "0 * * * *" }))).toEqual(["message"])
        expect(fieldsOf(yield* post({ kind: "rcon", cron: "0 * * * *" }))).toEqual(["command"])
        expect(fieldsOf(yield* post({ kind: "lock", cron: "0 * * * *", warnings: [5] }))).toEqual(["warnings"])
        // Shape errors come from the schema, with the field in the path.
        const badKind = yield* post({ kind: "explode", cron: "0 * * * *" })
        expect(badKind.status).toBe(400)
        expect(JSON.stringify(badKind.body)).toContain("kind")
        expect((yield* post({ ...restart, warnings: [0] })).status).toBe(400)
        expect((yield* post({ kind: "message", cron: "0 * * * *", message: "two\nlines" })).status).toBe(400)
        expect((yield* call("GET", BASE, { as: VIEWER })).body).toEqual(EMPTY)
      })
    ))

  it.scoped("an unknown server or job is 404", () =>
    withController(
      Effect.gen(function* () {
        const missing = yield* call("GET", "/api/servers/nope/scheduler", { as: VIEWER })
        expect(missing.status).toBe(404)
        expect(missing.body).toMatchObject({ error: "not-found" })
        expect((yield* call("POST", "/api/servers/nope/scheduler", { as: OPERATOR, json: restart })).status).toBe(404)
        expect((yield* call("PUT", `${BASE}/nope`, { as: OPERATOR, json: restart })).status).toBe(404)
        expect((yield* call("PATCH", `${BASE}/nope/toggle`, { as: OPERATOR })).status).toBe(404)

        // A job is reached only through its own server.
        const id = job(yield* call("POST", BASE, { as: OPERATOR, json: restart })).id
        expect((yield* call("PATCH", `/api/servers/beta/scheduler/${id}/toggle`, { as: OPERATOR })).status).toBe(404)
        expect((yield* call("DELETE", `/api/servers/beta/scheduler/${id}`, { as: OPERATOR })).status).toBe(404)
      })
    ))
})
