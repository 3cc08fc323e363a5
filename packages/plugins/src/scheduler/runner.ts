/**
 * The scheduler's one loop. It sleeps (on `Clock`, so TestClock drives it)
 * until the earliest due moment of any enabled job, a run or a warning,
 * fires every moment due then on its own fiber, and plans again. A change to
 * any job wakes it early to re-plan.
 *
 * Missed moments are never replayed: the loop plans from "now" when it
 * starts, so runs due while the controller was down are skipped, and when
 * it wakes more than `lateGrace` after a moment (the host slept, the clock
 * jumped) it skips everything due up to now and plans from there. No
 * catch-up run is ever made.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Either from "effect/Either"
import { type AuditEntry, auditActorFields, EventBus, SCHEDULER_ACTOR } from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { ScheduledJobRan } from "./events.js"
import { runJob, isRunning, warningText } from "./internal/fire.js"
import { earliestAfter, type Moment } from "./internal/plan.js"
import type { StoredJob } from "./internal/rows.js"
import { Scheduler } from "./Scheduler.js"

export interface RunnerOptions {
  /** A moment this late is treated as missed (skipped), not fired. */
  readonly lateGrace: Duration.DurationInput
  /** After a database error, wait this long before planning again. */
  readonly retryAfter: Duration.DurationInput
}

export const defaultRunnerOptions: RunnerOptions = { lateGrace: Duration.minutes(1), retryAfter: Duration.seconds(10) }

/**
 * The audit row of a run that acted (done or failed; a skipped run did
 * nothing to the server and has none): the scheduler's marker as actor,
 * `server.<kind>` as action, and in details the job and who made it.
 */
export const runAuditEntry = (job: StoredJob, dueAt: string, error: string | undefined): AuditEntry => ({
  ...auditActorFields(SCHEDULER_ACTOR),
  ip: null,
  action: `server.${job.kind}`,
  target: job.serverId,
  result: error === undefined ? "success" : "failure",
  details: {
    jobId: job.id,
    kind: job.kind,
    cron: job.cron,
    timeZone: job.timeZone,
    dueAt,
    createdBy: job.createdBy === null ? null : { id: job.createdBy, name: job.createdByName },
    ...(error === undefined ? {} : { error })
  }
})

/** Fires one moment; every outcome is logged, none escapes. */
const fire = (moment: Moment) =>
  Effect.gen(function* () {
    const scheduler = yield* Scheduler
    const servers = yield* Servers
    const bus = yield* EventBus
    // Re-read: the job may have been disabled, changed or deleted since the plan was made.
    const found = yield* scheduler.find(moment.jobId)
    if (Option.isNone(found) || !found.value.enabled) return
    const job = found.value
    const server = yield* Effect.either(servers.get(job.serverId))
    const annotations = { jobId: job.id, serverId: job.serverId, kind: job.kind }

    if (moment.warning !== undefined) {
      if (Either.isLeft(server) || !(yield* isRunning(server.right))) return
      const text = warningText(job, moment.warning)
      return yield* server.right.control.broadcast(text).pipe(
        Effect.catchAll((error) => Effect.logWarning(`scheduled warning failed: ${error.message}`)),
        Effect.annotateLogs(annotations)
      )
    }

    // A server that is gone (or cannot be read) is skipped with the gateway's own words for it.
    const outcome = yield* Either.match(server, {
      onLeft: (missing) => Effect.succeed({ _tag: "Skipped" as const, why: missing.message }),
      onRight: (live) => runJob(job, live)
    }).pipe(Effect.either)
    const dueAt = new Date(moment.at).toISOString()
    const event =
      outcome._tag === "Left"
        ? new ScheduledJobRan({ serverId: job.serverId, jobId: job.id, kind: job.kind, ok: false, error: outcome.left.message, dueAt })
        : outcome.right._tag === "Skipped"
          ? new ScheduledJobRan({ serverId: job.serverId, jobId: job.id, kind: job.kind, ok: true, skipped: outcome.right.why, dueAt })
          : new ScheduledJobRan({ serverId: job.serverId, jobId: job.id, kind: job.kind, ok: true, dueAt })
    const result = event.error !== undefined ? `failed: ${event.error}` : event.skipped !== undefined ? `skipped: ${event.skipped}` : "ok"
    yield* Effect.annotateLogs(
      event.ok ? Effect.logInfo(`scheduled ${job.kind}: ${result}`) : Effect.logWarning(`scheduled ${job.kind}: ${result}`),
      annotations
    )
    // One audit row per action run, in the transaction that records the run.
    yield* scheduler.recordRun(job.id, moment.at, result, event.skipped === undefined ? runAuditEntry(job, dueAt, event.error) : undefined)
    yield* bus.publish(event)
  }).pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logError(`scheduled job ${moment.jobId} failed`, Cause.pretty(cause))
    )
  )

/** Runs until interrupted (the plugin forks it in its start scope). */
export const runScheduler = (options: RunnerOptions = defaultRunnerOptions) =>
  Effect.gen(function* () {
    const scheduler = yield* Scheduler
    const firings = yield* FiberSet.make()
    const grace = Duration.toMillis(options.lateGrace)
    // Everything due at or before `cursor` is handled (or deliberately skipped).
    let cursor = yield* Clock.currentTimeMillis

    const step = Effect.gen(function* () {
      const due = earliestAfter(yield* scheduler.enabledJobs, cursor)
      const first = due[0]
      if (first === undefined) {
        yield* scheduler.changed
        cursor = Math.max(cursor, yield* Clock.currentTimeMillis)
        return
      }
      const before = yield* Clock.currentTimeMillis
      if (first.at > before) {
        const woke = yield* Effect.raceFirst(
          Effect.as(Clock.sleep(Duration.millis(first.at - before)), "due" as const),
          Effect.as(scheduler.changed, "changed" as const)
        )
        if (woke === "changed") {
          // Plan again from now (a new job's past warnings are not sent late), keeping a moment due this very millisecond.
          cursor = Math.max(cursor, (yield* Clock.currentTimeMillis) - 1)
          return
        }
      }
      const now = yield* Clock.currentTimeMillis
      if (now - first.at > grace) {
        yield* Effect.logWarning(`scheduler woke ${Math.round((now - first.at) / 1000)} s late; skipping what was due meanwhile`)
        cursor = now
        return
      }
      for (const moment of due) yield* FiberSet.run(firings, fire(moment))
      cursor = first.at
    })

    return yield* step.pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logError("scheduler could not plan", Cause.pretty(cause)).pipe(Effect.zipRight(Clock.sleep(options.retryAfter)))
      ),
      Effect.forever
    )
  }).pipe(Effect.annotateLogs({ plugin: "scheduler" }))
