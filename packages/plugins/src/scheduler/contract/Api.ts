/**
 * The scheduler's HTTP contract: job schemas and the `HttpApi`. Reading is
 * open to any signed-in caller; every change needs `server.restart`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  BadRequest,
  BodyExample,
  hasNul,
  NotFound,
  NUL_RULE,
  pageFields,
  pageParams,
  ServerNotFound,
  ServerUnreadable,
  totalField,
  TrimmedStoredText,
  Unauthenticated
} from "@garrison/runtime"

/** The built-in permission that guards every change to a schedule. */
export const SCHEDULE_PERMISSION = "server.restart"

/**
 * `apply-updates` checks the workshop for the server's mods and, when an
 * update is due, runs a rollout (its own warnings, lock, kick and check:
 * the rollout policy's, not the job's).
 */
export const JOB_KINDS = ["restart", "stop", "message", "lock", "unlock", "kick-all", "rcon", "apply-updates"] as const
export const JobKind = Schema.Literal(...JOB_KINDS)
export type JobKind = typeof JobKind.Type

/** Kinds that disturb players, so they may announce themselves beforehand. */
export const WARNING_KINDS: ReadonlyArray<JobKind> = ["restart", "stop", "kick-all"]

export const MAX_WARNING_MINUTES = 1440
export const MAX_WARNINGS = 10
export const MAX_TEXT_LENGTH = 400

/** One RCON line: a newline would smuggle a second command. */
const oneLine = (field: string) =>
  Schema.String.pipe(
    Schema.minLength(1, { message: () => `${field} must not be empty` }),
    Schema.maxLength(MAX_TEXT_LENGTH, { message: () => `${field} must be at most ${MAX_TEXT_LENGTH} characters` }),
    Schema.pattern(/^[^\r\n]*$/, { message: () => `${field} must be a single line` }),
    Schema.filter((s) => !hasNul(s) || `${field} ${NUL_RULE}`)
  )

/**
 * Body of create and replace. `message` is the warning text for restart,
 * stop and kick-all (`{minutes}` is replaced; a default is used when
 * absent) and the broadcast of `message`. `reason` is the kick reason of
 * `kick-all`; `command` is the raw RCON command of `rcon`.
 */
export class JobInput extends Schema.Class<JobInput>("ScheduledJobInput")({
  kind: JobKind,
  cron: TrimmedStoredText.pipe(Schema.minLength(1, { message: () => "cron must not be empty" }), Schema.maxLength(200)),
  timeZone: Schema.optionalWith(TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(64)), { default: () => "UTC" }),
  warnings: Schema.optionalWith(
    Schema.Array(
      Schema.Int.pipe(
        Schema.between(1, MAX_WARNING_MINUTES, { message: () => `each warning is 1 to ${MAX_WARNING_MINUTES} minutes` })
      )
    ).pipe(Schema.maxItems(MAX_WARNINGS)),
    { default: () => [] }
  ),
  message: Schema.optional(oneLine("message")),
  /** The kick reason of `kick-all`. */
  reason: Schema.optional(oneLine("reason")),
  command: Schema.optional(oneLine("command")),
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true })
}) {}

export class JobWarning extends Schema.Class<JobWarning>("ScheduledJobWarning")({
  minutes: Schema.Int,
  /** ISO-8601, UTC. */
  at: Schema.String
}) {}

export class ScheduledJob extends Schema.Class<ScheduledJob>("ScheduledJob")({
  id: Schema.String,
  serverId: Schema.String,
  kind: JobKind,
  cron: Schema.String,
  timeZone: Schema.String,
  /** Minutes before each run, largest first. */
  warnings: Schema.Array(Schema.Int),
  message: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  command: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  lastRunAt: Schema.NullOr(Schema.String),
  /** `ok`, `skipped: <why>` or `failed: <why>` for the last run. */
  lastResult: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  /** ISO-8601, UTC; null when disabled or the expression never matches again. */
  nextRunAt: Schema.NullOr(Schema.String),
  /** The warnings still to come before `nextRunAt`, earliest first. */
  nextWarnings: Schema.Array(JobWarning)
}) {}

/** Oldest first (by creation); `total` counts the server's jobs. */
export class ScheduledJobPage extends Schema.Class<ScheduledJobPage>("ScheduledJobPage")({
  ...pageFields(ScheduledJob),
  ...totalField
}) {}

export const JOB_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const
export const JobListParams = Schema.Struct(pageParams(JOB_PAGE))

export const ServerPath = Schema.Struct({ id: Schema.String })
export const JobPath = Schema.Struct({ id: Schema.String, jobId: Schema.String })

export class SchedulerGroup extends HttpApiGroup.make("scheduler").annotate(OpenApi.Description, "Jobs scheduled on a server: restarts, messages, backups.")
  .add(
    HttpApiEndpoint.get("list", "/api/servers/:id/scheduler")
      .setPath(ServerPath)
      .setUrlParams(JobListParams)
      .addSuccess(ScheduledJobPage)
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Unauthenticated)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "List a server's scheduled jobs")
      .annotate(OpenApi.Description, "Each job with its next run and the warnings still to come before it.")
  )
  .add(
    HttpApiEndpoint.post("create", "/api/servers/:id/scheduler")
      .setPath(ServerPath)
      .setPayload(JobInput)
      .addSuccess(ScheduledJob, { status: 201 })
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(Access, Access.permission(SCHEDULE_PERMISSION))
      .annotate(OpenApi.Summary, "Schedule a job")
      .annotate(
        OpenApi.Description,
        "A cron expression (minute hour day month weekday, or a nickname such as `@daily`) in `timeZone` (default UTC). " +
          "Restart, stop and kick-all may warn players `warnings` minutes before, with `message` (`{minutes}` is replaced)."
      )
      .annotate(BodyExample, {
        kind: "restart",
        cron: "0 6 * * *",
        timeZone: "Europe/Berlin",
        warnings: [15, 5, 1],
        message: "Server restart in {minutes} minutes"
      })
  )
  .add(
    HttpApiEndpoint.put("replace", "/api/servers/:id/scheduler/:jobId")
      .setPath(JobPath)
      .setPayload(JobInput)
      .addSuccess(ScheduledJob)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(Access, Access.permission(SCHEDULE_PERMISSION))
      .annotate(OpenApi.Summary, "Replace a scheduled job")
      .annotate(BodyExample, { kind: "message", cron: "*/30 * * * *", message: "Join our Discord: discord.gg/example", enabled: true })
  )
  .add(
    HttpApiEndpoint.patch("toggle", "/api/servers/:id/scheduler/:jobId/toggle")
      .setPath(JobPath)
      .addSuccess(ScheduledJob)
      .addError(NotFound)
      .annotate(Access, Access.permission(SCHEDULE_PERMISSION))
      .annotate(OpenApi.Summary, "Turn a scheduled job on or off")
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/servers/:id/scheduler/:jobId")
      .setPath(JobPath)
      .addError(NotFound)
      .annotate(Access, Access.permission(SCHEDULE_PERMISSION))
      .annotate(OpenApi.Summary, "Delete a scheduled job")
  )
  // Every route is about one server: 404 when there is none, 409 when its entry cannot be read.
  .addError(ServerNotFound)
  .addError(ServerUnreadable) {}

export class SchedulerApi extends HttpApi.make("scheduler").add(SchedulerGroup) {}
