/**
 * The dangerzone (spec "Dangerzone", `admin`): what clears a server's data
 * for good. Every call is audited, reads included.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, BodyExample, Conflict, NotFound, ServerNotFound, ServerUnreadable, Unavailable } from "@garrison/runtime"
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

const ConfirmName = Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "The server's name, exactly: a guard against acting on the wrong server." })

export const WipePresetId = Schema.Literal("players", "economy", "full").annotations({ message: () => "expected one of players, economy, full" })

export class WipeInput extends Schema.Class<WipeInput>("DangerzoneWipeInput")({
  preset: WipePresetId,
  confirmName: ConfirmName
}) {}

export class WipeResult extends Schema.Class<WipeResult>("DangerzoneWipeResult")({
  preset: WipePresetId,
  /** The persistence folder wiped, relative to the install folder. */
  storage: Schema.String,
  /** The pre-wipe backup (restore it to undo the wipe). */
  backup: Schema.String,
  removed: Schema.Array(Schema.Struct({ path: Schema.String, sizeBytes: Schema.Number })),
  freedBytes: Schema.Number
}) {}

export const REPLICATE_COMPONENTS = ["config", "mpmissions", "mods", "profiles"] as const
export const ReplicateComponent = Schema.Literal(...REPLICATE_COMPONENTS).annotations({ message: () => `expected one of ${REPLICATE_COMPONENTS.join(", ")}` })

export class ReplicatePreviewInput extends Schema.Class<ReplicatePreviewInput>("DangerzoneReplicatePreviewInput")({
  sourceServerId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  components: Schema.Array(ReplicateComponent).pipe(Schema.minItems(1), Schema.maxItems(4))
}) {}

export class ReplicateInput extends Schema.Class<ReplicateInput>("DangerzoneReplicateInput")({
  ...ReplicatePreviewInput.fields,
  confirmName: ConfirmName
}) {}

export class ReplicateComponentPlan extends Schema.Class<ReplicateComponentPlan>("DangerzoneReplicateComponent")({
  component: ReplicateComponent,
  files: Schema.Number,
  bytes: Schema.Number,
  /** What is left out, and why (persistence, logs, the target's own BattlEye settings, links). */
  skipped: Schema.Array(Schema.String)
}) {}

export const ServerRef = Schema.Struct({ id: Schema.String, name: Schema.String })

export class ReplicatePreview extends Schema.Class<ReplicatePreview>("DangerzoneReplicatePreview")({
  source: ServerRef,
  target: ServerRef,
  components: Schema.Array(ReplicateComponentPlan),
  /** What the target keeps of its own whatever is copied. */
  kept: Schema.Array(Schema.String),
  /** Why a replicate would be refused now (the target runs, ...); empty when it may go ahead. */
  blockers: Schema.Array(Schema.String),
  warnings: Schema.Array(Schema.String)
}) {}

export class ReplicateResult extends Schema.Class<ReplicateResult>("DangerzoneReplicateResult")({
  source: ServerRef,
  target: ServerRef,
  components: Schema.Array(ReplicateComponentPlan),
  kept: Schema.Array(Schema.String),
  /** The backup of the target made first (type pre-restore): restore it to undo the replicate. */
  backup: Schema.String,
  warnings: Schema.Array(Schema.String)
}) {}

export const ServerIdPath = Schema.Struct({ id: Schema.String })

export class DangerzoneGroup extends HttpApiGroup.make("dangerzone").annotate(OpenApi.Description, "Destructive maintenance: wipes and clearing logs.")
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
  .add(
    HttpApiEndpoint.post("wipe", "/api/servers/:id/dangerzone/wipe")
      .setPath(ServerIdPath)
      .setPayload(WipeInput)
      .addSuccess(WipeResult)
      .annotate(OpenApi.Summary, "Wipe the server's persistence (players, economy or everything)")
      .annotate(
        OpenApi.Description,
        "The server must be stopped (409) and `confirmName` must be its name (400). A pre-wipe backup is made first (a failure stops the wipe); then the preset's paths are deleted. Starting the server is refused until it ends."
      )
      .annotate(BodyExample, { preset: "economy", confirmName: "Main" })
  )
  .add(
    HttpApiEndpoint.post("replicatePreview", "/api/servers/:id/dangerzone/replicate-preview")
      .setPath(ServerIdPath)
      .setPayload(ReplicatePreviewInput)
      .addSuccess(ReplicatePreview)
      .annotate(OpenApi.Summary, "What a replicate from another server would copy into this one")
      .annotate(OpenApi.Description, "Per component, the files and bytes it would copy and what it leaves out; what the target keeps; what would block it now. Changes nothing.")
      .annotate(BodyExample, { sourceServerId: "main", components: ["config", "mpmissions"] })
  )
  .add(
    HttpApiEndpoint.post("replicate", "/api/servers/:id/dangerzone/replicate")
      .setPath(ServerIdPath)
      .setPayload(ReplicateInput)
      .addSuccess(ReplicateResult)
      .annotate(OpenApi.Summary, "Copy another server's config, missions, mods or profiles into this one")
      .annotate(
        OpenApi.Description,
        "This server (the target) must be stopped (409) and `confirmName` must be its name (400). The target keeps its hostname, instanceId, BattlEye settings and persistence (storage folders are never copied); a pre-restore backup of the target is made first."
      )
      .annotate(BodyExample, { sourceServerId: "main", components: ["config", "mpmissions"], confirmName: "Test" })
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .addError(Unavailable)
  .annotate(Access, Access.permission(ADMIN)) {}

export class DangerzoneApi extends HttpApi.make("dangerzone").add(DangerzoneGroup) {}
