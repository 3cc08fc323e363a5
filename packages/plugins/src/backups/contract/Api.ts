/**
 * A server's backups (spec "Backups"): zips of its configured paths with a
 * manifest, listed, previewed, downloaded, restored and deleted; and the
 * backup config (schedule, paths, retention). The list and the config are
 * open to any signed-in user; everything else needs `server.restart`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, Conflict, Forbidden, NotFound, pageFields, pageParams, ServerNotFound, ServerUnreadable, totalField } from "@garrison/runtime"
import { BACKUP_TYPES, TIERS } from "../internal/retention.js"

export const RESTORE_PERMISSION = "server.restart"
export const BACKUPS_PAGE = { defaultLimit: 100, maxLimit: 1000 }
export const CONTENTS_PAGE = { defaultLimit: 500, maxLimit: 5000 }

export const BackupType = Schema.Literal(...BACKUP_TYPES).annotations({ message: () => `expected one of ${BACKUP_TYPES.join(", ")}` })
export const Tier = Schema.Literal(...TIERS)

export class BackupView extends Schema.Class<BackupView>("Backup")({
  /** `<type>-<yyyymmdd>-<hhmmss>-<ms>.zip`, UTC. */
  filename: Schema.String,
  type: BackupType,
  createdAt: Schema.String,
  sizeBytes: Schema.Number,
  /** The coarsest tier of the tiered retention that keeps it (monthly, weekly, daily, hourly), or null. */
  tier: Schema.NullOr(Tier)
}) {}

export class BackupPage extends Schema.Class<BackupPage>("BackupPage")({ ...pageFields(BackupView), ...totalField }) {}

const Count = (max: number) => Schema.Int.pipe(Schema.between(0, max, { message: () => `must be an integer from 0 to ${max}` }))
const Keep = Schema.Int.pipe(Schema.between(1, 1000, { message: () => "must be an integer from 1 to 1000" }))

export const KeepPerType = Schema.Struct({
  manual: Keep,
  scheduled: Keep,
  "pre-restore": Keep,
  "pre-wipe": Keep,
  "pre-update": Keep
})
export const Tiers = Schema.Struct({ hourly: Count(1000), daily: Count(1000), weekly: Count(1000), monthly: Count(1000) })

/** Whether a relative path comes back to the folder itself (`.`, `a/..`, `./`); other problems are the service's to name. */
const namesWholeFolder = (path: string) => {
  let depth = 0
  for (const segment of path.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue
    depth = segment === ".." ? depth - 1 : depth + 1
    if (depth < 0) return false
  }
  return depth === 0
}

const BackupPathInput = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(1024),
  Schema.filter((s) => !s.includes("\0") && s.isWellFormed(), { message: () => "must be text without NUL characters" }),
  // The whole install folder would make a restore remove every file made since (the game itself among them).
  Schema.filter((s) => !namesWholeFolder(s), { message: () => "must name a file or folder inside the install folder, not the whole folder" })
)

export class BackupConfig extends Schema.Class<BackupConfig>("BackupConfig")({
  /** Minutes between scheduled backups; 0: none. */
  intervalMinutes: Schema.Int.pipe(Schema.between(0, 43_200, { message: () => "must be 0 (off) or minutes from 1 to 43200" })),
  /** Paths relative to the install folder; null: the defaults (the config file, the profiles folder, the mission's storage folder). */
  paths: Schema.NullOr(Schema.Array(BackupPathInput).pipe(Schema.minItems(1), Schema.maxItems(64))),
  /** Leave log files (.RPT, .ADM, .log, .mdmp) out of folders. */
  excludeLogs: Schema.Boolean,
  /** Keep the newest N backups of each type. */
  keep: KeepPerType,
  /** Tiered retention: the newest backup of each of the last N hours, days, ISO weeks and months (UTC) is kept too; 0: tier off. */
  tiers: Tiers
}) {}

export class BackupConfigView extends Schema.Class<BackupConfigView>("BackupConfigView")({
  ...BackupConfig.fields,
  /** What `paths: null` takes on this server now, `install/...` or `profiles/...` (a profiles folder outside the install folder). */
  defaultPaths: Schema.Array(Schema.String),
  /** When the next scheduled backup is due (ISO 8601), or null when none is scheduled. */
  nextScheduledAt: Schema.NullOr(Schema.String)
}) {}

