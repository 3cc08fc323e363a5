/**
 * `DELETE /api/servers/:id` publishes `ServerDeleted` once the entry row is
 * gone, and the plugins that keep something per server (scheduler, logs)
 * drop it on that event.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type AnyPlugin, ConsoleLine, EventBus, on, Plugin, ServerDeleted } from "@garrison/runtime"
import { Effect, Layer, Queue } from "effect"
import { ConsoleBuffer, LogsPlugin } from "../../src/logs/index.js"
import { ScheduledJobInput, Scheduler, SchedulerPlugin } from "../../src/scheduler/index.js"
import { call, fakeInstall, serversController } from "./support.js"

const DEPLOY = "dep:server.deploy,server.start,server.stop"

/** A plugin that records every `ServerDeleted` it is handed, in order. */
const recorder = (seen: Queue.Queue<ServerDeleted>): AnyPlugin =>
  Plugin.make({ id: "recorder", events: [on(ServerDeleted, (event) => Queue.offer(seen, event))] }) as AnyPlugin

/**
 * Every `ServerDeleted` handed to the recorder so far: publishes a marker and
 * takes until it, so nothing is still queued behind (one handler's events arrive in order).
 */
const recorded = (seen: Queue.Queue<ServerDeleted>) =>
  Effect.gen(function* () {
    const bus = yield* EventBus
    yield* bus.publish(new ServerDeleted({ serverId: "marker", name: "marker" }))
    const out: Array<{ serverId: string; name: string }> = []
    for (;;) {
      const event = yield* Queue.take(seen)
      if (event.serverId === "marker") return out
      out.push({ serverId: event.serverId, name: event.name })
    }
  })

type ServersController = ReturnType<typeof serversController>

/** The servers controller with more plugins; the host's plugin list is dynamic, so their services are named here. */
const withPlugins = (extra: ReadonlyArray<AnyPlugin>) =>
  serversController(extra) as Layer.Layer<
    Layer.Layer.Success<ServersController> | Scheduler | ConsoleBuffer,
    Layer.Layer.Error<ServersController>
  >

const createdId = (name: string) =>
  Effect.map(call("POST", "/api/servers", { as: DEPLOY, json: { name, installDir: fakeInstall() } }), (reply) => {
    expect(reply.status).toBe(201)
    return String(reply.body.id)
  })

describe("deleting a server entry", () => {
  it.scopedLive("publishes ServerDeleted exactly once, after a successful delete only (not on 404 or 409)", () =>
    Effect.gen(function* () {
      const seen = yield* Queue.unbounded<ServerDeleted>()
      yield* Effect.gen(function* () {
        const id = yield* createdId("Doomed")
        const other = yield* createdId("Kept")
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: DEPLOY })).status).toBe(200)

        expect((yield* call("DELETE", "/api/servers/nope", { as: DEPLOY })).status).toBe(404)
        // Running: the actor refuses to retire.
        expect((yield* call("DELETE", `/api/servers/${id}`, { as: DEPLOY })).status).toBe(409)
        expect(yield* recorded(seen)).toEqual([])

        expect((yield* call("POST", `/api/servers/${id}/stop`, { as: DEPLOY })).status).toBe(200)
        const deleted = yield* call("DELETE", `/api/servers/${id}`, { as: DEPLOY })
        expect(deleted).toEqual({ status: 200, body: { deleted: id } })
        // Already gone: 404, and nothing more is published.
        expect((yield* call("DELETE", `/api/servers/${id}`, { as: DEPLOY })).status).toBe(404)
        expect(yield* recorded(seen)).toEqual([{ serverId: id, name: "Doomed" }])

        expect((yield* call("GET", `/api/servers/${other}/status`, { as: "v:" })).status).toBe(200)
      }).pipe(Effect.provide(serversController([recorder(seen)])))
    })
  )

  it.scopedLive("the scheduler and logs plugins drop the deleted server's jobs, console and metrics, and keep the others'", () =>
    Effect.gen(function* () {
      const seen = yield* Queue.unbounded<ServerDeleted>()
      yield* Effect.gen(function* () {
        const scheduler = yield* Scheduler
        const console = yield* ConsoleBuffer
        const sql = yield* SqlClient.SqlClient
        const gone = yield* createdId("Gone")
        const kept = yield* createdId("Kept")

        const job = new ScheduledJobInput({ kind: "message", cron: "0 4 * * *", message: "hello" })
        for (const id of [gone, gone, kept]) yield* scheduler.create(id, job)
        for (const id of [gone, kept]) {
          yield* console.push(new ConsoleLine({ serverId: id, at: 1, text: `line of ${id}` }))
          yield* Effect.orDie(sql`INSERT INTO server_metrics ${sql.insert({ server_id: id, at: 1, players: 0, cpu: null, memory_bytes: null })}`)
        }
        const metricsOf = (id: string) =>
          Effect.map(Effect.orDie(sql<{ n: number }>`SELECT COUNT(*) AS n FROM server_metrics WHERE server_id = ${id}`), ([row]) =>
            Number(row?.n)
          )
        const jobsOf = Effect.map(
          Effect.orDie(sql<{ serverId: string }>`SELECT server_id AS "serverId" FROM scheduled_jobs ORDER BY server_id`),
          (rows) => rows.map((row) => row.serverId)
        )

        expect((yield* call("DELETE", `/api/servers/${gone}`, { as: DEPLOY })).status).toBe(200)
        expect(yield* recorded(seen)).toEqual([{ serverId: gone, name: "Gone" }])
        // Each plugin's handler runs on its own fiber (the database is synchronous): let them finish, without a clock.
        const done = Effect.map(
          Effect.all([jobsOf, metricsOf(gone), console.recent(gone)]),
          ([jobs, metrics, lines]) => jobs.length === 1 && metrics === 0 && lines.length === 0
        )
        for (let i = 0; i < 1000 && !(yield* done); i++) yield* Effect.yieldNow()

        expect(yield* jobsOf).toEqual([kept])
        expect((yield* scheduler.list(kept)).length).toBe(1)
        expect(yield* console.recent(gone)).toEqual([])
        expect((yield* console.recent(kept)).map((line) => line.text)).toEqual([`line of ${kept}`])
        expect(yield* metricsOf(gone)).toBe(0)
        expect(yield* metricsOf(kept)).toBe(1)
        // The scheduler answers 404 for the deleted server, as for any unknown one.
        expect((yield* call("GET", `/api/servers/${gone}/scheduler`, { as: "v:" })).status).toBe(404)
      }).pipe(Effect.provide(withPlugins([SchedulerPlugin as AnyPlugin, LogsPlugin as AnyPlugin, recorder(seen)])))
    })
  )
})
