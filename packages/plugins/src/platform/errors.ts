import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a read or write of the platform settings. */
export class PlatformStoreError extends Schema.TaggedError<PlatformStoreError>()("PlatformStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(PlatformStoreError)

/** Downloads that need a Steam account were asked for before one was set. */
export class NoSteamAccount extends Schema.TaggedError<NoSteamAccount>()("NoSteamAccount", {
  message: Schema.String
}) {}

/**
 * The Steam Web API could not answer: unreachable, timed out, refused the
 * key, or answered something that is not its shape.
 */
export class WorkshopUnavailable extends Schema.TaggedError<WorkshopUnavailable>()("WorkshopUnavailable", {
  reason: Schema.Literal("unreachable", "timeout", "refused", "bad-answer"),
  message: Schema.String
}) {}

/** No workshop item has this id (or it was removed). */
export class WorkshopItemNotFound extends Schema.TaggedError<WorkshopItemNotFound>()("WorkshopItemNotFound", {
  workshopId: Schema.String
}) {}
