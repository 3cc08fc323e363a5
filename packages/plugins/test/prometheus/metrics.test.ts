/**
 * `GET /metrics`: off (404) without METRICS_TOKEN; 401 without the token or
 * with another; with it, Prometheus' text (parsed strictly, `promText.ts`)
 * with every series, whose values move: a request counted under its route
 * template, a server's status and players, RCON and agent failures, the
 * webhook queue, and the process's own metrics.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { type AnyPlugin, countRconFailures, RconLoginRefused, RconTimeout, Telemetry } from "@garrison/runtime"
import { auditRecorder, call, request, StubFleet, testController } from "@garrison/testkit"
import * as Effect from "effect/Effect"
import { ActionsPlugin, AgentLinks } from "../../src/actions/index.js"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { PrometheusPlugin } from "../../src/prometheus/index.js"
import { SystemPlugin } from "../../src/system/index.js"
import { WebhooksPlugin } from "../../src/webhooks/index.js"
import { parsePrometheusText, valueOf } from "./promText.js"

const TOKEN = "scrape-token-0123456789abcdef"
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } })

const scrape = Effect.gen(function* () {
  const reply = yield* request("GET", "/metrics", bearer(TOKEN))
  expect(reply.status, reply.text).toBe(200)
  return parsePrometheusText(reply.text)
})

describe("prometheus", () => {
  it.scopedLive("off without METRICS_TOKEN: 404 in the error shape, token or not", () =>
    Effect.gen(function* () {
      for (const options of [{}, bearer(TOKEN)]) {
        const reply = yield* call("GET", "/metrics", options)
        expect(reply.status).toBe(404)
        expect(reply.body).toMatchObject({ error: "not-found" })
      }
    }).pipe(Effect.provide(testController([PrometheusPlugin], { dataPrefix: "garrison-prometheus-" })))
  )

  it.scopedLive("METRICS_TOKEN set and cleared at run time (PATCH /api/system/config): on from the next scrape, then off again", () =>
    Effect.gen(function* () {
      expect((yield* request("GET", "/metrics", bearer(TOKEN))).status).toBe(404)
      const set = yield* call("PATCH", "/api/system/config", { as: "root:admin", json: { METRICS_TOKEN: TOKEN } })
      expect(set.status, JSON.stringify(set.body)).toBe(200)
      expect(JSON.stringify(set.body)).not.toContain(TOKEN)
      expect((yield* request("GET", "/metrics", bearer(TOKEN))).status).toBe(200)
      expect((yield* request("GET", "/metrics", bearer(`${TOKEN}x`))).status).toBe(401)
      expect((yield* call("PATCH", "/api/system/config", { as: "root:admin", json: { METRICS_TOKEN: null } })).status).toBe(200)
      expect((yield* request("GET", "/metrics", bearer(TOKEN))).status).toBe(404)
    }).pipe(Effect.provide(testController([auditRecorder().plugin, SystemPlugin, PrometheusPlugin], { dataPrefix: "garrison-prometheus-" })))
  )

  it.scopedLive("the token: none or another is 401 (never echoed), the right one 200, never cached", () =>
    Effect.gen(function* () {
      const none = yield* call("GET", "/metrics")
      expect(none.status).toBe(401)
      expect(none.body).toMatchObject({ error: "unauthenticated" })
      const wrong = yield* request("GET", "/metrics", bearer(`${TOKEN}x`))
      expect(wrong.status).toBe(401)
      expect(wrong.text).not.toContain(TOKEN)
      // A session's bearer (the test authenticator's) is no metrics token.
      expect((yield* call("GET", "/metrics", { as: "mia:admin" })).status).toBe(401)
      const right = yield* request("GET", "/metrics", bearer(TOKEN))
      expect(right.status).toBe(200)
      expect(right.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8")
      expect(right.headers["cache-control"]).toBe("no-store")
      expect(right.text).not.toContain(TOKEN)
      const families = parsePrometheusText(right.text)
      // The process's own, under Node's usual names.
      for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes"]) {
        expect(families.has(name), name).toBe(true)
      }
    }).pipe(Effect.provide(testController([PrometheusPlugin], { dataPrefix: "garrison-prometheus-", config: { METRICS_TOKEN: TOKEN } })))
  )

  it.scopedLive("every series is there, with labels and values that move", () => {
    const fleet = new StubFleet()
    const s1 = fleet.add("s1", { status: "running", entry: { name: "One", agent: { url: "http://127.0.0.1:9", apiKey: "agent-key" } } })
    fleet.add("s2", { status: "stopped", entry: { name: "Two" } })
    const plugins: ReadonlyArray<AnyPlugin> = [PrometheusPlugin, WebhooksPlugin, NotificationsPlugin, ActionsPlugin, PlayersPlugin, fleet.plugin()]
    return Effect.gen(function* () {
      const first = yield* scrape
      for (const [name, type] of [
        ["garrison_servers", "gauge"],
        ["garrison_players_online", "gauge"],
        ["garrison_fleet_players_online", "gauge"],
        ["garrison_http_requests_total", "counter"],
        ["garrison_http_request_duration_seconds", "histogram"],
        ["garrison_rcon_errors_total", "counter"],
        ["garrison_agent_errors_total", "counter"],
        ["garrison_webhook_queue_depth", "gauge"],
        ["nodejs_eventloop_lag_seconds", "gauge"]
      ] as const) {
        expect(first.get(name)?.type, name).toBe(type)
        expect(first.get(name)?.help, name).toBeTruthy()
      }
      expect(valueOf(first, "garrison_servers", { status: "running" })).toBe(1)
      expect(valueOf(first, "garrison_servers", { status: "stopped" })).toBe(1)
      expect(valueOf(first, "garrison_servers", { status: "crashed" })).toBe(0)
      expect(valueOf(first, "garrison_players_online", { server: "s1" })).toBe(0)
      expect(valueOf(first, "garrison_webhook_queue_depth", { stage: "delivery" })).toBe(0)

      // The token is no session: the API still wants one.
      const asToken = yield* request("GET", "/api/servers/s1/players", bearer(TOKEN))
      expect(asToken.status, asToken.text).toBe(401)
      // A request, counted under its route's template, never its path.
      expect((yield* call("GET", "/api/servers/s1/players", { as: "mia:players.view" })).status).toBe(200)
      expect((yield* call("GET", "/api/servers/s1/players", { as: "mia:players.view" })).status).toBe(200)
      expect((yield* call("GET", "/api/servers/nope/players", { as: "mia:players.view" })).status).toBe(404)
      // The status, players and queue move.
      s1.set({
        players: [
          { slot: 0, name: "A", ip: "10.0.0.1", ping: 10, guid: "a".repeat(32), verified: true, lobby: false },
          { slot: 1, name: "B", ip: "10.0.0.2", ping: 10, guid: "b".repeat(32), verified: true, lobby: false }
        ] as never
      })
      fleet.server("s2").status = "crashed"
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO webhook_deliveries (id, webhook_id, idempotency_key, event, severity, summary, payload, status, test, attempts, created_at, next_attempt_at)
        VALUES ('d1', 'no-such-webhook', 'k1', 'server.crashed', 'error', 's', '{}', 'pending', 0, 0, '2026-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z')`
      // RCON: a refused login and a timed-out command, through the wrapper the actors open their sessions with.
      const telemetry = yield* Telemetry
      yield* Effect.scoped(
        countRconFailures(() => Effect.fail(new RconLoginRefused({ host: "h", port: 1, message: "bad password" })), telemetry, "s1")({} as never)
      ).pipe(Effect.ignore)
      const timingOut = countRconFailures(
        () => Effect.succeed({ command: () => Effect.fail(new RconTimeout({ command: "players", timeoutMs: 1 })) } as never),
        telemetry,
        "s1"
      )
      yield* Effect.scoped(Effect.flatMap(timingOut({} as never), (client) => client.command("players"))).pipe(Effect.ignore)
      // The agent: nothing listens on its port.
      const links = yield* AgentLinks
      const link = links.forEntry(fleet.server("s1").entry)
      expect(link._tag).toBe("Some")
      if (link._tag === "Some") yield* Effect.ignore(link.value.client.call("player.info", { platformId: "76561198000000001" }))

      const after = yield* scrape
      expect(valueOf(after, "garrison_http_requests_total", { method: "GET", route: "/api/servers/:id/players", status: "200" })).toBe(2)
      expect(valueOf(after, "garrison_http_requests_total", { method: "GET", route: "/api/servers/:id/players", status: "404" })).toBe(1)
      // The metrics token refused there: a request answered by the front door is counted too.
      expect(valueOf(after, "garrison_http_requests_total", { method: "GET", route: "/api/servers/:id/players", status: "401" })).toBe(1)
      expect(valueOf(after, "garrison_http_request_duration_seconds_count", { method: "GET", route: "/api/servers/:id/players" })).toBe(4)
      const routes = after.get("garrison_http_requests_total")!.samples.map((s) => s.labels["route"])
      expect(routes.some((route) => route?.includes("s1") === true || route?.includes("nope") === true)).toBe(false)
      // The first scrape is counted too (its own answer is ready before it is counted: not in itself).
      expect(valueOf(after, "garrison_http_requests_total", { method: "GET", route: "/metrics", status: "200" })).toBe(1)
      expect(valueOf(after, "garrison_servers", { status: "crashed" })).toBe(1)
      expect(valueOf(after, "garrison_servers", { status: "stopped" })).toBe(0)
      expect(valueOf(after, "garrison_players_online", { server: "s1" })).toBe(2)
      expect(valueOf(after, "garrison_fleet_players_online")).toBe(2)
      expect(valueOf(after, "garrison_webhook_queue_depth", { stage: "delivery" })).toBe(1)
      expect(valueOf(after, "garrison_rcon_errors_total", { server: "s1", kind: "login-refused" })).toBe(1)
      expect(valueOf(after, "garrison_rcon_errors_total", { server: "s1", kind: "timeout" })).toBe(1)
      expect(valueOf(after, "garrison_agent_errors_total", { server: "s1", kind: "unreachable" })).toBe(1)
    }).pipe(
      Effect.provide(
        testController<Telemetry | AgentLinks | SqlClient.SqlClient>(plugins, { dataPrefix: "garrison-prometheus-", config: { METRICS_TOKEN: TOKEN } })
      )
    )
  })

  it.scopedLive("a short token stops the start, without quoting it", () =>
    Effect.gen(function* () {
      const failed = yield* Effect.flip(
        Effect.void.pipe(
          Effect.provide(testController([PrometheusPlugin], { dataPrefix: "garrison-prometheus-", config: { METRICS_TOKEN: "short-secret" } }))
        )
      )
      expect(String(failed)).toContain("METRICS_TOKEN must be at least 16 characters")
      expect(String(failed)).not.toContain("short-secret")
    })
  )
})
