/**
 * The server install and update routes (the spec's Servers rows for
 * update, update status, cancel, deploy and rebuild). Everything that
 * changes needs `server.deploy`; the status is open to any signed-in user
 * who may see the server.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, Conflict, ServerNotFound, ServerUnreadable, StoredText, TrimmedStoredText, Unavailable } from "@garrison/runtime"

export const DEPLOY_PERMISSION = "server.deploy"

export const UpdateKind = Schema.Literal("update", "rebuild", "deploy")
export type UpdateKind = typeof UpdateKind.Type
export const UpdateState = Schema.Literal("idle", "running", "done", "failed", "cancelled")
export type UpdateState = typeof UpdateState.Type
export const Branch = Schema.Literal("stable", "experimental")
export type Branch = typeof Branch.Type

export class UpdateStatus extends Schema.Class<UpdateStatus>("ServerUpdateStatus")({
  serverId: Schema.String,
  state: UpdateState,
  /** What runs (or ran last): an update, a rebuild (every file checked again) or a deploy. */
  kind: Schema.NullOr(UpdateKind),
  /** `login`, `downloading`, `verifying`, `committing`, `done`...: SteamCMD's own stage words. */
  phase: Schema.String,
  /** 0 to 100. */
  percent: Schema.Number,
  bytes: Schema.Number,
  totalBytes: Schema.NullOr(Schema.Number),
  /** SteamCMD's last line. */
  lastLine: Schema.String,
  /** Why it failed or was cancelled, as a person reads it. */
  error: Schema.NullOr(Schema.String),
  startedAt: Schema.NullOr(Schema.String),
  endedAt: Schema.NullOr(Schema.String),
  /** The installed app (`223350` stable, `1042420` experimental) and build, from SteamCMD's manifest. */
  appId: Schema.NullOr(Schema.String),
  buildId: Schema.NullOr(Schema.String)
}) {}

export class DeployInput extends Schema.Class<DeployInput>("ServerDeployInput")({
  name: TrimmedStoredText.pipe(Schema.minLength(1, { message: () => "must not be empty" }), Schema.maxLength(100)),
  /** A new (or empty) folder: the server is downloaded into it. */
  installDir: StoredText.pipe(Schema.minLength(1), Schema.maxLength(4096)),
  gamePort: Schema.optional(Schema.Int.pipe(Schema.between(1, 65535))),
  branch: Schema.optionalWith(Branch, { default: () => "stable" as const })
}) {}

export class DeployStarted extends Schema.Class<DeployStarted>("ServerDeployStarted")({
  serverId: Schema.String,
  name: Schema.String,
  installDir: Schema.String,
  gamePort: Schema.Number,
  update: UpdateStatus
}) {}

export const ServerIdPath = Schema.Struct({ id: Schema.String })

export class UpdatesGroup extends HttpApiGroup.make("serverUpdates").annotate(OpenApi.Description, "Updating the game server's files through SteamCMD.")
  .add(
    HttpApiEndpoint.post("update", "/api/servers/:id/update")
      .setPath(ServerIdPath)
      .addSuccess(UpdateStatus, { status: 202 })
      .annotate(Access, Access.permission(DEPLOY_PERMISSION))
      .annotate(OpenApi.Summary, "Update the game server through SteamCMD")
      .annotate(
        OpenApi.Description,
        "Runs `app_update` into the server's folder as its long operation (status `updating`; it cannot start meanwhile). " +
          "202 with the status; follow it at `/update/status` or `/update/events`. 409 while the server runs, while another " +
          "operation runs, without a Steam account, or when Steam asks for a Steam Guard code."
      )
  )
  .add(
    HttpApiEndpoint.get("status", "/api/servers/:id/update/status")
      .setPath(ServerIdPath)
      .addSuccess(UpdateStatus)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Update progress")
  )
  .add(
    HttpApiEndpoint.get("events", "/api/servers/:id/update/events")
      .setPath(ServerIdPath)
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" })))
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Update progress as Server-Sent Events")
      .annotate(
        OpenApi.Description,
        "`event: status` with the status as JSON: now, then at every change, until the operation ends (the last event has " +
          "state done, failed or cancelled); then the stream ends."
      )
  )
  .add(
    HttpApiEndpoint.post("cancel", "/api/servers/:id/update/cancel")
      .setPath(ServerIdPath)
      .addSuccess(UpdateStatus)
      .annotate(Access, Access.permission(DEPLOY_PERMISSION))
      .annotate(OpenApi.Summary, "Cancel an update")
      .annotate(OpenApi.Description, "Ends SteamCMD; the server is left stopped, the status says it was cancelled. 409 when no update runs.")
  )
  .add(
    HttpApiEndpoint.post("rebuild", "/api/servers/:id/rebuild")
      .setPath(ServerIdPath)
      .addSuccess(UpdateStatus, { status: 202 })
      .annotate(Access, Access.permission(DEPLOY_PERMISSION))
      .annotate(OpenApi.Summary, "Check every file of the game server again")
      .annotate(OpenApi.Description, "An update with `validate`: SteamCMD puts back every file that is missing or changed. Same rules as update.")
  )
  .add(
    HttpApiEndpoint.post("deploy", "/api/deploy")
      .setPayload(DeployInput)
      .addSuccess(DeployStarted, { status: 202 })
      .annotate(Access, Access.permission(DEPLOY_PERMISSION))
      .annotate(OpenApi.Summary, "Deploy a new server through SteamCMD")
      .annotate(
        OpenApi.Description,
        "Creates the server entry on a new folder and downloads the game server into it (its first update). 202 with the entry's id and " +
          "the update status. 400 when the folder has files in it, 409 when another entry has it."
      )
      .annotate(BodyExample, { name: "Chernarus 2", installDir: "/srv/dayz/chernarus-2", gamePort: 2402, branch: "stable" })
  )
  // Every server route: 404 without the server, 409 when its entry cannot be read or the request is refused for its
  // state (running, busy, no Steam account, a Steam Guard code needed), 503 when SteamCMD cannot run.
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(Conflict)
  .addError(Unavailable) {}

export class UpdatesApi extends HttpApi.make("serverUpdates").add(UpdatesGroup) {}
