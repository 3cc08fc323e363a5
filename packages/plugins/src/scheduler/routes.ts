/** The handlers behind `SchedulerApi`; the host has already checked access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { BadRequest, cursorCodec, invalidCursor, NotFound, pageOfRows } from "@garrison/runtime"
import { JOB_PAGE, SchedulerApi, type ScheduledJob } from "./contract/Api.js"
import type { InvalidScheduledJob, ScheduledJobNotFound } from "./errors.js"
import { Scheduler } from "./Scheduler.js"

const jobNotFound = (error: ScheduledJobNotFound) =>
  Effect.fail(new NotFound({ message: `no scheduled job "${error.jobId}" on server "${error.serverId}"` }))
const invalid = (error: InvalidScheduledJob) =>
  Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))

/** The list's order is creation (`createdAt`, then `id`); a cursor holds that key of a page's last job. */
const jobCursor = cursorCodec("scheduler", Schema.Tuple(Schema.String, Schema.String))
const keyOf = (job: ScheduledJob) => [job.createdAt, job.id] as const
const isAfter = (job: ScheduledJob, [createdAt, id]: readonly [string, string]) =>
  job.createdAt > createdAt || (job.createdAt === createdAt && job.id > id)

export const SchedulerRoutes = HttpApiBuilder.group(SchedulerApi, "scheduler", (handlers) =>
  Effect.gen(function* () {
    const scheduler = yield* Scheduler
    // A store failure is a real fault: it becomes a 500 with a request id.
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const after = urlParams.cursor === undefined ? undefined : jobCursor.decode(urlParams.cursor)
          if (after !== undefined && Option.isNone(after)) return yield* invalidCursor()
          // A server has a handful of jobs: they are read whole (as the runner does) and paged here.
          const jobs = yield* scheduler.list(path.id).pipe(
            Effect.catchTags({ SchedulerStoreError: Effect.die })
          )
          const limit = urlParams.limit ?? JOB_PAGE.defaultLimit
          const rest = after === undefined ? jobs : jobs.filter((job) => isAfter(job, after.value))
          const page = pageOfRows(rest.slice(0, limit + 1), limit, (last) => jobCursor.encode(keyOf(last)))
          return { ...page, total: jobs.length }
        })
      )
      .handle("create", ({ path, payload }) =>
        scheduler.create(path.id, payload).pipe(
          Effect.catchTags({ InvalidScheduledJob: invalid, SchedulerStoreError: Effect.die })
        )
      )
      .handle("replace", ({ path, payload }) =>
        scheduler.replace(path.id, path.jobId, payload).pipe(
          Effect.catchTags({
            ScheduledJobNotFound: jobNotFound,
            InvalidScheduledJob: invalid,
            SchedulerStoreError: Effect.die
          })
        )
      )
      .handle("toggle", ({ path }) =>
        scheduler.toggle(path.id, path.jobId).pipe(
          Effect.catchTags({ ScheduledJobNotFound: jobNotFound, SchedulerStoreError: Effect.die })
        )
      )
      .handle("remove", ({ path }) =>
        scheduler.remove(path.id, path.jobId).pipe(
          Effect.catchTags({ ScheduledJobNotFound: jobNotFound, SchedulerStoreError: Effect.die })
        )
      )
  })
)
