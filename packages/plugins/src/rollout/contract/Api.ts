/**
 * Safe rollouts of mod and game updates on a running server: the contract.
 * Each server has a policy (warnings, lock, kick message, check window);
 * `POST /api/servers/:id/rollout` runs one. Reading needs `mods.view`;
 * changing the policy `mods.install`; a rollout `mods.install` and
 * `server.restart` (it stops and starts the server).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, Conflict, ServerNotFound, ServerUnreadable, TrimmedStoredText } from "@garrison/runtime"

export const MAX_WARNINGS = 10
export const MAX_WARNING_MINUTES = 1440

const OneLine = (max: number) =>
  TrimmedStoredText.pipe(
    Schema.minLength(1, { message: () => "must not be empty" }),
    Schema.maxLength(max, { message: () => `must be at most ${max} characters` }),
    Schema.pattern(/^[^\r\n]*$/, { message: () => "must be a single line" })
  )

export const DEFAULT_WARNING_MESSAGE = "Server restarts for updates in {minutes} minute(s)"
export const DEFAULT_KICK_MESSAGE = "Server is updating; back in a few minutes"

export class RolloutPolicy extends Schema.Class<RolloutPolicy>("RolloutPolicy")({
  /** Minutes before the restart to warn players at (largest first). Empty: no warnings. */
  warnings: Schema.Array(
    Schema.Int.pipe(Schema.between(1, MAX_WARNING_MINUTES, { message: () => `each warning is 1 to ${MAX_WARNING_MINUTES} minutes` }))
  ).pipe(Schema.maxItems(MAX_WARNINGS)),
  /** `{minutes}` is replaced. */
  warningMessage: OneLine(400),
  kickMessage: OneLine(400),
  /** Lock the server (no new joins) before kicking. */
  lock: Schema.Boolean,
  /** How long the new version must run and answer before the rollout counts it healthy. */
  checkWindowSeconds: Schema.Int.pipe(Schema.between(10, 3600, { message: () => "checkWindowSeconds is 10 to 3600" }))
}) {}

export const defaultPolicy = new RolloutPolicy({
  warnings: [15, 5, 1],
  warningMessage: DEFAULT_WARNING_MESSAGE,
  kickMessage: DEFAULT_KICK_MESSAGE,
  lock: true,
  checkWindowSeconds: 120
})

export class RolloutInput extends Schema.Class<RolloutInput>("RolloutInput")({
  /** Workshop ids to update; absent: every mod with a due update (pending, not pinned, not held). */
  mods: Schema.optional(Schema.Array(Schema.String.pipe(Schema.pattern(/^\d{1,20}$/, { message: () => "a workshop id is a number" }))).pipe(Schema.maxItems(1000))),
  /** New mods to install with the rollout (on a running server, the only way to install one). */
  install: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        workshopId: Schema.String.pipe(Schema.pattern(/^\d{1,20}$/, { message: () => "a workshop id is a number" })),
        name: Schema.optional(TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(64))),
        type: Schema.optionalWith(Schema.Literal("client", "server"), { default: () => "client" as const })
      })
    ).pipe(Schema.maxItems(100)),
    { default: () => [] }
  ),
  /** Also update the game server itself (SteamCMD `app_update`). */
  server: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** Skip the warnings (the lock, kick and check still happen). */
  now: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

export const RolloutState = Schema.Literal("idle", "running", "done", "rolled-back", "failed", "cancelled")
export type RolloutState = typeof RolloutState.Type

export class RolloutMod extends Schema.Class<RolloutMod>("RolloutMod")({
  workshopId: Schema.String,
  /** The mod's folder (`@cf`); for a mod being installed, its workshop title until it is on. */
  name: Schema.String,
  /** A new mod the rollout installs, rather than a newer version of an installed one. */
  install: Schema.Boolean,
  /** The workshop's `time_updated` of the version put on, when known. */
  version: Schema.NullOr(Schema.String)
}) {}

