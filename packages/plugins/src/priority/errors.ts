import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** A body the schema accepted but the rules refuse (a past `expiresAt`); `field` names the body field. */
export class InvalidPriorityEntry extends Schema.TaggedError<InvalidPriorityEntry>()("InvalidPriorityEntry", {
  field: Schema.String,
  message: Schema.String
}) {}

export class PriorityEntryNotFound extends Schema.TaggedError<PriorityEntryNotFound>()("PriorityEntryNotFound", {
  id: Schema.String
}) {}

/** The player (Steam64) already has an entry. */
export class PriorityEntryExists extends Schema.TaggedError<PriorityEntryExists>()("PriorityEntryExists", {
  platformId: Schema.String,
  id: Schema.String
}) {}

/** The database refused a read or write, or returned rows we cannot read. */
export class PriorityStoreError extends Schema.TaggedError<PriorityStoreError>()("PriorityStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(PriorityStoreError)
