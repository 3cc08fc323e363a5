/** The handlers behind `LogsApi`. File-system and store faults are real faults: 500 with a request id. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { BadRequest, Conflict, NotFound, profilesPath } from "@garrison/runtime"
import { ConsoleBuffer } from "./ConsoleBuffer.js"
import { LogsApi } from "./contract/Api.js"
import { decodeText, listLogFiles, openLogFile, readRange, readTail } from "./internal/logFiles.js"
import { findActor } from "./internal/servers.js"
import { consoleResponse, wantsStream } from "./internal/sse.js"
import { Metrics } from "./Metrics.js"

const DEFAULT_METRICS_RANGE_MS = 24 * 60 * 60 * 1000

export const LogsRoutes = HttpApiBuilder.group(LogsApi, "logs", (handlers) =>
  Effect.gen(function* () {
    const consoleBuffer = yield* ConsoleBuffer
    const metrics = yield* Metrics
    return handlers
      .handle("logs", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const actor = yield* findActor(path.id)
          const folder = profilesPath(yield* actor.entry)
          if (urlParams.file === undefined) {
            return { serverId: path.id, files: yield* listLogFiles(folder) }
          }
          if (urlParams.tail !== undefined && (urlParams.offset !== undefined || urlParams.length !== undefined)) {
            return yield* new BadRequest({
              message: "tail: give either tail or offset/length, not both",
              details: [{ path: "tail", message: "cannot be combined with offset or length" }]
            })
          }
          const file = yield* openLogFile(folder, urlParams.file)
          if (urlParams.tail !== undefined) {
            const tail = yield* readTail(file, urlParams.tail)
            return { file: urlParams.file, size: file.size, ...tail }
          }
          const offset = urlParams.offset ?? 0
          const bytes = yield* readRange(file, offset, urlParams.length)
          return { file: urlParams.file, size: file.size, offset, length: bytes.length, content: decodeText(bytes) }
        }).pipe(
          Effect.scoped,
          Effect.catchTags({
            InvalidLogFile: (error) =>
              Effect.fail(
                new BadRequest({ message: `file: ${error.message}`, details: [{ path: "file", message: error.message }] })
              ),
            LogFileMissing: (error) =>
              Effect.fail(new NotFound({ message: `no log file ${error.file} in this server's profiles folder` })),
            LogFileChanged: (error) => Effect.fail(new Conflict({ message: error.message })),
            LogReadError: Effect.die
          })
        )
      )
      .handle("console", ({ path, urlParams }) =>
        Effect.gen(function* () {
          yield* findActor(path.id)
          const request = yield* HttpServerRequest.HttpServerRequest
          if (wantsStream(request.headers["accept"], urlParams.stream)) return yield* consoleResponse(path.id)
          const lines = yield* consoleBuffer.recent(path.id, urlParams.limit)
          return {
            serverId: path.id,
            lines: lines.map((line) => ({ at: new Date(line.at).toISOString(), text: line.text }))
          }
        })
      )
      .handle("metrics", ({ path, urlParams }) =>
        Effect.gen(function* () {
          yield* findActor(path.id)
          const toMs = urlParams.to?.getTime() ?? (yield* Clock.currentTimeMillis)
          const fromMs = urlParams.from?.getTime() ?? toMs - DEFAULT_METRICS_RANGE_MS
          if (fromMs >= toMs) {
            return yield* new BadRequest({
              message: "from: must be before to",
              details: [{ path: "from", message: "must be before to" }]
            })
          }
          return yield* metrics.range(path.id, fromMs, toMs)
        }).pipe(Effect.catchTag("MetricsStoreError", Effect.die))
      )
  })
)
