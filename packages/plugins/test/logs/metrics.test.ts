/**
 * `GET /api/servers/:id/metrics`: the sampler (driven by the test clock),
 * the 7-day retention job and bucket averages for long ranges.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { EventBus, OnlinePlayer, ServerDeleted } from "@garrison/runtime"
import { ConfigProvider, Duration, Effect, TestClock } from "effect"
import { adjustInSteps } from "@garrison/testkit"
import { Metrics } from "../../src/logs/index.js"
import { eventually, FakeServers, get, logsController } from "./support.js"

interface Body {
  readonly bucketSeconds: number
  readonly from: string
  readonly to: string
  readonly points: ReadonlyArray<{ at: string; players: number; cpu: number | null; memoryBytes: number | null }>
}

const metrics = (query = "") =>
  Effect.map(get(`/api/servers/s1/metrics${query}`), (reply) => {
    expect(reply.status).toBe(200)
    return reply.body as Body
  })

const rowCount = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(Effect.orDie(sql<{ n: number }>`SELECT COUNT(*) AS n FROM server_metrics`), ([row]) => Number(row?.n))
)

const withSettings = (settings: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings))))

const player = (name: string) =>
  new OnlinePlayer({ slot: 0, name, ip: "127.0.0.1", port: 2304, ping: 30, guid: "", verified: true, inLobby: false, steam64: null, dayzId: null })

describe("metrics", () => {
  it.scoped("samples running servers every 30 s by default; stopped ones are not sampled", () => {
    const servers = new FakeServers()
    servers.add("s1")
    servers.add("s2")
    servers.set("s1", { status: "running", cpu: 40, memoryBytes: 2_000_000, players: [player("a"), player("b")] })
    return Effect.gen(function* () {
      yield* TestClock.adjust("29 seconds")
      expect(yield* rowCount).toBe(0)
      yield* TestClock.adjust("1 second")
      yield* eventually(rowCount, (n) => n === 1)
      servers.set("s1", { cpu: 60, memoryBytes: 4_000_000, players: [player("a")] })
      yield* TestClock.adjust("30 seconds")
      yield* eventually(rowCount, (n) => n === 2)

      // `to` defaults to now; a minute's range is raw samples.
      const body = yield* metrics("?from=1970-01-01T00:00:00Z")
      expect(body.bucketSeconds).toBe(0)
      expect(body.to).toBe(new Date(60_000).toISOString())
      expect(body.points).toEqual([
        { at: new Date(30_000).toISOString(), players: 2, cpu: 40, memoryBytes: 2_000_000 },
        { at: new Date(60_000).toISOString(), players: 1, cpu: 60, memoryBytes: 4_000_000 }
      ])
      // The default range is the last 24 hours: 2880 samples' worth, so bucketed.
      const day = yield* metrics()
      expect(day.bucketSeconds).toBe(173)
      expect(day.from).toBe(new Date(60_000 - 24 * 3600_000).toISOString())
      expect(day.points.map((p) => p.players)).toEqual([1.5])
      expect((yield* get("/api/servers/s2/metrics")).body).toMatchObject({ points: [] })

      const bad = yield* get("/api/servers/s1/metrics?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z")
      expect(bad.status).toBe(400)
      expect((yield* get("/api/servers/s1/metrics?from=yesterday")).status).toBe(400)
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("keeps samples 7 days (METRICS_INTERVAL sets the sampling interval)", () => {
    const servers = new FakeServers()
    servers.add("s1")
    servers.set("s1", { status: "running", cpu: 10, memoryBytes: 1000, players: [] })
    return Effect.gen(function* () {
      const m = yield* Metrics
      expect(Duration.toMillis(m.options.interval)).toBe(3600_000)
      expect(Duration.toMillis(m.options.retention)).toBe(7 * 24 * 3600_000)
      // One sample an hour: 168 in 7 days. The clock moves an hour at a time, once both hourly jobs (the sampler
      // and the retention job) sleep again, so each sample is taken at its own hour on either engine.
      yield* adjustInSteps("7 days", "1 hour", { sleepers: 2 })
      yield* eventually(rowCount, (n) => n === 168)
      // Day 8 (the hourly retention job has run): only the last 7 days remain.
      yield* adjustInSteps("1 day", "1 hour", { sleepers: 2 })
      // Samples from hour 24 to hour 192.
      yield* eventually(rowCount, (count) => count === 169)
      const first = yield* metrics("?from=1970-01-01T00:00:00Z&to=1970-01-09T00:00:00Z")
      expect(first.points[0]?.at).toBe(new Date(24 * 3600_000).toISOString())
    }).pipe(Effect.provide(logsController(servers)), withSettings({ METRICS_INTERVAL: "1 hour" }))
  }, 60_000) // 192 hourly steps, each two jobs' round trips on PostgreSQL

  it.scoped("averages long ranges into buckets so at most ~500 points come back", () => {
    const servers = new FakeServers()
    servers.add("s1")
    return Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // Two days of 30 s samples: players alternate 0 and 10, CPU climbs with time.
      const rows = Array.from({ length: 5760 }, (_, i) => ({
        server_id: "s1",
        at: i * 30_000,
        players: i % 2 === 0 ? 0 : 10,
        cpu: i,
        memory_bytes: 1000
      }))
      for (let i = 0; i < rows.length; i += 500) {
        yield* Effect.orDie(sql`INSERT INTO server_metrics ${sql.insert(rows.slice(i, i + 500))}`)
      }
      const body = yield* metrics("?from=1970-01-01T00:00:00Z&to=1970-01-03T00:00:00Z")
      // 172800 s / 500 = 345.6: buckets of 346 s.
      expect(body.bucketSeconds).toBe(346)
      expect(body.points.length).toBeLessThanOrEqual(500)
      expect(body.points.length).toBeGreaterThan(490)
      // The first bucket [0, 346 s) holds samples 0..11: players average 5, CPU (0+...+11)/12.
      expect(body.points[0]).toEqual({ at: new Date(0).toISOString(), players: 5, cpu: 5.5, memoryBytes: 1000 })
      expect(body.points[1]?.at).toBe(new Date(346_000).toISOString())

      // A short range is answered with the raw samples.
      const short = yield* metrics("?from=1970-01-01T00:00:00Z&to=1970-01-01T01:00:00Z")
      expect(short.bucketSeconds).toBe(0)
      expect(short.points).toHaveLength(121)
    }).pipe(Effect.provide(logsController(servers)))
  })

  it.scoped("forget deletes one server's samples; ServerDeleted does it for the plugin", () => {
    const servers = new FakeServers()
    servers.add("s1")
    servers.add("s2")
    servers.add("s3")
    return Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const m = yield* Metrics
      const rows = ["s1", "s2", "s3"].flatMap((server_id) =>
        [0, 30_000, 60_000].map((at) => ({ server_id, at, players: 1, cpu: 5, memory_bytes: 1000 }))
      )
      yield* Effect.orDie(sql`INSERT INTO server_metrics ${sql.insert(rows)}`)
      const countOf = (id: string) =>
        Effect.map(Effect.orDie(sql<{ n: number }>`SELECT COUNT(*) AS n FROM server_metrics WHERE server_id = ${id}`), ([row]) =>
          Number(row?.n)
        )

      expect(yield* m.forget("s3")).toBe(3)
      expect(yield* m.forget("s3")).toBe(0)
      expect(yield* countOf("s3")).toBe(0)

      const bus = yield* EventBus
      yield* bus.publish(new ServerDeleted({ serverId: "s1", name: "Server s1" }))
      yield* eventually(countOf("s1"), (n) => n === 0)
      expect(yield* rowCount).toBe(3)
      expect((yield* metrics("?from=1970-01-01T00:00:00Z&to=1970-01-01T00:05:00Z")).points).toEqual([])
      const kept = yield* get("/api/servers/s2/metrics?from=1970-01-01T00:00:00Z&to=1970-01-01T00:05:00Z")
      expect((kept.body as Body).points).toHaveLength(3)
    }).pipe(Effect.provide(logsController(servers)))
  })
})
