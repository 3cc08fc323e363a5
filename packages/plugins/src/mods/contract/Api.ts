/**
 * The mods plugin's HTTP contract (the spec's Mods table). Reading needs
 * `mods.view`, every change `mods.install`, the download cache `admin`.
 * Installs and updates download through SteamCMD and run as jobs: they
 * answer 202 with the job, whose progress `GET /api/mods/install-status`
 * shows.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  ADMIN,
  BadGateway,
  BadRequest,
  BodyExample,
  Conflict,
  Forbidden,
  NotFound,
  pageFields,
  type PermissionDefinition,
  ServerNotFound,
  ServerUnreadable,
  TrimmedStoredText,
  Unavailable
} from "@garrison/runtime"

export const MODS_VIEW = "mods.view"
export const MODS_INSTALL = "mods.install"
/** The permissions the mods plugin owns. */
export const MODS_PERMISSIONS: ReadonlyArray<PermissionDefinition> = [
  { name: MODS_VIEW, description: "View installed mods and pending updates" },
  { name: MODS_INSTALL, description: "Install, update, order and remove mods" }
]

export const ModType = Schema.Literal("client", "server").annotations({ message: () => "expected client or server" })
export type ModType = typeof ModType.Type

const WorkshopId = Schema.String.pipe(Schema.pattern(/^\d{1,20}$/, { message: () => "a workshop id is a number" }))

export class PendingUpdate extends Schema.Class<PendingUpdate>("ModPendingUpdate")({
  /** When the workshop's newer version was published (ISO-8601 UTC). */
  workshopUpdatedAt: Schema.String,
  /** When the check that found it ran. */
  checkedAt: Schema.String
}) {}

export class Mod extends Schema.Class<Mod>("Mod")({
  workshopId: Schema.String,
  /** The folder on the server, `@<name>` (from the item's `meta.cpp`, made safe), as `-mod=` names it. */
  name: Schema.String,
  title: Schema.String,
  type: ModType,
  enabled: Schema.Boolean,
  /** 1 is loaded first; client and server mods are ordered together. */
  loadOrder: Schema.Number,
  /** A pinned mod keeps its installed version: update-all and rollouts leave it. */
  pinned: Schema.Boolean,
  sizeBytes: Schema.Number,
  /** `.bikey` files this mod put into `keys/`. */
  keys: Schema.Array(Schema.String),
  installedAt: Schema.String,
  /** When the installed files were downloaded. */
  downloadedAt: Schema.String,
  /** The workshop's `time_updated` of the installed version, when known. */
  workshopUpdatedAt: Schema.NullOr(Schema.String),
  pendingUpdate: Schema.NullOr(PendingUpdate),
  /**
   * A version a rollout had to roll back (the workshop's `time_updated` of
   * it): rollouts and update-all leave the mod until a newer one is published.
   */
  heldUpdate: Schema.NullOr(Schema.String)
}) {}

/** Every mod of the server in one page (a server has tens of mods): `nextCursor` is always null. */
export class ModList extends Schema.Class<ModList>("ModList")({
  ...pageFields(Mod),
  /** The launch parameters these make: `-mod=@a;@b` and `-serverMod=@x` (empty when none). */
  launch: Schema.Struct({ mod: Schema.String, serverMod: Schema.String })
}) {}

export const JobKind = Schema.Literal("install", "update")
/** `interrupted`: the controller stopped while the job ran (shown after its restart); the server's files are as they were. */
export const JobState = Schema.Literal("queued", "downloading", "installing", "done", "failed", "interrupted")

export class ModJob extends Schema.Class<ModJob>("ModJob")({
  id: Schema.String,
  kind: JobKind,
  serverId: Schema.String,
  workshopId: Schema.String,
  state: JobState,
  /** 0 to 100. */
  percent: Schema.Number,
  bytes: Schema.Number,
  totalBytes: Schema.NullOr(Schema.Number),
  /** The last line SteamCMD printed, or what the job does now. */
  message: Schema.String,
  /** Why it failed, as a person reads it. */
  error: Schema.NullOr(Schema.String),
  startedAt: Schema.String,
  endedAt: Schema.NullOr(Schema.String),
  /** The mod as installed, once done. */
  mod: Schema.NullOr(Mod)
}) {}

