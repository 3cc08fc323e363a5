import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** A body field the caller sent that cannot be used; `field` names it. */
export class InvalidBan extends Schema.TaggedError<InvalidBan>()("InvalidBan", {
  field: Schema.String,
  message: Schema.String
}) {}

export class BanNotFound extends Schema.TaggedError<BanNotFound>()("BanNotFound", {
  id: Schema.String
}) {}

/** The player already has a ban in force. */
export class BanExists extends Schema.TaggedError<BanExists>()("BanExists", {
  platformId: Schema.String,
  existingId: Schema.String
}) {}

/** The database refused a read or write, or returned rows we cannot read. */
export class BanStoreError extends Schema.TaggedError<BanStoreError>()("BanStoreError", storeErrorFields) {}

/** A server's `ban.txt` could not be read or written. */
export class BanFileError extends Schema.TaggedError<BanFileError>()("BanFileError", {
  path: Schema.String,
  message: Schema.String
}) {}

export const storeError = storeErrorMapper(BanStoreError)
