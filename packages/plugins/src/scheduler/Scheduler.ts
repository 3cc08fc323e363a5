/**
 * The `Scheduler` service: scheduled jobs per server, stored in
 * `scheduled_jobs`. Every change wakes the runner so it re-plans at once.
 * Exported, so other plugins and embedders can manage jobs without HTTP.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import { type AuditActor, type AuditEntry, AuditTrail } from "@garrison/runtime"
import { type ServerLookupError, Servers } from "../servers/index.js"
import { randomUUID } from "node:crypto"
import { JobInput, type ScheduledJob, WARNING_KINDS } from "./contract/Api.js"
import {
  InvalidScheduledJob,
  ScheduledJobNotFound,
  type SchedulerStoreError,
  storeError
} from "./errors.js"
import { validate } from "./internal/cron.js"
import { JobRow, type StoredJob, toView } from "./internal/rows.js"

export interface SchedulerShape {
  readonly list: (serverId: string) => Effect.Effect<ReadonlyArray<ScheduledJob>, ServerLookupError | SchedulerStoreError>
  /** `by`: who makes it (kept, and named in the audit rows of its runs); none for work without a caller. */
  readonly create: (
    serverId: string,
    input: JobInput,
    by?: AuditActor
  ) => Effect.Effect<ScheduledJob, ServerLookupError | InvalidScheduledJob | SchedulerStoreError>
  readonly replace: (
    serverId: string,
    jobId: string,
    input: JobInput
  ) => Effect.Effect<ScheduledJob, ServerLookupError | ScheduledJobNotFound | InvalidScheduledJob | SchedulerStoreError>
  /** Enables a disabled job and disables an enabled one. */
  readonly toggle: (
    serverId: string,
    jobId: string
  ) => Effect.Effect<ScheduledJob, ServerLookupError | ScheduledJobNotFound | SchedulerStoreError>
  readonly remove: (
    serverId: string,
    jobId: string
  ) => Effect.Effect<void, ServerLookupError | ScheduledJobNotFound | SchedulerStoreError>
  /**
   * Deletes every job of a server (its entry was deleted: `ServerDeleted`) and
   * wakes the runner so it forgets them; answers how many were removed. The
   * server need not exist any more.
   */
  readonly removeServerJobs: (serverId: string) => Effect.Effect<number, SchedulerStoreError>

  // For the runner.
  readonly enabledJobs: Effect.Effect<ReadonlyArray<StoredJob>, SchedulerStoreError>
  readonly find: (jobId: string) => Effect.Effect<Option.Option<StoredJob>, SchedulerStoreError>
  /** Sets the job's last run and, given, writes the run's audit row in the same transaction. */
  readonly recordRun: (jobId: string, at: number, result: string, audited?: AuditEntry) => Effect.Effect<void, SchedulerStoreError>
  /** Completes at the next change to any job (or at once when one happened since the last call). */
  readonly changed: Effect.Effect<void>
}

const SELECT_COLUMNS = `id, server_id AS "serverId", kind, cron, time_zone AS "timeZone", warnings, message, reason, command,
  enabled, last_run_at AS "lastRunAt", last_result AS "lastResult", created_at AS "createdAt", updated_at AS "updatedAt",
  created_by AS "createdBy", created_by_name AS "createdByName"`

const decodeRows = Schema.decodeUnknown(Schema.Array(JobRow))

/** Field checks that depend on the kind; the schema has already checked shapes and lengths. */
const checkKind = (input: JobInput): Either.Either<JobInput, InvalidScheduledJob> => {
  const invalid = (field: string, message: string) => Either.left(new InvalidScheduledJob({ field, message: `${field}: ${message}` }))
  if (input.kind === "message" && input.message === undefined) return invalid("message", "required for a message job")
  if (input.kind === "rcon" && input.command === undefined) return invalid("command", "required for an rcon job")
  if (input.warnings.length > 0 && !WARNING_KINDS.includes(input.kind)) {
    return invalid("warnings", `only ${WARNING_KINDS.join(", ")} jobs announce themselves`)
  }
  if (new Set(input.warnings).size !== input.warnings.length) return invalid("warnings", "each minute may appear once")
  return Either.right(input)
}

