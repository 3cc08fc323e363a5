import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

export class WatchlistStoreError extends Schema.TaggedError<WatchlistStoreError>()("WatchlistStoreError", storeErrorFields) {}
export const storeError = storeErrorMapper(WatchlistStoreError)

export class WatchlistEntryExists extends Schema.TaggedError<WatchlistEntryExists>()("WatchlistEntryExists", { id: Schema.String, playerId: Schema.String }) {}
export class WatchlistEntryNotFound extends Schema.TaggedError<WatchlistEntryNotFound>()("WatchlistEntryNotFound", { id: Schema.String }) {}