/** Every job kept, in one page: `nextCursor` is always null. */
export class ModJobs extends Schema.Class<ModJobs>("ModJobs")({ ...pageFields(ModJob) }) {}

export class InstallInput extends Schema.Class<InstallInput>("ModInstallInput")({
  workshopId: WorkshopId,
  /** The folder name to use instead of the one in the item's `meta.cpp` (made safe the same way). */
  name: Schema.optional(TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(64))),
  type: Schema.optionalWith(ModType, { default: () => "client" as const })
}) {}

export class ModPatch extends Schema.Class<ModPatch>("ModPatch")({
  enabled: Schema.optional(Schema.Boolean),
  loadOrder: Schema.optional(Schema.Int.pipe(Schema.between(1, 1000, { message: () => "loadOrder is 1 to 1000" }))),
  pinned: Schema.optional(Schema.Boolean)
}) {}

export class TypeInput extends Schema.Class<TypeInput>("ModTypeInput")({ type: ModType }) {}

export class ReorderInput extends Schema.Class<ReorderInput>("ModReorderInput")({
  /** Workshop ids, first loaded first; every installed mod exactly once. */
  order: Schema.Array(WorkshopId).pipe(Schema.maxItems(1000))
}) {}

export class UpdateCheck extends Schema.Class<UpdateCheck>("ModUpdateCheck")({
  checked: Schema.Number,
  /** Mods with a newer version on the workshop (pinned ones included: they are only never applied). */
  pending: Schema.Array(Mod),
  /** Installed items the workshop no longer knows (removed or hidden). */
  missing: Schema.Array(Schema.String)
}) {}

export class UpdateStarted extends Schema.Class<UpdateStarted>("ModUpdateStarted")({ jobs: Schema.Array(ModJob) }) {}

export class CacheStats extends Schema.Class<CacheStats>("ModCacheStats")({
  folder: Schema.String,
  items: Schema.Number,
  totalBytes: Schema.Number,
  /** Items no server has installed. */
  unusedItems: Schema.Number,
  unusedBytes: Schema.Number
}) {}

export class CacheCleaned extends Schema.Class<CacheCleaned>("ModCacheCleaned")({
  removed: Schema.Array(Schema.String),
  freedBytes: Schema.Number
}) {}

export const ServerModsPath = Schema.Struct({ id: Schema.String })
export const ModPath = Schema.Struct({ id: Schema.String, workshopId: WorkshopId })
export const ModNamePath = Schema.Struct({ id: Schema.String, modName: Schema.String })