export const BackupConfigInput = Schema.Struct({
  intervalMinutes: Schema.optional(BackupConfig.fields.intervalMinutes),
  paths: Schema.optional(BackupConfig.fields.paths),
  excludeLogs: Schema.optional(Schema.Boolean),
  keep: Schema.optional(Schema.partial(KeepPerType)),
  tiers: Schema.optional(Schema.partial(Tiers))
})

export const BackupState = Schema.Literal("idle", "running", "done", "failed")

export class BackupStatus extends Schema.Class<BackupStatus>("BackupStatus")({
  serverId: Schema.String,
  /** What runs (or ran last). */
  operation: Schema.NullOr(Schema.Literal("backup", "restore")),
  state: BackupState,
  /** The backup being made or restored. */
  filename: Schema.NullOr(Schema.String),
  type: Schema.NullOr(BackupType),
  /** `gathering`, `snapshot`, `zipping`, `pruning`, `checking`, `pre-restore backup`, `unpacking`, `swapping`, `done`. */
  phase: Schema.String,
  /** 0 to 100. */
  percent: Schema.Number,
  bytesDone: Schema.Number,
  bytesTotal: Schema.Number,
  error: Schema.NullOr(Schema.String),
  startedAt: Schema.NullOr(Schema.String),
  endedAt: Schema.NullOr(Schema.String)
}) {}

export class ContentsEntry extends Schema.Class<ContentsEntry>("BackupContentsEntry")({
  name: Schema.String,
  kind: Schema.Literal("file", "folder", "symlink", "other"),
  size: Schema.Number,
  compressedSize: Schema.Number,
  modified: Schema.String,
  /** From the manifest; null for an entry it does not name. */
  sha256: Schema.NullOr(Schema.String)
}) {}

export class BackupContents extends Schema.Class<BackupContents>("BackupContents")({
  filename: Schema.String,
  /** The manifest's summary; null when the zip has none (not made by Garrison). */
  manifest: Schema.NullOr(
    Schema.Struct({
      server: Schema.Struct({ id: Schema.String, name: Schema.String }),
      type: BackupType,
      createdAt: Schema.String,
      running: Schema.Boolean,
      paths: Schema.Array(Schema.Struct({ root: Schema.Literal("install", "profiles"), path: Schema.String, kind: Schema.Literal("file", "folder") })),
      excluded: Schema.Array(Schema.String),
      fileCount: Schema.Number,
      totalBytes: Schema.Number,
      warnings: Schema.Array(Schema.String)
    })
  ),
  /** Why it could not be restored as it is, or null. */
  problem: Schema.NullOr(Schema.String),
  ...pageFields(ContentsEntry),
  ...totalField
}) {}

export class BackupRemoved extends Schema.Class<BackupRemoved>("BackupRemoved")({ filename: Schema.String, type: BackupType }) {}

export const ServerIdPath = Schema.Struct({ id: Schema.String })
export const BackupPath = Schema.Struct({ id: Schema.String, filename: Schema.String.pipe(Schema.maxLength(255)) })
export const TypeParam = Schema.Struct({ type: Schema.optional(BackupType) })
export const DownloadParams = Schema.Struct({
  type: Schema.optional(BackupType),
  /** `include`: the zip as kept, secrets and all (admins only). */
  secrets: Schema.optional(Schema.Literal("include"))
})

const sse = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" }))
const zipFile = Schema.Uint8ArrayFromSelf.pipe(HttpApiSchema.withEncoding({ kind: "Uint8Array", contentType: "application/zip" }))

