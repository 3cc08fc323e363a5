/**
 * The servers API: the spec's Servers table (update, deploy and rebuild
 * come with the mods issue) and the `servers` config backup. Actor refusals
 * map to statuses by the runtime's `actorErrorToHttp`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
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
  GatewayTimeout,
  LaunchFields,
  ServerFault,
  ServerNotFound,
  ServerUnreadable,
  Unavailable
} from "@garrison/runtime"
import {
  AgentUrl,
  BatchBody,
  BatchReply,
  CreateServerBody,
  DetectBody,
  DetectedServer,
  EntryView,
  ServerList,
  ServerListParams,
  ServerPath,
  ServerStatusView,
  ServerView,
  UpdateServerBody
} from "./fields.js"

/** `POST /api/servers/:id/<verb>`: answers the server's status after the action. */
const action = <const Name extends string>(
  name: Name,
  verb: string,
  permission: string,
  docs: { readonly summary: string; readonly description: string }
) =>
  HttpApiEndpoint.post(name, `/api/servers/:id/${verb}`)
    .setPath(ServerPath)
    .addSuccess(ServerStatusView)
    .annotate(Access, Access.permission(permission))
    .annotate(OpenApi.Summary, docs.summary)
    .annotate(OpenApi.Description, docs.description)

/** What the create and update routes say about the fields only an admin may set. */
const HOST_FIELDS_NOTE =
  "Only an admin may set or change what decides what runs and where: executable, installDir (a non-admin may choose one " +
  "inside SERVERS_ROOT when it is set, on create), configFile/profilesDir/battleyeDir outside the install folder, a mod " +
  "folder outside it, an extraArgs value that names a path, rcon.host, rcon.port and agent.url; anyone else gets 403 " +
  "naming the field (`details.fields` lists them all), before any folder is looked at."

