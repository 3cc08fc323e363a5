/**
 * `Metrics`: samples each running server's players, CPU and RAM from its
 * actor's state into `server_metrics` every `METRICS_INTERVAL` (default
 * 30 s), keeps them `METRICS_RETENTION` (default 7 days) and answers ranges,
 * averaged into buckets when long. Stopped servers are not sampled, so a gap
 * in the points means the server was down.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Servers } from "../servers/index.js"
import type { MetricsResponse } from "./contract/Api.js"
import { type MetricsStoreError, metricsStoreError } from "./errors.js"
import { bucketMillis } from "./internal/downsample.js"

export interface MetricsOptions {
  readonly interval: Duration.Duration
  readonly retention: Duration.Duration
}

const positive = (name: string, fallback: Duration.Duration) =>
  Config.duration(name).pipe(
    Config.validate({
      message: `${name} must be a positive duration, e.g. "30 seconds"`,
      validation: (d) => Duration.greaterThan(d, Duration.zero)
    }),
    Config.withDefault(fallback)
  )

/** `METRICS_INTERVAL` (default 30 seconds) and `METRICS_RETENTION` (default 7 days). */
export const metricsConfig: Config.Config<MetricsOptions> = Config.all({
  interval: positive("METRICS_INTERVAL", Duration.seconds(30)),
  retention: positive("METRICS_RETENTION", Duration.days(7))
})

export interface MetricsShape {
  readonly options: MetricsOptions
  /** Takes one sample of every running server now; answers how many rows were written. */
  readonly sample: Effect.Effect<number, MetricsStoreError>
  /** Deletes samples past the retention period; answers how many. */
  readonly prune: Effect.Effect<number, MetricsStoreError>
  /** Deletes every sample of a server (its entry was deleted); answers how many. */
  readonly forget: (serverId: string) => Effect.Effect<number, MetricsStoreError>
  readonly range: (serverId: string, fromMs: number, toMs: number) => Effect.Effect<MetricsResponse, MetricsStoreError>
}

interface Row {
  readonly at: number | string
  readonly players: number | string
  readonly cpu: number | string | null
  readonly memory_bytes: number | string | null
}

const num = (value: number | string | null): number | null => (value === null ? null : Number(value))

export class Metrics extends Context.Tag("@garrison/plugins/logs/Metrics")<Metrics, MetricsShape>() {
  static readonly make = (options: MetricsOptions) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const servers = yield* Servers

      const sample: MetricsShape["sample"] = Effect.gen(function* () {
        const at = yield* Clock.currentTimeMillis
        const states = yield* Effect.flatMap(servers.supervised, Effect.forEach((server) => server.state))
        const rows = states
          .filter((s) => s.status !== "stopped" && s.status !== "crashed")
          .map((s) => ({
            server_id: s.serverId,
            at,
            players: s.players.length,
            cpu: s.cpu ?? null,
            memory_bytes: s.memoryBytes === undefined ? null : Math.round(s.memoryBytes)
          }))
        if (rows.length === 0) return 0
        yield* sql`INSERT INTO server_metrics ${sql.insert(rows)}`
        return rows.length
      }).pipe(Effect.mapError(metricsStoreError("cannot store metrics")))

      const prune: MetricsShape["prune"] = Effect.gen(function* () {
        const cutoff = (yield* Clock.currentTimeMillis) - Duration.toMillis(options.retention)
        const [row] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM server_metrics WHERE at < ${cutoff}`
        yield* sql`DELETE FROM server_metrics WHERE at < ${cutoff}`
        return Number(row?.n ?? 0)
      }).pipe(sql.withTransaction, Effect.mapError(metricsStoreError("cannot prune metrics")))

      const forget: MetricsShape["forget"] = (serverId) =>
        Effect.gen(function* () {
          const [row] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM server_metrics WHERE server_id = ${serverId}`
          const count = Number(row?.n ?? 0)
          if (count > 0) yield* sql`DELETE FROM server_metrics WHERE server_id = ${serverId}`
          return count
        }).pipe(sql.withTransaction, Effect.mapError(metricsStoreError("cannot delete a server's metrics")))

      const range: MetricsShape["range"] = (serverId, fromMs, toMs) =>
        Effect.gen(function* () {
          const bucket = bucketMillis(fromMs, toMs, Duration.toMillis(options.interval))
          const rows =
            bucket === 0
              ? yield* sql<Row>`SELECT at, players, cpu, memory_bytes FROM server_metrics
                  WHERE server_id = ${serverId} AND at >= ${fromMs} AND at <= ${toMs} ORDER BY at`
              : // Bucket numbers are computed in a subquery so GROUP BY names a plain column (PostgreSQL needs that).
                yield* sql<Row>`SELECT bucket AS at, AVG(players) AS players, AVG(cpu) AS cpu, AVG(memory_bytes) AS memory_bytes
                  FROM (
                    SELECT CAST((at - ${fromMs}) / ${bucket} AS INTEGER) AS bucket, players, cpu, memory_bytes
                    FROM server_metrics
                    WHERE server_id = ${serverId} AND at >= ${fromMs} AND at <= ${toMs}
                  ) samples
                  GROUP BY bucket
                  ORDER BY bucket`
          return {
            serverId,
            from: new Date(fromMs).toISOString(),
            to: new Date(toMs).toISOString(),
            bucketSeconds: bucket / 1000,
            points: rows.map((row) => ({
              // Bucketed rows carry the bucket number in `at`; the point sits at the bucket's start.
              at: new Date(bucket === 0 ? Number(row.at) : fromMs + Number(row.at) * bucket).toISOString(),
              players: Number(row.players),
              cpu: num(row.cpu),
              memoryBytes: num(row.memory_bytes)
            }))
          }
        }).pipe(Effect.mapError(metricsStoreError("cannot read metrics")))

      return Metrics.of({ options, sample, prune, forget, range })
    })

  /** Needs the servers plugin's `Servers` and the database; settings from the configuration. */
  static readonly layer = Layer.effect(Metrics, Effect.flatMap(metricsConfig, Metrics.make))
}
