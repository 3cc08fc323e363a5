/** The handlers behind `SchedulerApi`; the host has already checked access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { BadRequest, NotFound } from "@garrison/runtime"
import { SchedulerApi } from "./contract/Api.js"
import type { InvalidScheduledJob, ScheduledJobNotFound, SchedulerServerNotFound } from "./errors.js"
import { Scheduler } from "./Scheduler.js"

const serverNotFound = (error: SchedulerServerNotFound) => Effect.fail(new NotFound({ message: `no server with id "${error.serverId}"` }))
const jobNotFound = (error: ScheduledJobNotFound) =>
  Effect.fail(new NotFound({ message: `no scheduled job "${error.jobId}" on server "${error.serverId}"` }))
const invalid = (error: InvalidScheduledJob) =>
  Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))

export const SchedulerRoutes = HttpApiBuilder.group(SchedulerApi, "scheduler", (handlers) =>
  Effect.gen(function* () {
    const scheduler = yield* Scheduler
    // A store failure is a real fault: it becomes a 500 with a request id.
    return handlers
      .handle("list", ({ path }) =>
        scheduler.list(path.id).pipe(Effect.catchTags({ SchedulerServerNotFound: serverNotFound, SchedulerStoreError: Effect.die }))
      )
      .handle("create", ({ path, payload }) =>
        scheduler.create(path.id, payload).pipe(
          Effect.catchTags({ SchedulerServerNotFound: serverNotFound, InvalidScheduledJob: invalid, SchedulerStoreError: Effect.die })
        )
      )
      .handle("replace", ({ path, payload }) =>
        scheduler.replace(path.id, path.jobId, payload).pipe(
          Effect.catchTags({
            SchedulerServerNotFound: serverNotFound,
            ScheduledJobNotFound: jobNotFound,
            InvalidScheduledJob: invalid,
            SchedulerStoreError: Effect.die
          })
        )
      )
      .handle("toggle", ({ path }) =>
        scheduler.toggle(path.id, path.jobId).pipe(
          Effect.catchTags({ SchedulerServerNotFound: serverNotFound, ScheduledJobNotFound: jobNotFound, SchedulerStoreError: Effect.die })
        )
      )
      .handle("remove", ({ path }) =>
        scheduler.remove(path.id, path.jobId).pipe(
          Effect.catchTags({ SchedulerServerNotFound: serverNotFound, ScheduledJobNotFound: jobNotFound, SchedulerStoreError: Effect.die })
        )
      )
  })
)
