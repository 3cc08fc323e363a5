/**
 * Why a rollout was refused, in the domain's words; the routes map them to
 * statuses in one function (`routes.ts`), and the scheduler's "apply
 * pending updates" sees them as the actor's `refused`.
 */
import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** A field of the request names what cannot be rolled out (400 naming it). */
export class RolloutInputRefused extends Schema.TaggedError<RolloutInputRefused>()("RolloutInputRefused", {
  field: Schema.Literal("mods", "install"),
  message: Schema.String
}) {}

/** Nothing to roll out, the workshop cannot say, or the server cannot take one now (409). */
export class RolloutConflict extends Schema.TaggedError<RolloutConflict>()("RolloutConflict", {
  message: Schema.String
}) {}

export type RolloutError = RolloutInputRefused | RolloutConflict

/** The database refused a read or write of the rollout policies: a fault, answered 500 with a request id (`storeDefect`). */
export class RolloutStoreError extends Schema.TaggedError<RolloutStoreError>()("RolloutStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(RolloutStoreError)
