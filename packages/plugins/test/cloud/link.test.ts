/**
 * The cloud link against a fake relay (a `ws` server on loopback): the
 * mirror (the server list on connect, a status on the servers' events,
 * connect/disconnect/reconnect of a server), remote actions run with the
 * link's role and audited (allowed, refused for a missing permission, for
 * a server not mirrored, for an unknown action), disable closing the
 * socket, and the admin routes' checks.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, call, callWithText, eventually } from "@garrison/testkit"
import { Effect } from "effect"
import { fakeRelay, type RelayMessage } from "./fakeRelay.js"
import { ADMIN, cloudController, makeRole, makeServer, status, TOKEN } from "./support.js"

const heard = (relay: { readonly received: ReadonlyArray<RelayMessage> }, match: (message: RelayMessage) => boolean) =>
  Effect.map(
    eventually(
      Effect.sync(() => relay.received.find(match)),
      (found) => found !== undefined
    ),
    (found) => found!
  )

const result = (relay: { readonly received: ReadonlyArray<RelayMessage> }, id: string) =>
  heard(relay, (message) => message.type === "action.result" && message["id"] === id)

describe("the cloud link", () => {
  it.scopedLive("mirrors the connected servers and runs the remote actions its role allows, audited; disable closes the socket", () =>
    Effect.gen(function* () {
      const relay = yield* fakeRelay(TOKEN)
      const audit = auditRecorder()
      yield* Effect.gen(function* () {
        const a = yield* makeServer("Alpha", 2302)
        const b = yield* makeServer("Bravo", 2402)
        yield* makeRole("cloud-op", ["server.start", "server.restart"])

        // Mirroring is chosen before the link is up.
        const connected = yield* call("POST", `/api/cloud/connect/${a}`, { as: ADMIN })
        expect(connected.status).toBe(200)
        expect(connected.body).toMatchObject({ state: "disabled", enabled: false, servers: [{ serverId: a, name: "Alpha" }] })

        const enabled = yield* callWithText("POST", "/api/cloud/enable", { as: ADMIN, json: { token: TOKEN, role: "cloud-op" } })
        expect(enabled.status, enabled.text).toBe(200)
        expect(enabled.text).not.toContain(TOKEN)
        expect(enabled.body).toMatchObject({ configured: true, enabled: true, role: "cloud-op", relay: relay.url })
        expect((yield* eventually(status, (s) => s.state === "connected")).attempt).toBe(0)
        expect(relay.received[0]).toMatchObject({ type: "hello", protocol: 1, token: TOKEN })
        const snapshot = yield* heard(relay, (m) => m.type === "servers")
        expect(snapshot["servers"]).toEqual([
          { id: a, name: "Alpha", status: "stopped", players: 0, map: null, version: null, locked: false, uptimeSeconds: 0 }
        ])

        // The token is stored sealed, and no log or answer carries it.
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ link_token: string; role: string }>`SELECT link_token, role FROM cloud_link`
        expect(row!.link_token.startsWith("sealed:v1:")).toBe(true)
        expect(row!.link_token).not.toContain(TOKEN)

        // A mirrored server's change goes out; an unmirrored one's does not.
        expect((yield* call("POST", `/api/servers/${b}/start`, { as: ADMIN })).status).toBe(200)
        expect((yield* call("POST", `/api/servers/${a}/start`, { as: ADMIN })).status).toBe(200)
        yield* heard(relay, (m) => m.type === "server.status" && (m["server"] as { id: string; status: string }).id === a && (m["server"] as { status: string }).status === "running")
        expect(relay.received.some((m) => m.type === "server.status" && (m["server"] as { id: string }).id === b)).toBe(false)

        // Allowed: the role grants server.restart. The action runs as the REST API's does, and is audited with the link as actor.
        relay.send({ type: "action", id: "r1", action: "restart", serverId: a })
        expect(yield* result(relay, "r1")).toMatchObject({ ok: true, result: { status: "running" } })
        expect(audit.rows.filter((r) => r.action === "cloud.action")).toMatchObject([
          { actor: "cloud-link", actorName: "cloud link", target: a, result: "success", details: { action: "restart", permission: "server.restart", role: "cloud-op" } }
        ])

        // Refused: server.stop is not the role's; the server keeps running.
        relay.send({ type: "action", id: "r2", action: "stop", serverId: a })
        expect(yield* result(relay, "r2")).toMatchObject({ ok: false, error: { code: "forbidden" } })
        expect(((yield* call("GET", `/api/servers/${a}/status`, { as: ADMIN })).body as { status: string }).status).toBe("running")
        // A server that is not mirrored, an action the link does not run, a message that is not the protocol.
        relay.send({ type: "action", id: "r3", action: "start", serverId: b })
        expect(yield* result(relay, "r3")).toMatchObject({ ok: false, error: { code: "not-connected" } })
        relay.send({ type: "action", id: "r4", action: "rcon", serverId: a, params: { command: "#shutdown" } })
        expect(yield* result(relay, "r4")).toMatchObject({ ok: false, error: { code: "unknown-action" } })
        relay.sendRaw("not json")
        yield* heard(relay, (m) => m.type === "error")
        expect(audit.rows.filter((r) => r.action === "cloud.action").map((r) => [r.details?.["requestId"], r.result])).toEqual([
          ["r1", "success"],
          ["r2", "denied"],
          ["r3", "denied"],
          ["r4", "denied"]
        ])
        expect(audit.rows.find((r) => r.details?.["requestId"] === "r2")?.details).toMatchObject({ permission: "server.stop", reason: "forbidden" })

        // A role changed later counts at once: with server.stop granted, the stop runs.
        expect((yield* call("PATCH", "/api/roles/cloud-op", { as: ADMIN, json: { permissions: ["server.stop"] } })).status).toBe(200)
        relay.send({ type: "action", id: "r5", action: "stop", serverId: a })
        expect(yield* result(relay, "r5")).toMatchObject({ ok: true, result: { status: "stopped" } })
        relay.send({ type: "action", id: "r6", action: "start", serverId: a })
        expect(yield* result(relay, "r6")).toMatchObject({ ok: false, error: { code: "forbidden" } })

        // Reconnect announces the server again; disconnect stops the mirror; both only for mirrored servers.
        const mark = relay.received.length
        expect((yield* call("POST", `/api/cloud/reconnect/${a}`, { as: ADMIN })).status).toBe(200)
        yield* heard(relay, (m) => m.type === "server.connected" && relay.received.indexOf(m) >= mark)
        expect(relay.received.slice(mark).map((m) => m.type)).toEqual(["server.disconnected", "server.connected"])
        expect((yield* call("POST", `/api/cloud/disconnect/${a}`, { as: ADMIN })).status).toBe(200)
        yield* heard(relay, (m) => m.type === "server.disconnected" && relay.received.indexOf(m) > mark + 1)
        for (const path of [`/api/cloud/disconnect/${a}`, `/api/cloud/reconnect/${a}`]) {
          const refused = yield* call("POST", path, { as: ADMIN })
          expect(refused.status, path).toBe(409)
          expect(refused.body).toMatchObject({ error: "conflict", details: { serverId: a } })
        }
        expect((yield* call("POST", "/api/cloud/connect/nope", { as: ADMIN })).status).toBe(404)
        expect(audit.rows.filter((r) => r.action.startsWith("cloud.") && r.action !== "cloud.action").map((r) => r.action)).toEqual([
          "cloud.server.connect",
          "cloud.enable",
          "cloud.server.reconnect",
          "cloud.server.disconnect"
        ])

        // Disable closes the socket (1000) and forgets the token; no reconnection follows.
        const disabled = yield* call("POST", "/api/cloud/disable", { as: ADMIN })
        expect(disabled.body).toMatchObject({ state: "disabled", enabled: false, role: null })
        yield* eventually(Effect.sync(() => relay.closes), (closes) => closes.includes(1000))
        expect(yield* sql`SELECT id FROM cloud_link`).toEqual([])
        expect(relay.connections()).toBe(1)
        expect(audit.rows.at(-1)).toMatchObject({ action: "cloud.disable", actor: "root" })
      }).pipe(Effect.provide(cloudController({ CLOUD_RELAY_URL: relay.url }, audit)))
    })
  )

  it.scopedLive("a link role scoped to one server: the relay acts on that server only, though both are mirrored", () =>
    Effect.gen(function* () {
      const relay = yield* fakeRelay(TOKEN)
      const audit = auditRecorder()
      yield* Effect.gen(function* () {
        const a = yield* makeServer("Alpha", 2302)
        const b = yield* makeServer("Bravo", 2402)
        yield* makeRole("cloud-a", [{ permission: "server.start", servers: [a] }])
        for (const id of [a, b]) expect((yield* call("POST", `/api/cloud/connect/${id}`, { as: ADMIN })).status).toBe(200)
        expect((yield* call("POST", "/api/cloud/enable", { as: ADMIN, json: { token: TOKEN, role: "cloud-a" } })).status).toBe(200)
        yield* eventually(status, (s) => s.state === "connected")
        relay.send({ type: "action", id: "b1", action: "start", serverId: b })
        expect(yield* result(relay, "b1")).toMatchObject({ ok: false, error: { code: "forbidden" } })
        expect(((yield* call("GET", `/api/servers/${b}/status`, { as: ADMIN })).body as { status: string }).status).toBe("stopped")
        relay.send({ type: "action", id: "a1", action: "start", serverId: a })
        expect(yield* result(relay, "a1")).toMatchObject({ ok: true })
        expect(audit.rows.filter((r) => r.action === "cloud.action").map((r) => [r.target, r.result])).toEqual([
          [b, "denied"],
          [a, "success"]
        ])
      }).pipe(Effect.provide(cloudController({ CLOUD_RELAY_URL: relay.url }, audit)))
    })
  )

  it.scopedLive("the relay refusing the token: backing off with the close code as the last error", () =>
    Effect.gen(function* () {
      const relay = yield* fakeRelay("another-token-0123456789")
      yield* Effect.gen(function* () {
        yield* makeRole("cloud-op", ["server.restart"])
        expect((yield* call("POST", "/api/cloud/enable", { as: ADMIN, json: { token: TOKEN, role: "cloud-op" } })).status).toBe(200)
        const refused = yield* eventually(status, (s) => s.state === "backing-off")
        expect(refused.lastError).toContain("4001")
        expect(refused.attempt).toBe(1)
        expect((yield* call("POST", "/api/cloud/disable", { as: ADMIN })).status).toBe(200)
      }).pipe(Effect.provide(cloudController({ CLOUD_RELAY_URL: relay.url, CLOUD_RECONNECT_BASE: "1 hour" })))
    })
  )

  it.scopedLive("admin routes: 403 for others, 400 naming the field, 409 without a relay", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        yield* makeRole("cloud-op", ["server.restart"])
        yield* makeRole("everything", ["admin"])
        const id = yield* makeServer("Alpha", 2302)
        for (const [method, path] of [
          ["GET", "/api/cloud/status"],
          ["POST", "/api/cloud/enable"],
          ["POST", "/api/cloud/disable"],
          ["POST", `/api/cloud/connect/${id}`],
          ["POST", `/api/cloud/disconnect/${id}`],
          ["POST", `/api/cloud/reconnect/${id}`]
        ] as const) {
          const reply = yield* call(method, path, { as: "op:server.start,server.stop,server.restart", json: method === "POST" ? { token: TOKEN, role: "cloud-op" } : undefined })
          expect(reply.status, `${method} ${path}`).toBe(403)
        }
        for (const [json, field] of [
          [{ role: "cloud-op" }, "token"],
          [{ token: "short", role: "cloud-op" }, "token"],
          [{ token: `${TOKEN}\u0000`, role: "cloud-op" }, "token"],
          [{ token: TOKEN }, "role"],
          [{ token: TOKEN, role: "nobody" }, "role"],
          [{ token: TOKEN, role: "everything" }, "role"],
          [{ token: TOKEN, role: "cloud-op", relay: "ws://elsewhere" }, "relay"]
        ] as const) {
          const reply = yield* call("POST", "/api/cloud/enable", { as: ADMIN, json })
          expect(reply.status, JSON.stringify(json)).toBe(400)
          expect(JSON.stringify(reply.body), JSON.stringify(json)).toContain(field)
        }
      }).pipe(Effect.provide(cloudController({ CLOUD_RELAY_URL: "ws://127.0.0.1:9/link" })))

      yield* Effect.gen(function* () {
        yield* makeRole("cloud-op", ["server.restart"])
        const reply = yield* call("POST", "/api/cloud/enable", { as: ADMIN, json: { token: TOKEN, role: "cloud-op" } })
        expect(reply.status).toBe(409)
        expect((reply.body as { message: string }).message).toContain("CLOUD_RELAY_URL")
        expect((yield* status)).toMatchObject({ state: "disabled", enabled: false })
        expect((yield* call("GET", "/api/cloud/status", { as: ADMIN })).body).toMatchObject({ configured: false, relay: null })
      }).pipe(Effect.provide(cloudController({})))
    })
  )
})
