/**
 * Why a configuration read, change or template was refused, in the
 * domain's words; the routes map them to statuses in one function
 * (`routes.ts`, `configHttpError`).
 */
import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The configuration file, or a template, is not there (404). */
export class ConfigNotFound extends Schema.TaggedError<ConfigNotFound>()("ConfigNotFound", {
  message: Schema.String
}) {}

/** The file or the request cannot be used as it is: fix it, then try again (409; `field` names the request field). */
export class ConfigConflict extends Schema.TaggedError<ConfigConflict>()("ConfigConflict", {
  message: Schema.String,
  field: Schema.optional(Schema.String)
}) {}

export type ConfigError = ConfigNotFound | ConfigConflict

/** The database refused a read or write of the templates: a fault, answered 500 with a request id (`storeDefect`). */
export class ConfigStoreError extends Schema.TaggedError<ConfigStoreError>()("ConfigStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(ConfigStoreError)