export class Scheduler extends Context.Tag("@garrison/plugins/Scheduler")<Scheduler, SchedulerShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const servers = yield* Servers
    const audit = yield* AuditTrail
    // Sliding with room for one: many changes while the runner is busy collapse into one wake-up.
    const changes = yield* Queue.sliding<void>(1)
    const notify = Queue.offer(changes, undefined).pipe(Effect.asVoid)
    const now = Clock.currentTimeMillis
    const isoNow = Effect.map(now, (ms) => new Date(ms).toISOString())

    /** The server must exist; its actor is not needed (nor made) to keep its jobs. */
    const requireServer = (serverId: string) => Effect.asVoid(servers.entry(serverId))

    const select = (where: "server" | "id" | "enabled", value: string) => {
      const query =
        where === "server"
          ? sql`SELECT ${sql.literal(SELECT_COLUMNS)} FROM scheduled_jobs WHERE server_id = ${value} ORDER BY created_at, id`
          : where === "id"
            ? sql`SELECT ${sql.literal(SELECT_COLUMNS)} FROM scheduled_jobs WHERE id = ${value}`
            : sql`SELECT ${sql.literal(SELECT_COLUMNS)} FROM scheduled_jobs WHERE enabled = 1`
      return query.pipe(Effect.flatMap(decodeRows), Effect.mapError(storeError("read scheduled jobs")))
    }

    const findOnServer = (serverId: string, jobId: string) =>
      Effect.flatMap(select("id", jobId), (rows) => {
        const job = rows[0]
        return job !== undefined && job.serverId === serverId
          ? Effect.succeed(job)
          : Effect.fail(new ScheduledJobNotFound({ serverId, jobId }))
      })

    const view = (jobId: string, serverId: string) =>
      Effect.gen(function* () {
        const job = yield* findOnServer(serverId, jobId)
        return toView(job, yield* now)
      })

    /** Validates the kind's fields and the schedule against the current time. */
    const checked = (input: JobInput) =>
      Effect.gen(function* () {
        const ok = yield* checkKind(input)
        yield* validate(ok.cron, ok.timeZone, yield* now)
        // Stored largest first, which is also the order they fire in.
        return { ...ok, warnings: [...ok.warnings].sort((a, b) => b - a) }
      })

    const list: SchedulerShape["list"] = (serverId) =>
      Effect.gen(function* () {
        yield* requireServer(serverId)
        const rows = yield* select("server", serverId)
        const at = yield* now
        return rows.map((row) => toView(row, at))
      })

    const create: SchedulerShape["create"] = (serverId, input, by) =>
      Effect.gen(function* () {
        yield* requireServer(serverId)
        const job = yield* checked(input)
        const id = randomUUID()
        const at = yield* isoNow
        yield* sql`INSERT INTO scheduled_jobs
          (id, server_id, kind, cron, time_zone, warnings, message, reason, command, enabled, last_run_at, last_result, created_at, updated_at,
            created_by, created_by_name)
          VALUES (${id}, ${serverId}, ${job.kind}, ${job.cron}, ${job.timeZone}, ${JSON.stringify(job.warnings)},
            ${job.message ?? null}, ${job.reason ?? null}, ${job.command ?? null}, ${job.enabled ? 1 : 0}, NULL, NULL, ${at}, ${at},
            ${by?.id ?? null}, ${by?.name ?? null})`.pipe(
          Effect.mapError(storeError("create a scheduled job"))
        )
        yield* notify
        // Just inserted: not finding it is a fault, not a 404.
        return yield* view(id, serverId).pipe(Effect.catchTag("ScheduledJobNotFound", Effect.die))
      })

    const replace: SchedulerShape["replace"] = (serverId, jobId, input) =>
      Effect.gen(function* () {
        yield* requireServer(serverId)
        yield* findOnServer(serverId, jobId)
        const job = yield* checked(input)
        const at = yield* isoNow
        yield* sql`UPDATE scheduled_jobs SET kind = ${job.kind}, cron = ${job.cron}, time_zone = ${job.timeZone},
            warnings = ${JSON.stringify(job.warnings)}, message = ${job.message ?? null}, reason = ${job.reason ?? null},
            command = ${job.command ?? null}, enabled = ${job.enabled ? 1 : 0}, updated_at = ${at}
          WHERE id = ${jobId}`.pipe(Effect.mapError(storeError("replace a scheduled job")))
        yield* notify
        return yield* view(jobId, serverId)
      })

    const toggle: SchedulerShape["toggle"] = (serverId, jobId) =>
      Effect.gen(function* () {
        yield* requireServer(serverId)
        yield* findOnServer(serverId, jobId)
        const at = yield* isoNow
        // One statement, so two concurrent toggles cannot both read the old value.
        yield* sql`UPDATE scheduled_jobs SET enabled = 1 - enabled, updated_at = ${at} WHERE id = ${jobId}`.pipe(
          Effect.mapError(storeError("toggle a scheduled job"))
        )
        yield* notify
        return yield* view(jobId, serverId)
      })

    const remove: SchedulerShape["remove"] = (serverId, jobId) =>
      Effect.gen(function* () {
        yield* requireServer(serverId)
        yield* findOnServer(serverId, jobId)
        yield* sql`DELETE FROM scheduled_jobs WHERE id = ${jobId}`.pipe(Effect.mapError(storeError("delete a scheduled job")))
        yield* notify
      })

    const removeServerJobs: SchedulerShape["removeServerJobs"] = (serverId) =>
      Effect.gen(function* () {
        const [row] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM scheduled_jobs WHERE server_id = ${serverId}`
        const count = Number(row?.n ?? 0)
        if (count > 0) yield* sql`DELETE FROM scheduled_jobs WHERE server_id = ${serverId}`
        return count
      }).pipe(
        sql.withTransaction,
        Effect.mapError(storeError("delete a server's scheduled jobs")),
        // The runner may be sleeping towards one of them; a firing re-reads its job, so it would do nothing, but re-plan now.
        Effect.tap((count) => (count > 0 ? notify : Effect.void))
      )

    const recordRun: SchedulerShape["recordRun"] = (jobId, at, result, audited) =>
      sql`UPDATE scheduled_jobs SET last_run_at = ${new Date(at).toISOString()}, last_result = ${result} WHERE id = ${jobId}`.pipe(
        // The run's audit row commits with its record, or neither does.
        Effect.zipRight(audited === undefined ? Effect.void : audit.record(audited)),
        sql.withTransaction,
        Effect.asVoid,
        Effect.mapError(storeError("record a scheduled run"))
      )

    return Scheduler.of({
      list,
      create,
      replace,
      toggle,
      remove,
      removeServerJobs,
      enabledJobs: select("enabled", ""),
      find: (jobId) => Effect.map(select("id", jobId), (rows) => Option.fromNullable(rows[0])),
      recordRun,
      changed: Queue.take(changes)
    })
  })

  /** Needs the kernel's `SqlClient` and `AuditTrail`, and the servers plugin's `Servers`. */
  static readonly layer = Layer.effect(Scheduler, Scheduler.make)
}
