/**
 * Logs and metrics: a server's RPT/ADM/log files (list, byte range, tail),
 * its recent RCON console (plus a live server-sent-events stream) and
 * sampled players/CPU/RAM, under `/api/servers/:id/{logs,console,metrics}`
 * (permission `server.view`). Needs the servers plugin's `Servers`.
 */
import { ConsoleLine, on, Plugin, ServerDeleted } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ConsoleBuffer } from "./ConsoleBuffer.js"
import { LogsApi } from "./contract/Api.js"
import { Metrics, metricsConfig } from "./Metrics.js"
import { migrations } from "./migrations.js"
import { LogsRoutes } from "./routes.js"

/** A deleted server's console ring and metrics rows go with it. */
const forgetServer = (serverId: string) =>
  Effect.gen(function* () {
    yield* Effect.flatMap(ConsoleBuffer, (buffer) => buffer.forget(serverId))
    const removed = yield* Effect.flatMap(Metrics, (metrics) => metrics.forget(serverId))
    if (removed > 0) yield* Effect.logDebug(`metrics of deleted server ${serverId} removed: ${removed}`)
  })

export const LogsPlugin = Plugin.make({
  id: "logs",
  description: "Server log files, RCON console and sampled metrics",
  dependsOn: ["servers"],
  migrations,
  layer: Layer.merge(ConsoleBuffer.layer, Metrics.layer),
  http: Plugin.http(LogsApi, LogsRoutes),
  events: [
    on(ConsoleLine, (line) => Effect.flatMap(ConsoleBuffer, (buffer) => buffer.push(line)), "consoleBuffer"),
    // Open console streams of the server end on the same event (internal/sse.ts).
    on(ServerDeleted, (event) => forgetServer(event.serverId), "forgetServer")
  ],
  jobs: [
    // Sampling every METRICS_INTERVAL: a failed or dying sample is logged and the next one runs.
    { name: "metrics-sample", every: Effect.map(metricsConfig, (options) => options.interval), run: Effect.flatMap(Metrics, (m) => Effect.asVoid(m.sample)) },
    {
      name: "metrics-retention",
      every: "1 hour",
      run: Effect.flatMap(Metrics, (m) => m.prune).pipe(
        Effect.flatMap((removed) => (removed > 0 ? Effect.logDebug(`metrics retention removed ${removed}`) : Effect.void))
      )
    }
  ]
})

export { ConsoleBuffer, makeConsoleBuffer } from "./ConsoleBuffer.js"
export type { ConsoleBufferShape, ConsolePage } from "./ConsoleBuffer.js"
export { Metrics, metricsConfig } from "./Metrics.js"
export type { MetricsOptions, MetricsShape } from "./Metrics.js"
export {
  ConsoleEntry,
  ConsoleResponse,
  LogChunk,
  LogFileInfo,
  LogFileList,
  LogKind,
  LogsApi,
  LogsGroup,
  LogTail,
  MetricPoint,
  MetricsResponse
} from "./contract/Api.js"
export { InvalidLogFile, LogFileMissing, LogReadError, MetricsStoreError } from "./errors.js"