export class RolloutStatus extends Schema.Class<RolloutStatus>("RolloutStatus")({
  serverId: Schema.String,
  state: RolloutState,
  /** `downloading`, `warning`, `locking`, `kicking`, `stopping`, `applying`, `updating-server`, `starting`, `checking`, `rolling-back`, `done`. */
  phase: Schema.String,
  /** What it does now, as a person reads it. */
  message: Schema.String,
  mods: Schema.Array(RolloutMod),
  server: Schema.Boolean,
  /** Warnings sent so far (minutes). */
  warningsSent: Schema.Array(Schema.Number),
  /** When the server will be stopped, while warnings count down. */
  restartAt: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  startedAt: Schema.NullOr(Schema.String),
  endedAt: Schema.NullOr(Schema.String),
  /** What happened, one line per step (the last 50). */
  log: Schema.Array(Schema.String)
}) {}

export const ServerIdPath = Schema.Struct({ id: Schema.String })

export class RolloutGroup extends HttpApiGroup.make("rollout").annotate(OpenApi.Description, "Rolling mod and game updates out to running servers.")
  .add(
    HttpApiEndpoint.get("policy", "/api/servers/:id/rollout/policy")
      .setPath(ServerIdPath)
      .addSuccess(RolloutPolicy)
      .annotate(Access, Access.permission("mods.view"))
      .annotate(OpenApi.Summary, "A server's rollout policy")
  )
  .add(
    HttpApiEndpoint.put("setPolicy", "/api/servers/:id/rollout/policy")
      .setPath(ServerIdPath)
      .setPayload(RolloutPolicy)
      .addSuccess(RolloutPolicy)
      .annotate(Access, Access.permission("mods.install"))
      .annotate(OpenApi.Summary, "Set a server's rollout policy")
      .annotate(BodyExample, {
        warnings: [15, 5, 1],
        warningMessage: DEFAULT_WARNING_MESSAGE,
        kickMessage: DEFAULT_KICK_MESSAGE,
        lock: true,
        checkWindowSeconds: 120
      })
  )
  .add(
    HttpApiEndpoint.post("start", "/api/servers/:id/rollout")
      .setPath(ServerIdPath)
      .setPayload(RolloutInput)
      .addSuccess(RolloutStatus, { status: 202 })
      .annotate(Access, Access.all(Access.permission("mods.install"), Access.permission("server.restart")))
      .annotate(OpenApi.Summary, "Roll updates out to a running server")
      .annotate(
        OpenApi.Description,
        "Downloads first while players play, warns them at the policy's times, locks, kicks, stops, puts the new versions on " +
          "(keeping the old ones), starts and checks the server (running, RCON answering, the mods it reports) for the check " +
          "window. A version that fails to start or crashes in the window is rolled back and the server started again. " +
          "On a stopped server the updates are put on without warnings or a start. 409 when nothing is due or another operation runs."
      )
      .annotate(BodyExample, { install: [{ workshopId: "1564026768", type: "client" }], server: false, now: false })
  )
  .add(
    HttpApiEndpoint.get("status", "/api/servers/:id/rollout/status")
      .setPath(ServerIdPath)
      .addSuccess(RolloutStatus)
      .annotate(Access, Access.permission("mods.view"))
      .annotate(OpenApi.Summary, "Rollout progress")
  )
  .add(
    HttpApiEndpoint.get("events", "/api/servers/:id/rollout/events")
      .setPath(ServerIdPath)
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" })))
      .annotate(Access, Access.permission("mods.view"))
      .annotate(OpenApi.Summary, "Rollout progress as Server-Sent Events")
      .annotate(OpenApi.Description, "`event: status` with the status as JSON, now and at every change until the rollout ends.")
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(Conflict) {}

export class RolloutApi extends HttpApi.make("rollout").add(RolloutGroup) {}
