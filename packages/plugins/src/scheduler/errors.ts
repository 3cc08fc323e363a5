import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** A job the caller sent that cannot be scheduled; `field` names the offending body field. */
export class InvalidScheduledJob extends Schema.TaggedError<InvalidScheduledJob>()("InvalidScheduledJob", {
  field: Schema.String,
  message: Schema.String
}) {}

export class ScheduledJobNotFound extends Schema.TaggedError<ScheduledJobNotFound>()("ScheduledJobNotFound", {
  serverId: Schema.String,
  jobId: Schema.String
}) {}

/** The database refused a read or write, or returned rows we cannot read. */
export class SchedulerStoreError extends Schema.TaggedError<SchedulerStoreError>()("SchedulerStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(SchedulerStoreError)
