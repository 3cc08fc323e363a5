/**
 * Scheduler: cron jobs per server (restart and stop with warnings, message,
 * lock, unlock, kick-all, raw RCON), behind `/api/servers/:id/scheduler`.
 * Reaches servers through the servers plugin's `Servers`. Owns the
 * `ScheduledUpdates` extension point its "apply-updates" jobs call (the
 * rollout plugin provides it). A deleted server's jobs are deleted (`ServerDeleted`).
 * See README.md for the rules on missed runs.
 */
import { AuditTrail, on, Plugin, ServerDeleted } from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import * as Effect from "effect/Effect"
import { SchedulerApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { schedulerNotices } from "./notices.js"
import { SCHEDULER_EVENTS } from "./published.js"
import { SchedulerRoutes } from "./routes.js"
import { runScheduler } from "./runner.js"
import { Scheduler } from "./Scheduler.js"
import type { Servers } from "../servers/index.js"

export const SchedulerPlugin = Plugin.make({
  id: "scheduler",
  description: "Cron jobs per server: restarts with warnings, messages, locks, kicks, RCON commands",
  dependsOn: ["servers"],
  // Each run that acts writes an audit row (actor "scheduler") through the trail it reads when built.
  requires: [AuditTrail],
  // Notifies whoever may view the server when the notifications plugin is loaded (`notices.ts`).
  uses: [Notifications],
  migrations,
  layer: Scheduler.layer,
  http: Plugin.http(SchedulerApi, SchedulerRoutes),
  events: [
    on<ServerDeleted, Scheduler | Servers>(
      ServerDeleted,
      (event) =>
        Effect.flatMap(Scheduler, (scheduler) => scheduler.removeServerJobs(event.serverId)).pipe(
          Effect.flatMap((removed) =>
            removed > 0 ? Effect.logInfo(`scheduler: removed ${removed} job(s) of deleted server ${event.name}`) : Effect.void
          ),
          Effect.annotateLogs({ plugin: "scheduler", serverId: event.serverId })
        ),
      "removeServerJobs"
    ),
    // A scheduled restart or stop that ran, any run that failed: a notification for whoever may view the server.
    ...schedulerNotices
  ],
  publishes: SCHEDULER_EVENTS,
  onStart: Effect.asVoid(Effect.forkScoped(runScheduler()))
})

export {
  JOB_KINDS as SCHEDULED_JOB_KINDS,
  JobInput as ScheduledJobInput,
  JobKind as ScheduledJobKind,
  JobWarning as ScheduledJobWarning,
  SCHEDULE_PERMISSION,
  ScheduledJob,
  SchedulerApi,
  SchedulerGroup,
  WARNING_KINDS as SCHEDULER_WARNING_KINDS
} from "./contract/Api.js"
export { InvalidScheduledJob, ScheduledJobNotFound, SchedulerStoreError } from "./errors.js"
export { ScheduledJobRan } from "./events.js"
export { defaultRunnerOptions as defaultSchedulerRunnerOptions, runScheduler } from "./runner.js"
export type { RunnerOptions as SchedulerRunnerOptions } from "./runner.js"
export { Scheduler } from "./Scheduler.js"
export { ScheduledUpdates } from "./ScheduledUpdates.js"
export type { ScheduledUpdatesShape } from "./ScheduledUpdates.js"
export type { SchedulerShape } from "./Scheduler.js"
