/** The handlers behind `LogsApi`. File-system and store faults are real faults: 500 with a request id. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  BadRequest,
  conflictWith,
  cursorBadRequest,
  cursorCodec,
  decodeCursor,
  Keyset,
  notFoundWith,
  profilesFolder,
  storeDefect
} from "@garrison/runtime"
import { ConsoleBuffer } from "./ConsoleBuffer.js"
import { CONSOLE_PAGE, LOG_FILE_PAGE, type LogFileInfo, LogsApi } from "./contract/Api.js"
import type { InvalidLogFile, LogFileChanged, LogFileMissing } from "./errors.js"
import { decodeText, listLogFiles, openLogFile, readRange, readTail } from "./internal/logFiles.js"
import { Servers } from "../servers/index.js"
import { consoleResponse, wantsStream } from "./internal/sse.js"
import { Metrics } from "./Metrics.js"

const DEFAULT_METRICS_RANGE_MS = 24 * 60 * 60 * 1000

/** The file list's order is `modified` (newest first), then name; a cursor holds that key of a page's last file. */
const filePaging = Keyset.make({
  cursor: cursorCodec("logs", Schema.Tuple(Schema.String, Schema.String)),
  key: [
    { column: "modified", direction: "desc", value: ([modified]) => modified },
    { column: "name", direction: "asc", value: ([, name]) => name }
  ],
  positionOf: (file: LogFileInfo) => [file.modified ?? "", file.name] as const
})

/** The console's cursor: the number of the oldest line a page showed; the next page ends before it. */
const consoleCursor = cursorCodec("console", Schema.Int.pipe(Schema.positive()))

// `file` is the query field, but the message leads with it and the details' does not: not the shared field shape.
const badFile = (error: InvalidLogFile) =>
  Effect.fail(new BadRequest({ message: `file: ${error.message}`, details: [{ path: "file", message: error.message }] }))
const missingFile = notFoundWith((error: LogFileMissing) => `no log file ${error.file} in this server's profiles folder`)
const changedFile = conflictWith((error: LogFileChanged) => error.message)

export const LogsRoutes = HttpApiBuilder.group(LogsApi, "logs", (handlers) =>
  Effect.gen(function* () {
    const consoleBuffer = yield* ConsoleBuffer
    const metrics = yield* Metrics
    const servers = yield* Servers
    return handlers
      .handle("logs", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const folder = profilesFolder(yield* servers.entry(path.id))
          if (urlParams.file === undefined) {
            const after = yield* filePaging.decode(urlParams.cursor)
            const files = yield* listLogFiles(folder)
            return { ...filePaging.pageOf(files, urlParams.limit ?? LOG_FILE_PAGE.defaultLimit, after), total: files.length }
          }
          if (urlParams.limit !== undefined || urlParams.cursor !== undefined) {
            return yield* new BadRequest({
              message: "limit and cursor page the file list: leave them out when reading a file (use offset/length or tail)",
              details: [{ path: urlParams.limit !== undefined ? "limit" : "cursor", message: "is for the file list only" }]
            })
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
            InvalidCursor: cursorBadRequest,
            InvalidLogFile: badFile,
            LogFileMissing: missingFile,
            LogFileChanged: changedFile,
            // The file system refused a read the request was entitled to: a fault, not an answer.
            LogReadError: Effect.die
          })
        )
      )
      .handle("console", ({ path, urlParams }) =>
        Effect.gen(function* () {
          yield* servers.entry(path.id)
          const request = yield* HttpServerRequest.HttpServerRequest
          if (wantsStream(request.headers["accept"], urlParams.stream)) return yield* consoleResponse(path.id)
          const before = yield* decodeCursor(consoleCursor, urlParams.cursor)
          const page = yield* consoleBuffer.page(path.id, urlParams.limit ?? CONSOLE_PAGE.defaultLimit, before)
          return {
            items: page.lines.map((line) => ({ at: new Date(line.at).toISOString(), text: line.text })),
            nextCursor: page.more ? consoleCursor.encode(page.first) : null,
            total: page.kept
          }
        }).pipe(Effect.catchTag("InvalidCursor", cursorBadRequest))
      )
      .handle("metrics", ({ path, urlParams }) =>
        Effect.gen(function* () {
          yield* servers.entry(path.id)
          const toMs = urlParams.to?.getTime() ?? (yield* Clock.currentTimeMillis)
          const fromMs = urlParams.from?.getTime() ?? toMs - DEFAULT_METRICS_RANGE_MS
          if (fromMs >= toMs) {
            return yield* new BadRequest({
              message: "from: must be before to",
              details: [{ path: "from", message: "must be before to" }]
            })
          }
          return yield* metrics.range(path.id, fromMs, toMs)
        }).pipe(Effect.catchTag("MetricsStoreError", storeDefect))
      )
  })
)
