/**
 * The API's conventions, on real routes of several plugins at once: unknown
 * body fields are a 400 naming the field (nested ones too), a path with
 * another method is 405 with `Allow`, and messages say what to send (the
 * allowed values, the fields a body takes, durations where a person types
 * a time).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import { BansPlugin } from "../../src/bans/index.js"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { PriorityPlugin } from "../../src/priority/index.js"
import { SchedulerPlugin } from "../../src/scheduler/index.js"
import { call, fakeFleet, fakeInstall, request, testController } from "@garrison/testkit"

const ALL = "root:admin"

const controller = () =>
  testController(
    [fakeFleet().plugin, PlayersPlugin, SchedulerPlugin, BansPlugin, PriorityPlugin, NotificationsPlugin],
    { dataPrefix: "garrison-conventions-", logLevel: LogLevel.Error }
  )

interface ErrorBody {
  readonly error: string
  readonly message: string
  readonly details?: ReadonlyArray<{ readonly path: string; readonly message: string }>
}

const refused = (reply: { readonly status: number; readonly body: unknown }) => {
  expect(reply.status).toBe(400)
  return reply.body as ErrorBody
}

describe("one set of API conventions", () => {
  it.scopedLive("an unknown body field is a 400 naming it, on every plugin's routes, nested fields included", () =>
    Effect.gen(function* () {
      const server = yield* call("POST", "/api/servers", { as: ALL, json: { name: "S", installDir: fakeInstall() } })
      expect(server.status).toBe(201)
      const id = String((server.body as { id: string }).id)

      const cases: ReadonlyArray<readonly [method: "POST" | "PATCH", path: string, body: unknown, field: string]> = [
        ["POST", "/api/servers", { name: "S2", installDir: fakeInstall(), instalDir: "/typo" }, "instalDir"],
        ["PATCH", `/api/servers/${id}`, { stop: { shutdownWaitMs: 1000, killWaitMs: 5 } }, "stop.killWaitMs"],
        ["PATCH", `/api/servers/${id}`, { rcon: { port: 2305, passwrd: "x" } }, "rcon.passwrd"],
        ["POST", "/api/bans", { platformId: "76561198000000001", playerName: "P", reason: "r", expires: "7d" }, "expires"],
        ["POST", "/api/priority-queue", { platformId: "76561198000000002", name: "V", role: "VIP", expiry: null }, "expiry"],
        ["POST", `/api/servers/${id}/scheduler`, { kind: "message", cron: "0 4 * * *", message: "hi", repeat: true }, "repeat"],
        ["PATCH", "/api/notifications/read", { ids: [], all: true }, "all"]
      ]
      for (const [method, path, body, field] of cases) {
        const error = refused(yield* call(method, path, { as: ALL, json: body }))
        expect([path, error.error, error.details?.[0]?.path]).toEqual([path, "invalid-request", field])
        expect(error.message).toMatch(new RegExp(`^${field.replace(".", "\\.")} is not a field of this body; its fields are `))
      }
      // Nothing was stored by the refused calls.
      expect((yield* call("GET", "/api/bans", { as: ALL })).body).toMatchObject({ items: [] })
      expect((yield* call("GET", "/api/servers", { as: ALL })).body).toMatchObject({ total: 1 })
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("a path that exists with another method is 405 with Allow, in the one error shape; an unknown path stays 404", () =>
    Effect.gen(function* () {
      const put = yield* request("PUT", "/api/servers", { as: ALL, json: {} })
      expect(put.status).toBe(405)
      expect(put.headers["allow"]).toBe("GET, HEAD, POST")
      expect(JSON.parse(put.text)).toEqual({ error: "method-not-allowed", message: "PUT is not allowed on /api/servers; it takes GET, HEAD, POST" })
      const put2 = yield* request("PUT", "/api/servers/some-id", { as: ALL, json: {} })
      expect([put2.status, put2.headers["allow"]]).toEqual([405, "DELETE, GET, HEAD, PATCH"])
      // Before authentication, like a 404 (the route table is no secret); every route the path matches counts.
      const anonymous = yield* request("POST", "/api/bans/export")
      expect([anonymous.status, anonymous.headers["allow"]]).toEqual([405, "DELETE, GET, HEAD"])
      const head = yield* request("HEAD", "/api/priority-queue/cleanup", { as: ALL })
      expect([head.status, head.headers["allow"]]).toEqual([405, "DELETE, PATCH, POST"])
      expect((yield* request("GET", "/api/nothing-here", { as: ALL })).status).toBe(404)
    }).pipe(Effect.provide(controller()))
  )

  it.scopedLive("messages say what to send: the allowed values, a duration or a date, the field as the API spells it", () =>
    Effect.gen(function* () {
      const role = refused(yield* call("POST", "/api/priority-queue", { as: ALL, json: { platformId: "76561198000000003", name: "V", role: "Gold" } }))
      expect(role.message).toBe('role must be one of VIP, Supporter, Premium (got "Gold")')
      const missing = refused(yield* call("POST", "/api/bans", { as: ALL, json: { platformId: "76561198000000004", reason: "r" } }))
      expect(missing.message).toBe("playerName is required")
      const status = refused(yield* call("GET", "/api/bans?status=open", { as: ALL }))
      expect(status.message).toBe('status must be one of active, expired, all (got "open")')

      // A ban for a week, as a person types it; a date still works; anything else names both forms.
      const week = yield* call("POST", "/api/bans", {
        as: ALL,
        json: { platformId: "76561198000000005", playerName: "P", reason: "r", expiresAt: "7d" }
      })
      expect(week.status).toBe(201)
      const { bannedAt, expiresAt } = week.body as { bannedAt: string; expiresAt: string }
      expect(Date.parse(expiresAt) - Date.parse(bannedAt)).toBe(7 * 24 * 60 * 60 * 1000)
      const soon = refused(
        yield* call("POST", "/api/bans", { as: ALL, json: { platformId: "76561198000000006", playerName: "P", reason: "r", expiresAt: "soon" } })
      )
      expect(soon.message).toBe(
        "expiresAt: expected an ISO-8601 date-time (2026-05-01T12:00:00Z) or a duration from now such as 30m, 12h, 7d or 2w"
      )
    }).pipe(Effect.provide(controller()))
  )
})
