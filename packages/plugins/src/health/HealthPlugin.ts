/**
 * Health: `GET /api/health` (database, plugins, uptime, version) for
 * monitors, and `GET /api/health/ping`, which touches nothing, for load
 * balancers. Neither needs credentials; ping is not logged.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { Database, Plugin, PluginRegistry, type StartupRecovery } from "@garrison/runtime"
import * as NodePath from "node:path"
import { HealthApi, HealthReport, Ping, RestoredBackup } from "./HealthApi.js"

const pong = new Ping({ status: "ok" })

/** What a restore at start-up lost, by the backup's file name only (the route is public: no paths). */
const restoredBackup = (startup: StartupRecovery): RestoredBackup | undefined =>
  startup.restoredFrom === undefined
    ? undefined
    : new RestoredBackup({
        file: NodePath.basename(startup.restoredFrom),
        takenAt: startup.backupTakenAt === undefined ? null : new Date(startup.backupTakenAt).toISOString()
      })

const HealthHandlers = HttpApiBuilder.group(HealthApi, "health", (handlers) =>
  Effect.gen(function* () {
    const registry = yield* PluginRegistry
    const database = yield* Database
    const sql = yield* SqlClient.SqlClient
    const restored = restoredBackup(database.startup)
    return handlers
      .handle("ping", () => Effect.succeed(pong))
      .handle("health", () =>
        Effect.gen(function* () {
          const start = yield* Clock.currentTimeMillis
          const probe = yield* sql`SELECT 1 AS ok`.pipe(Effect.either)
          const end = yield* Clock.currentTimeMillis
          const ok = probe._tag === "Right"
          return new HealthReport({
            status: ok ? "ok" : "degraded",
            version: registry.version,
            uptimeSeconds: Math.floor((end - registry.startedAt) / 1000),
            database: {
              ok,
              latencyMs: end - start,
              startup: database.startup.outcome,
              ...(restored === undefined ? {} : { restoredFrom: restored }),
              ...(ok ? {} : { error: "the database did not answer" })
            },
            plugins: registry.plan.ordered.map((p) => p.id)
          })
        })
      )
  })
)

export const HealthPlugin = Plugin.make({
  id: "health",
  description: "Liveness and readiness endpoints",
  http: Plugin.http(HealthApi, HealthHandlers, { quietPaths: ["/api/health/ping", "/api/health"] })
})