export class ServersGroup extends HttpApiGroup.make("servers").annotate(OpenApi.Description, "Game server entries and their life: add, change, start, stop, restart, and live status.")
  .add(
    HttpApiEndpoint.get("list", "/api/servers")
      .setUrlParams(ServerListParams)
      .addSuccess(ServerList)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "List servers")
      .annotate(OpenApi.Description, "Every server entry with its live state, player count, CPU and memory: `{items, nextCursor, total}`, in creation order.")
  )
  .add(
    HttpApiEndpoint.post("create", "/api/servers")
      .setPayload(CreateServerBody)
      .addSuccess(ServerView, { status: 201 })
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(OpenApi.Summary, "Add a server entry")
      .annotate(BodyExample, { name: "Chernarus 1", installDir: "/srv/dayz/chernarus-1", gamePort: 2302 })
      .annotate(
        OpenApi.Description,
        "installDir must be absolute and hold the game server binary (400 naming the missing file), and no other " +
          "entry may have the same folder (409 naming it). RCON settings left " +
          "out are read from the BattlEye config (beserver_x64_active_*.cfg preferred). " +
          HOST_FIELDS_NOTE
      )
  )
  .add(
    HttpApiEndpoint.post("detect", "/api/servers/detect")
      .setPayload(DetectBody)
      .addSuccess(DetectedServer)
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(OpenApi.Summary, "Detect a server install")
      .annotate(BodyExample, { installDir: "/srv/dayz/chernarus-1" })
      .annotate(OpenApi.Description, "Reads an existing install and proposes an entry; saves nothing. `warnings` says when an entry already has the folder.")
  )
  .add(
    HttpApiEndpoint.post("batch", "/api/servers/batch")
      .setPayload(BatchBody)
      .addSuccess(BatchReply)
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(OpenApi.Summary, "Start, stop or restart several servers")
      .annotate(
        OpenApi.Description,
        "One result per id, with the status the single-server route would have answered; one failure does not stop the others."
      )
      .annotate(BodyExample, { action: "restart", ids: ["3f2b8c9e-1d4a-4e6b-9c7f-5a8d2e1b0c4f", "8a1d7f3c-2b6e-4c9a-b5d4-0e9f1a2c3b7d"] })
  )
  .add(
    HttpApiEndpoint.get("get", "/api/servers/:id")
      .setPath(ServerPath)
      .addSuccess(ServerView)
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(OpenApi.Summary, "A server entry")
      .annotate(
        OpenApi.Description,
        "The entry as `PATCH` answers it (folders, ports, mods, launch arguments, RCON and agent with their secrets masked, " +
          "watchdog) with its live status: what the settings form starts from. `server.deploy` because it names host folders."
      )
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/servers/:id")
      .setPath(ServerPath)
      .setPayload(UpdateServerBody)
      .addSuccess(ServerView)
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(OpenApi.Summary, "Change a server entry")
      .annotate(BodyExample, { name: "Chernarus 1 (modded)", mods: ["@CF", "@Community-Online-Tools"], watchdog: true })
      .annotate(
        OpenApi.Description,
        "Changes apply at the next start. An omitted RCON password keeps the stored one. Moving to a folder another entry has is 409. " +
          HOST_FIELDS_NOTE
      )
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/servers/:id")
      .setPath(ServerPath)
      .addSuccess(Schema.Struct({ deleted: Schema.String }))
      .annotate(Access, Access.permission("server.deploy"))
      .annotate(OpenApi.Summary, "Delete a server entry")
      .annotate(OpenApi.Description, "409 while the server runs.")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/servers/:id/status")
      .setPath(ServerPath)
      .addSuccess(ServerStatusView)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Server status")
      .annotate(OpenApi.Description, "State, players, uptime, CPU, memory, map and version of one server.")
  )
  .add(
    action("start", "start", "server.start", {
      summary: "Start a server",
      description: "409 when already running; 409 when a plugin's before-start hook refuses."
    })
  )
  .add(
    action("stop", "stop", "server.stop", {
      summary: "Stop a server",
      description: "RCON #shutdown, then SIGTERM, then SIGKILL, after the entry's waits."
    })
  )
  .add(
    action("restart", "restart", "server.restart", {
      summary: "Restart a server",
      description: "Up to 3 attempts; publishes ServerRestarted for webhooks."
    })
  )
  .add(
    action("lock", "lock", "server.rcon", {
      summary: "Lock a server to new players",
      description: "RCON #lock. 409 when stopped, 503 before the RCON session is up."
    })
  )
  .add(
    action("unlock", "unlock", "server.rcon", {
      summary: "Let new players join again",
      description: "RCON #unlock."
    })
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(Conflict)
  .addError(Unavailable)
  .addError(ServerFault)
  // The agent answered badly (502) or its mod did not answer in time (504), for actions it serves.
  .addError(BadGateway)
  .addError(GatewayTimeout) {}

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
  ...LaunchFields.fields,
  /** Left out (a backup of a version before agents): the entry keeps the agent it has; null removes it. */
  agent: Schema.optional(Schema.NullOr(Schema.Struct({ url: AgentUrl, apiKey: Schema.String.pipe(Schema.maxLength(512)) })))
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

export class ServersBackupGroup extends HttpApiGroup.make("serversBackup").annotate(OpenApi.Description, "Backing up and restoring server entries.")
  // Literal paths: the accounts plugin serves /api/backup/users and /roles the same way.
  .add(
    HttpApiEndpoint.get("backup", "/api/backup/servers").addSuccess(ServersBackup)
      .annotate(OpenApi.Summary, "Back up server entries")
      .annotate(OpenApi.Description, "Every entry as stored, RCON passwords masked.")
  )
  .add(
    HttpApiEndpoint.post("restore", "/api/restore/servers")
      .setPayload(ServersRestoreBody)
      .addSuccess(ServersRestored)
      .annotate(OpenApi.Summary, "Restore server entries")
      .annotate(BodyExample, {
        kind: "garrison.servers",
        version: 1,
        exportedAt: "2026-01-31T12:00:00.000Z",
        servers: [
          {
            id: "3f2b8c9e-1d4a-4e6b-9c7f-5a8d2e1b0c4f",
            name: "Chernarus 1",
            installDir: "/srv/dayz/chernarus-1",
            executable: "/srv/dayz/chernarus-1/DayZServer_x64",
            configFile: "/srv/dayz/chernarus-1/serverDZ.cfg",
            gamePort: 2302,
            profilesDir: "/srv/dayz/chernarus-1/profiles",
            battleyeDir: "/srv/dayz/chernarus-1/battleye",
            mods: ["@CF"],
            serverMods: [],
            extraArgs: ["-doLogs", "-adminLog"],
            rcon: { protocol: "battleye", host: "127.0.0.1", port: 2306, password: "********" },
            watchdog: true,
            stop: { shutdownWaitMs: 30000, terminateWaitMs: 10000 }
          }
        ]
      })
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
