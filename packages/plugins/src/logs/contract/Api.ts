/**
 * The logs and metrics contract: the spec's three read-only endpoints under
 * `/api/servers/:id`, all behind `server.view`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  BadRequest,
  Conflict,
  IsoDateOrDateTime,
  NotFound,
  pageParams,
  PageWithTotal,
  QueryInteger,
  ServerNotFound,
  ServerUnreadable
} from "@garrison/runtime"

/** Most bytes one range read returns. */
export const MAX_RANGE_BYTES = 1024 * 1024
export const DEFAULT_RANGE_BYTES = 64 * 1024
/** Most lines one tail returns, and most bytes scanned from the end to find them. */
export const MAX_TAIL_LINES = 5000
export const MAX_TAIL_BYTES = 1024 * 1024
/** Most console lines kept per server, and returned by one request. */
export const CONSOLE_CAPACITY = 1000
/** Most points a metrics answer holds: longer ranges are averaged into buckets. */
export const MAX_METRIC_POINTS = 500

const ServerPath = Schema.Struct({ id: Schema.String })

export const LogKind = Schema.Literal("rpt", "adm", "log")
export type LogKind = typeof LogKind.Type

export class LogFileInfo extends Schema.Class<LogFileInfo>("LogFileInfo")({
  name: Schema.String,
  kind: LogKind,
  size: Schema.Number,
  /** ISO-8601, or null when the file system does not say. */
  modified: Schema.NullOr(Schema.String)
}) {}

/** `limit` and `cursor` of the file list. */
export const LOG_FILE_PAGE = { defaultLimit: 500, maxLimit: 5000 } as const

/** Without `file`: the list (`limit`, `cursor`). With `file`: a byte range (`offset`, `length`) or the last `tail` lines. */
export const LogsParams = Schema.Struct({
  ...pageParams(LOG_FILE_PAGE),
  file: Schema.optional(Schema.String.pipe(Schema.maxLength(255))),
  offset: Schema.optional(QueryInteger({ minimum: 0, default: 0, about: "Byte offset in the file to read from" })),
  /** Clamped to `MAX_RANGE_BYTES`. */
  length: Schema.optional(
    QueryInteger({ minimum: 1, default: DEFAULT_RANGE_BYTES, about: `Bytes to read; at most ${MAX_RANGE_BYTES} are returned` })
  ),
  /** Clamped to `MAX_TAIL_LINES`. */
  tail: Schema.optional(
    QueryInteger({ minimum: 1, about: `The last lines of the file instead of a range; at most ${MAX_TAIL_LINES} are returned` })
  )
})
export type LogsParams = typeof LogsParams.Type

/** Newest first (by `modified`, then name); `total` counts the log files. */
export const LogFileList = PageWithTotal(LogFileInfo).annotations({ identifier: "LogFilePage" })

export const LogChunk = Schema.Struct({
  file: Schema.String,
  size: Schema.Number,
  offset: Schema.Number,
  /** Bytes returned; `offset + length` is where the next read starts. */
  length: Schema.Number,
  /** UTF-8; a character cut by the range edges shows as U+FFFD. */
  content: Schema.String
})

export const LogTail = Schema.Struct({
  file: Schema.String,
  size: Schema.Number,
  lines: Schema.Array(Schema.String),
  /** True when the scan stopped at `MAX_TAIL_BYTES` before finding every line asked for. */
  truncated: Schema.Boolean
})

export const LogsResponse = Schema.Union(LogFileList, LogChunk, LogTail)

/** `limit` and `cursor` of the console: every kept line fits one page. */
export const CONSOLE_PAGE = { defaultLimit: CONSOLE_CAPACITY, maxLimit: CONSOLE_CAPACITY } as const

export const ConsoleParams = Schema.Struct({
  ...pageParams(CONSOLE_PAGE),
  /** `1`: a live stream of server-sent events (as does `Accept: text/event-stream`). */
  stream: Schema.optional(Schema.Literal("1", "true"))
})

export const ConsoleEntry = Schema.Struct({
  /** ISO-8601, when the controller received the message. */
  at: Schema.String,
  text: Schema.String
})

/**
 * The newest lines, oldest first; `nextCursor` leads back to the lines
 * before them (while the ring still keeps them); `total` counts the kept lines.
 */
export const ConsoleResponse = PageWithTotal(ConsoleEntry).annotations({ identifier: "ConsolePage" })

/** `from`, `to`: an ISO-8601 date (midnight UTC) or date-time (UTC without a zone); impossible dates are 400. */
export const MetricsParams = Schema.Struct({
  /** Default 24 hours before `to`. */
  from: Schema.optional(IsoDateOrDateTime),
  /** Default now. */
  to: Schema.optional(IsoDateOrDateTime)
})

export const MetricPoint = Schema.Struct({
  /** The sample's time, or the start of its bucket. */
  at: Schema.String,
  players: Schema.Number,
  cpu: Schema.NullOr(Schema.Number),
  memoryBytes: Schema.NullOr(Schema.Number)
})

export const MetricsResponse = Schema.Struct({
  serverId: Schema.String,
  from: Schema.String,
  to: Schema.String,
  /** 0: raw samples; otherwise each point averages the samples of a bucket this long. */
  bucketSeconds: Schema.Number,
  points: Schema.Array(MetricPoint)
})
export type MetricsResponse = typeof MetricsResponse.Type

export class LogsGroup extends HttpApiGroup.make("logs").annotate(OpenApi.Description, "A server's log files, console output and metrics over time.")
  .add(
    HttpApiEndpoint.get("logs", "/api/servers/:id/logs")
      .setPath(ServerPath)
      .setUrlParams(LogsParams)
      .addSuccess(LogsResponse)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "List or read log files")
      .annotate(
        OpenApi.Description,
        "Without `file`: the server's RPT, ADM and other log files, newest first. With `file`: a byte range " +
          "(`offset`, `length`) or the last `tail` lines, not both. Only files of the server's profiles folder are read."
      )
  )
  .add(
    HttpApiEndpoint.get("console", "/api/servers/:id/console")
      .setPath(ServerPath)
      .setUrlParams(ConsoleParams)
      .addSuccess(ConsoleResponse)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Read the server console")
      .annotate(
        OpenApi.Description,
        "The newest RCON console lines kept in memory, oldest first; with `stream=1` (or `Accept: text/event-stream`) " +
          "a live stream of server-sent events."
      )
  )
  .add(
    HttpApiEndpoint.get("metrics", "/api/servers/:id/metrics")
      .setPath(ServerPath)
      .setUrlParams(MetricsParams)
      .addSuccess(MetricsResponse)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Player count, CPU and memory over time")
      .annotate(
        OpenApi.Description,
        `Samples between \`from\` and \`to\` (default: the last 24 hours); longer ranges are averaged into at most ${MAX_METRIC_POINTS} points.`
      )
  )
  // Every route is about one server: 404 when there is none, 409 when its entry cannot be read.
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .annotate(Access, Access.permission("server.view")) {}

export class LogsApi extends HttpApi.make("logs").add(LogsGroup) {}
