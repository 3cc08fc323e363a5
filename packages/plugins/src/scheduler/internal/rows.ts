/** `scheduled_jobs` rows and how they become API views. */
import * as Schema from "effect/Schema"
import { JobKind, JobWarning, ScheduledJob } from "../contract/Api.js"
import { upcoming } from "./plan.js"

/** Portable: an INTEGER column holding 0 or 1. */
const BooleanFromInt = Schema.transform(Schema.Number, Schema.Boolean, {
  strict: true,
  decode: (n) => n !== 0,
  encode: (b) => (b ? 1 : 0)
})

export const JobRow = Schema.Struct({
  id: Schema.String,
  serverId: Schema.String,
  kind: JobKind,
  cron: Schema.String,
  timeZone: Schema.String,
  warnings: Schema.parseJson(Schema.Array(Schema.Int)),
  message: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  command: Schema.NullOr(Schema.String),
  enabled: BooleanFromInt,
  lastRunAt: Schema.NullOr(Schema.String),
  lastResult: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  /** Who made the job (a principal's id and name); null on jobs made before this was kept, or without a caller. */
  createdBy: Schema.NullOr(Schema.String),
  createdByName: Schema.NullOr(Schema.String)
})
export type StoredJob = typeof JobRow.Type

const iso = (ms: number) => new Date(ms).toISOString()

export const toView = ({ createdBy: _by, createdByName: _name, ...job }: StoredJob, now: number): ScheduledJob => {
  const next = job.enabled ? upcoming(job, now) : { nextRun: undefined, warnings: [] }
  return new ScheduledJob({
    ...job,
    nextRunAt: next.nextRun === undefined ? null : iso(next.nextRun),
    nextWarnings: next.warnings.map((w) => new JobWarning({ minutes: w.minutes, at: iso(w.at) }))
  })
}
