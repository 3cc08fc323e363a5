import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a read or write of the mods tables. */
export class ModStoreError extends Schema.TaggedError<ModStoreError>()("ModStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(ModStoreError)

export class ModNotFound extends Schema.TaggedError<ModNotFound>()("ModNotFound", {
  serverId: Schema.String,
  mod: Schema.String
}) {}

/** The request cannot be done in the mod's or server's current state (409): says why and what to do. */
export class ModConflict extends Schema.TaggedError<ModConflict>()("ModConflict", {
  message: Schema.String
}) {}

/** A body the schema accepted but the rules refuse; `field` names the body field. */
export class InvalidModRequest extends Schema.TaggedError<InvalidModRequest>()("InvalidModRequest", {
  field: Schema.String,
  message: Schema.String
}) {}