export class BackupsGroup extends HttpApiGroup.make("backups").annotate(OpenApi.Description, "A server's backups: make, list, restore and delete.")
  .add(
    HttpApiEndpoint.get("list", "/api/servers/:id/backups")
      .setPath(ServerIdPath)
      .setUrlParams(Schema.Struct({ type: Schema.optional(BackupType), ...pageParams(BACKUPS_PAGE) }))
      .addSuccess(BackupPage)
      .annotate(OpenApi.Summary, "The server's backups, newest first")
      .annotate(OpenApi.Description, "Each with its type, size, time and the retention tier that keeps it; `type` lists one type only.")
      .annotate(Access, Access.anyAuth)
  )
  .add(
    HttpApiEndpoint.post("create", "/api/servers/:id/backups")
      .setPath(ServerIdPath)
      .addSuccess(BackupStatus, { status: 202 })
      .annotate(OpenApi.Summary, "Make a manual backup")
      .annotate(
        OpenApi.Description,
        "Answers 202 once it began; follow it at /backup-status (or its /events stream). A running server's SQLite databases are copied through SQLite's online backup. 409 while a backup or restore of the server runs."
      )
      .annotate(Access, Access.permission(RESTORE_PERMISSION))
  )
  .add(
    HttpApiEndpoint.get("status", "/api/servers/:id/backup-status")
      .setPath(ServerIdPath)
      .addSuccess(BackupStatus)
      .annotate(OpenApi.Summary, "The backup or restore running now, or the last one")
      .annotate(Access, Access.anyAuth)
  )
  .add(
    HttpApiEndpoint.get("events", "/api/servers/:id/backup-status/events")
      .setPath(ServerIdPath)
      .addSuccess(sse)
      .annotate(OpenApi.Summary, "The backup or restore's progress as Server-Sent Events")
      .annotate(OpenApi.Description, "`status` events with a BackupStatus each, until it has ended.")
      .annotate(Access, Access.anyAuth)
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/servers/:id/backups/:filename")
      .setPath(BackupPath)
      .setUrlParams(TypeParam)
      .addSuccess(BackupRemoved)
      .annotate(OpenApi.Summary, "Delete a backup")
      .annotate(OpenApi.Description, "`type`, when given, must be the backup's type (a guard against deleting the wrong one).")
      .annotate(Access, Access.permission(RESTORE_PERMISSION))
  )
  .add(
    HttpApiEndpoint.get("download", "/api/servers/:id/backups/:filename/download")
      .setPath(BackupPath)
      .setUrlParams(DownloadParams)
      .addSuccess(zipFile)
      .addError(Forbidden)
      .annotate(OpenApi.Summary, "Download a backup's zip")
      .annotate(
        OpenApi.Description,
        "A copy made as it streams, `Content-Disposition: attachment`, with the game's secrets (`password`, `passwordAdmin`, " +
          "BattlEye's `RConPassword`, in any text file) replaced by `********`; its manifest lists them in `secretsMasked`, and " +
          "restoring such a copy keeps the server's current values. An admin may ask for the zip as it is kept " +
          "(`?secrets=include`, audited); anyone else asking is 403."
      )
      .annotate(Access, Access.permission(RESTORE_PERMISSION))
  )
  .add(
    HttpApiEndpoint.get("contents", "/api/servers/:id/backups/:filename/contents")
      .setPath(BackupPath)
      .setUrlParams(Schema.Struct({ type: Schema.optional(BackupType), ...pageParams(CONTENTS_PAGE) }))
      .addSuccess(BackupContents)
      .annotate(OpenApi.Summary, "Preview a backup: its manifest and files, without unpacking")
      .annotate(OpenApi.Description, "`problem` says why it could not be restored as it is (a hostile or damaged zip), when it could not.")
      .annotate(Access, Access.permission(RESTORE_PERMISSION))
  )
  .add(
    HttpApiEndpoint.post("restore", "/api/servers/:id/backups/:filename/restore")
      .setPath(BackupPath)
      .setUrlParams(TypeParam)
      .addSuccess(BackupStatus, { status: 202 })
      .annotate(OpenApi.Summary, "Restore a backup")
      .annotate(
        OpenApi.Description,
        "The server must be stopped (409). The whole zip is checked first (a symbolic link, a path leaving the folder, a file the manifest does not vouch for: 409, nothing written); a pre-restore backup is made; files are unpacked beside their targets with their checksums checked, then swapped in. Answers 202 once it began; starting the server is refused until it ends."
      )
      .annotate(Access, Access.permission(RESTORE_PERMISSION))
  )
  .add(
    HttpApiEndpoint.get("config", "/api/servers/:id/backup-config")
      .setPath(ServerIdPath)
      .addSuccess(BackupConfigView)
      .annotate(OpenApi.Summary, "The server's backup config")
      .annotate(Access, Access.anyAuth)
  )
  .add(
    HttpApiEndpoint.put("setConfig", "/api/servers/:id/backup-config")
      .setPath(ServerIdPath)
      .setPayload(BackupConfigInput)
      .addSuccess(BackupConfigView)
      .annotate(OpenApi.Summary, "Change the backup config (interval, paths, retention)")
      .annotate(OpenApi.Description, "Fields left out keep their values. The retention applies from the next backup on.")
      .annotate(BodyExample, { intervalMinutes: 60, keep: { scheduled: 48 }, tiers: { daily: 14, weekly: 8 } })
      .annotate(Access, Access.permission(RESTORE_PERMISSION))
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict) {}

export class BackupsApi extends HttpApi.make("backups").add(BackupsGroup) {}
