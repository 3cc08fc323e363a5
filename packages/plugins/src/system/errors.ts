import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

export class SystemStoreError extends Schema.TaggedError<SystemStoreError>()("SystemStoreError", storeErrorFields) {}
export const storeError = storeErrorMapper(SystemStoreError)

/** A change the settings refuse whole: each problem names its key and, in plain words, what is expected. */
export class SettingsRefused extends Schema.TaggedError<SettingsRefused>()("SettingsRefused", {
  message: Schema.String,
  problems: Schema.Array(Schema.Struct({ key: Schema.String, message: Schema.String }))
}) {}
