import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a game-log read or write. */
export class GameLogStoreError extends Schema.TaggedError<GameLogStoreError>()("GameLogStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(GameLogStoreError)