export class ModsGroup extends HttpApiGroup.make("mods").annotate(OpenApi.Description, "A server's mods: install, update, uninstall, enable, order and type.")
  .add(
    HttpApiEndpoint.get("list", "/api/servers/:id/mods")
      .setPath(ServerModsPath)
      .addSuccess(ModList)
      .annotate(Access, Access.permission(MODS_VIEW))
      .annotate(OpenApi.Summary, "List a server's mods")
      .annotate(OpenApi.Description, "In load order, with the launch parameters they make and any pending update.")
  )
  .add(
    HttpApiEndpoint.post("install", "/api/servers/:id/mods/install")
      .setPath(ServerModsPath)
      .setPayload(InstallInput)
      .addSuccess(ModJob, { status: 202 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Install a workshop mod")
      .annotate(
        OpenApi.Description,
        "Downloads the item through SteamCMD into the shared cache, copies it to `<server>/@<name>` and its keys to `keys/`. " +
          "Answers 202 with the job (see `GET /api/mods/install-status`). 409 when the server runs, the mod is installed, or the folder is taken."
      )
      .annotate(BodyExample, { workshopId: "1559212036", type: "client" })
  )
  .add(
    HttpApiEndpoint.del("uninstall", "/api/servers/:id/mods/uninstall/:workshopId")
      .setPath(ModPath)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Uninstall a mod")
      .annotate(OpenApi.Description, "Removes its folder and the keys no other installed mod uses. 409 while the server runs.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/servers/:id/mods/:workshopId")
      .setPath(ModPath)
      .setPayload(ModPatch)
      .addSuccess(Mod)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Enable, disable, pin or move a mod")
      .annotate(OpenApi.Description, "Applies at the server's next start. `loadOrder` moves the mod there and shifts the others.")
      .annotate(BodyExample, { enabled: false })
  )
  .add(
    HttpApiEndpoint.patch("setType", "/api/servers/:id/mods/:modName/type")
      .setPath(ModNamePath)
      .setPayload(TypeInput)
      .addSuccess(Mod)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Load a mod as a client mod (-mod=) or a server mod (-serverMod=)")
      .annotate(OpenApi.Description, "`modName` is the folder (`@CF`) or the workshop id.")
      .annotate(BodyExample, { type: "server" })
  )
  .add(
    HttpApiEndpoint.post("reorder", "/api/servers/:id/mods/reorder")
      .setPath(ServerModsPath)
      .setPayload(ReorderInput)
      .addSuccess(ModList)
      .addError(BadRequest)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Set the load order")
      .annotate(BodyExample, { order: ["1559212036", "1564026768"] })
  )
  .add(
    HttpApiEndpoint.post("checkUpdates", "/api/servers/:id/mods/check-updates")
      .setPath(ServerModsPath)
      .addSuccess(UpdateCheck)
      .addError(BadGateway)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Check the workshop for newer versions")
      .annotate(OpenApi.Description, "A mod needs an update when its files were downloaded before the item's `time_updated`.")
  )
  .add(
    HttpApiEndpoint.post("updateOne", "/api/servers/:id/mods/update/:workshopId")
      .setPath(ModPath)
      .addSuccess(ModJob, { status: 202 })
      .addError(NotFound)
      .addError(Conflict)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Update one mod")
      .annotate(OpenApi.Description, "Downloads the newest version and replaces the server's copy. 409 while the server runs or when the mod is pinned.")
  )
  .add(
    HttpApiEndpoint.post("updateAll", "/api/servers/:id/mods/update-all")
      .setPath(ServerModsPath)
      .addSuccess(UpdateStarted, { status: 202 })
      .addError(Conflict)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Update every mod with a pending update")
      .annotate(OpenApi.Description, "Pinned mods are left. 409 while the server runs.")
  )
  .add(
    HttpApiEndpoint.get("pending", "/api/servers/:id/mods/updates")
      .setPath(ServerModsPath)
      .addSuccess(ModList)
      .annotate(Access, Access.permission(MODS_VIEW))
      .annotate(OpenApi.Summary, "Mods with a pending update")
  )
  .add(
    HttpApiEndpoint.del("clearPending", "/api/servers/:id/mods/updates/:workshopId")
      .setPath(ModPath)
      .addError(NotFound)
      .annotate(Access, Access.permission(MODS_INSTALL))
      .annotate(OpenApi.Summary, "Forget a pending update")
      .annotate(OpenApi.Description, "The next check finds it again while the workshop still has the newer version.")
  )
  // Every route is about one server (404 when there is none, 409 when its entry cannot be read); any
  // change may be refused for the mod's or server's state (409), and SteamCMD may be missing (503).
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .addError(Unavailable) {}

export class ModJobsGroup extends HttpApiGroup.make("modJobs").annotate(OpenApi.Description, "Mod install and update progress, and the download cache.")
  .add(
    HttpApiEndpoint.get("installStatus", "/api/mods/install-status")
      .addSuccess(ModJobs)
      .addError(Forbidden)
      // Not about one server: a role granting mods.view on some servers only reads those servers' jobs (the handler filters).
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Install and update progress")
      .annotate(
        OpenApi.Description,
        "Jobs running now and those that ended in the last hour, newest first: those of the servers the caller holds `mods.view` on " +
          "(everywhere, or the servers a scoped grant names); 403 for a caller who holds it nowhere."
      )
  )
  .add(
    HttpApiEndpoint.get("installEvents", "/api/mods/install-status/events")
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" })))
      .addError(Forbidden)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Install and update progress as Server-Sent Events")
      .annotate(OpenApi.Description, "`event: jobs` with the jobs as JSON (as `install-status` lists them, for the same servers), now and at every change until none runs.")
  )
  .add(
    HttpApiEndpoint.get("cacheStats", "/api/mods/cache/stats")
      .addSuccess(CacheStats)
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Download cache statistics")
  )
  .add(
    HttpApiEndpoint.post("cacheClean", "/api/mods/cache/clean")
      .addSuccess(CacheCleaned)
      .addError(Conflict)
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Remove cached items no server uses")
  ) {}

export class ModsApi extends HttpApi.make("mods").add(ModsGroup).add(ModJobsGroup) {}
