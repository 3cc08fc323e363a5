/**
 * The servers API: the spec's Servers table (update, deploy and rebuild
 * come with the mods issue) and the `servers` config backup. Actor refusals
 * map to statuses in `internal/httpErrors.ts`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  ADMIN,
  BadRequest,
  Conflict,
  LaunchFields,
  NotFound,
  Unavailable
} from "@garrison/runtime"
import {
  BatchBody,
  BatchReply,
  CreateServerBody,
  DetectBody,
  DetectedServer,
  EntryView,
  ServerFault,
  ServerList,
  ServerListParams,
  ServerPath,
  ServerStatusView,
  ServerView,
  UpdateServerBody
} from "./fields.js"

const action = <const Name extends string>(name: Name, verb: string, permission: string, description: string) =>
  HttpApiEndpoint.post(name, `/api/servers/:id/${verb}`)
    .setPath(ServerPath)
    .addSuccess(ServerStatusView)
    .annotate(Access, Access.permission(permission))
    .annotate(OpenApi.Description, description)

export class ServersGroup extends HttpApiGroup.make("servers")
  .add(
    HttpApiEndpoint.get("list", "/api/servers")
      .setUrlParams(ServerListParams)
      .addSuccess(ServerList)
      .annotate(Access, Access.anyAuth)
  )
  .add(
    HttpApiEndpoint.post("create", "/api/servers")
      .setPayload(CreateServerBody)
      .addSuccess(ServerView, { status: 201 })
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(
        OpenApi.Description,
        "installDir must be absolute and hold the game server binary (400 naming the missing file), and no other " +
          "entry may have the same folder (409 naming it). RCON settings left " +
          "out are read from the BattlEye config (beserver_x64_active_*.cfg preferred)."
      )
  )
  .add(
    HttpApiEndpoint.post("detect", "/api/servers/detect")
      .setPayload(DetectBody)
      .addSuccess(DetectedServer)
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(
        OpenApi.Description,
        "Reads an existing install and proposes an entry; saves nothing. `warnings` says when an entry already has the folder."
      )
  )
  .add(
    HttpApiEndpoint.post("batch", "/api/servers/batch")
      .setPayload(BatchBody)
      .addSuccess(BatchReply)
      .annotate(Access, Access.permission("server.deploy"))
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/servers/:id")
      .setPath(ServerPath)
      .setPayload(UpdateServerBody)
      .addSuccess(ServerView)
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(
        OpenApi.Description,
        "Changes apply at the next start. An omitted RCON password keeps the stored one. Moving to a folder another entry has is 409."
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/servers/:id")
      .setPath(ServerPath)
      .addSuccess(Schema.Struct({ deleted: Schema.String }))
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(OpenApi.Description, "409 while the server runs.")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/servers/:id/status")
      .setPath(ServerPath)
      .addSuccess(ServerStatusView)
      .annotate(Access, Access.anyAuth)
  )
  .add(action("start", "start", "server.start", "409 when already running; 409 when a plugin's before-start hook refuses."))
  .add(action("stop", "stop", "server.stop", "RCON #shutdown, then SIGTERM, then SIGKILL, after the entry's waits."))
  .add(action("restart", "restart", "server.restart", "Up to 3 attempts; publishes ServerRestarted for webhooks."))
  .add(action("lock", "lock", "server.rcon", "RCON #lock. 409 when stopped, 503 before the RCON session is up."))
  .add(action("unlock", "unlock", "server.rcon", "RCON #unlock."))
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .addError(Unavailable)
  .addError(ServerFault) {}

/** Entries as stored, passwords masked. */
export const BackupServer = Schema.Struct({ id: Schema.String, ...EntryView.fields }).annotations({ identifier: "BackupServer" })

export class ServersBackup extends Schema.Class<ServersBackup>("ServersBackup")({
  kind: Schema.Literal("garrison.servers"),
  version: Schema.Literal(1),
  exportedAt: Schema.optional(Schema.String),
  servers: Schema.Array(BackupServer).pipe(Schema.maxItems(10_000))
}) {}

/** A backup entry being restored: its launch parameters obey the same rules as on create. */
export const RestoreServer = Schema.Struct({
  ...BackupServer.fields,
  ...LaunchFields.fields
}).annotations({ identifier: "RestoreServer" })

/** The body of a restore: a backup, checked as new input (one bad launch parameter is 400 naming it). */
export const ServersRestoreBody = Schema.Struct({
  ...ServersBackup.fields,
  servers: Schema.Array(RestoreServer).pipe(Schema.maxItems(10_000))
}).annotations({ identifier: "ServersRestoreBody" })

export class ServersRestored extends Schema.Class<ServersRestored>("ServersRestored")({
  created: Schema.Array(Schema.String),
  updated: Schema.Array(Schema.String)
}) {}

export class ServersBackupGroup extends HttpApiGroup.make("serversBackup")
  // Literal paths: the accounts plugin serves /api/backup/users and /roles the same way.
  .add(HttpApiEndpoint.get("backup", "/api/backup/servers").addSuccess(ServersBackup))
  .add(
    HttpApiEndpoint.post("restore", "/api/restore/servers")
      .setPayload(ServersRestoreBody)
      .addSuccess(ServersRestored)
      .annotate(
        OpenApi.Description,
        "Entries are matched by id and created or updated (applies at next start); entries not in the backup are kept. " +
          "A masked RCON password keeps the stored one, or is read from the install's BattlEye config. " +
          "409 (nothing restored) when two entries would share an install folder."
      )
  )
  .addError(BadRequest)
  .addError(Conflict)
  .annotate(Access, Access.permission(ADMIN)) {}

export class ServersApi extends HttpApi.make("servers").add(ServersGroup).add(ServersBackupGroup) {}
