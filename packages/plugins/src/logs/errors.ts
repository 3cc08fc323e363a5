import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** A `file` parameter that is not a plain log file name inside the profiles folder. */
export class InvalidLogFile extends Schema.TaggedError<InvalidLogFile>()("InvalidLogFile", {
  file: Schema.String,
  message: Schema.String
}) {}

/** A well-formed log file name that is not in the profiles folder. */
export class LogFileMissing extends Schema.TaggedError<LogFileMissing>()("LogFileMissing", {
  file: Schema.String
}) {}

/** The file or the profiles folder was swapped (for a symlink, say) while it was being opened: nothing was read; try again. */
export class LogFileChanged extends Schema.TaggedError<LogFileChanged>()("LogFileChanged", {
  message: Schema.String
}) {}

/** The file system refused a read the request was entitled to. */
export class LogReadError extends Schema.TaggedError<LogReadError>()("LogReadError", {
  message: Schema.String
}) {}

/** The database refused a metrics read or write. */
export class MetricsStoreError extends Schema.TaggedError<MetricsStoreError>()("MetricsStoreError", storeErrorFields) {}

export const metricsStoreError = storeErrorMapper(MetricsStoreError)
