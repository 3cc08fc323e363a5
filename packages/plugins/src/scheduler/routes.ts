/** The handlers behind `SchedulerApi`; the host has already checked access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { auditActorOf, CurrentPrincipal, cursorBadRequest, cursorCodec, fieldBadRequest, Keyset, notFoundWith, storeDefect } from "@garrison/runtime"
import { JOB_PAGE, SchedulerApi, type ScheduledJob } from "./contract/Api.js"
import type { ScheduledJobNotFound } from "./errors.js"
import { Scheduler } from "./Scheduler.js"

const jobNotFound = notFoundWith((error: ScheduledJobNotFound) => `no scheduled job "${error.jobId}" on server "${error.serverId}"`)

/** The list's order is creation (`createdAt`, then `id`); a cursor holds that key of a page's last job. */
const jobPaging = Keyset.make({
  cursor: cursorCodec("scheduler", Schema.Tuple(Schema.String, Schema.String)),
  key: [
    { column: "createdAt", direction: "asc", value: ([createdAt]) => createdAt },
    { column: "id", direction: "asc", value: ([, id]) => id }
  ],
  positionOf: (job: ScheduledJob) => [job.createdAt, job.id] as const
})

export const SchedulerRoutes = HttpApiBuilder.group(SchedulerApi, "scheduler", (handlers) =>
  Effect.gen(function* () {
    const scheduler = yield* Scheduler
    // A store failure is a real fault: it becomes a 500 with a request id.
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const after = yield* jobPaging.decode(urlParams.cursor)
          // A server has a handful of jobs: they are read whole (as the runner does) and paged here.
          const jobs = yield* scheduler.list(path.id)
          return { ...jobPaging.pageOf(jobs, urlParams.limit ?? JOB_PAGE.defaultLimit, after), total: jobs.length }
        }).pipe(Effect.catchTags({ InvalidCursor: cursorBadRequest, SchedulerStoreError: storeDefect }))
      )
      .handle("create", ({ path, payload }) =>
        // The caller is kept as the job's maker: the audit rows of its runs name them.
        Effect.flatMap(CurrentPrincipal, (caller) => scheduler.create(path.id, payload, auditActorOf(caller))).pipe(
          Effect.catchTags({ InvalidScheduledJob: fieldBadRequest, SchedulerStoreError: storeDefect })
        )
      )
      .handle("replace", ({ path, payload }) =>
        scheduler.replace(path.id, path.jobId, payload).pipe(
          Effect.catchTags({
            ScheduledJobNotFound: jobNotFound,
            InvalidScheduledJob: fieldBadRequest,
            SchedulerStoreError: storeDefect
          })
        )
      )
      .handle("toggle", ({ path }) =>
        scheduler.toggle(path.id, path.jobId).pipe(
          Effect.catchTags({ ScheduledJobNotFound: jobNotFound, SchedulerStoreError: storeDefect })
        )
      )
      .handle("remove", ({ path }) =>
        scheduler.remove(path.id, path.jobId).pipe(
          Effect.catchTags({ ScheduledJobNotFound: jobNotFound, SchedulerStoreError: storeDefect })
        )
      )
  })
)
