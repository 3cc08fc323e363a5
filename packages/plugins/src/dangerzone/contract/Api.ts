/**
 * The dangerzone (spec "Dangerzone", `admin`): what clears a server's data
 * for good. Every call is audited, reads included.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, BodyExample, Conflict, NotFound, ServerNotFound, ServerUnreadable } from "@garrison/runtime"
import { LOG_CATEGORY_IDS } from "../logCategories.js"

export const LogCategoryId = Schema.Literal(...LOG_CATEGORY_IDS).annotations({ message: () => `expected one of ${LOG_CATEGORY_IDS.join(", ")}` })

export class LogFileView extends Schema.Class<LogFileView>("DangerzoneLogFile")({
  name: Schema.String,
  /** Relative to the install folder (or the profiles folder, when it is outside). */
  path: Schema.String,
  size: Schema.Number,
  modified: Schema.String
}) {}

export class LogCategory extends Schema.Class<LogCategory>("DangerzoneLogCategory")({
  id: LogCategoryId,
  name: Schema.String,
  fileCount: Schema.Number,
  sizeBytes: Schema.Number,
  files: Schema.Array(LogFileView)
}) {}

export class LogsScan extends Schema.Class<LogsScan>("DangerzoneLogsScan")({
  categories: Schema.Array(LogCategory),
  totalFiles: Schema.Number,
  totalBytes: Schema.Number
}) {}

export class ClearLogsInput extends Schema.Class<ClearLogsInput>("DangerzoneClearLogsInput")({
  categories: Schema.Array(LogCategoryId).pipe(Schema.minItems(1), Schema.maxItems(5))
}) {}

export class LogsCleared extends Schema.Class<LogsCleared>("DangerzoneLogsCleared")({
  removedFiles: Schema.Number,
  freedBytes: Schema.Number,
  /** Files a running server is writing now: kept. */
  kept: Schema.Array(Schema.String)
}) {}

export class WipePath extends Schema.Class<WipePath>("DangerzoneWipePath")({
  /** Relative to the install folder. */
  path: Schema.String,
  exists: Schema.Boolean,
  sizeBytes: Schema.Number
}) {}

export class WipePreset extends Schema.Class<WipePreset>("DangerzoneWipePreset")({
  id: Schema.Literal("players", "economy", "full"),
  name: Schema.String,
  description: Schema.String,
  paths: Schema.Array(WipePath),
  sizeBytes: Schema.Number,
  /** Whether there is anything to delete. */
  available: Schema.Boolean
}) {}

export class WipePresets extends Schema.Class<WipePresets>("DangerzoneWipePresets")({
  /** The persistence folder the presets act in, relative to the install folder. */
  storage: Schema.String,
  presets: Schema.Array(WipePreset)
}) {}

export const ServerIdPath = Schema.Struct({ id: Schema.String })

export class DangerzoneGroup extends HttpApiGroup.make("dangerzone")
  .add(
    HttpApiEndpoint.get("wipePresets", "/api/servers/:id/dangerzone/wipe-presets")
      .setPath(ServerIdPath)
      .addSuccess(WipePresets)
      .annotate(OpenApi.Summary, "What each wipe would delete")
      .annotate(OpenApi.Description, "The presets players, economy and full, with the paths each deletes in the mission's persistence folder and their sizes.")
  )
  .add(
    HttpApiEndpoint.get("logsScan", "/api/servers/:id/dangerzone/logs-scan")
      .setPath(ServerIdPath)
      .addSuccess(LogsScan)
      .annotate(OpenApi.Summary, "The server's log files by category")
      .annotate(OpenApi.Description, "Engine, admin, script, crash and BattlEye logs, with their files and sizes.")
  )
  .add(
    HttpApiEndpoint.post("clearLogs", "/api/servers/:id/dangerzone/clear-logs")
      .setPath(ServerIdPath)
      .setPayload(ClearLogsInput)
      .addSuccess(LogsCleared)
      .annotate(OpenApi.Summary, "Delete the server's log files of some categories")
      .annotate(OpenApi.Description, "A running server's current files (written since it started) are kept and named in `kept`.")
      .annotate(BodyExample, { categories: ["script", "crash"] })
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, Access.permission(ADMIN)) {}

export class DangerzoneApi extends HttpApi.make("dangerzone").add(DangerzoneGroup) {}
