import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a trust read or write. */
export class TrustStoreError extends Schema.TaggedError<TrustStoreError>()("TrustStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(TrustStoreError)

/** A field of a request breaks its rule: `field` names it. */
export class InvalidTrustInput extends Schema.TaggedError<InvalidTrustInput>()("InvalidTrustInput", {
  field: Schema.String,
  message: Schema.String
}) {}

/** A refusal the caller can act on (already submitted, over the cap, not open any more). */
export class TrustConflict extends Schema.TaggedError<TrustConflict>()("TrustConflict", {
  message: Schema.String,
  details: Schema.optional(Schema.Unknown)
}) {}

export class TrustNotFound extends Schema.TaggedError<TrustNotFound>()("TrustNotFound", { message: Schema.String }) {}
