/**
 * Why a wipe or a replicate was refused, in the domain's words; the routes
 * map them to statuses in one function (`routes.ts`).
 */
import * as Schema from "effect/Schema"

/** A field of the request is wrong: the confirmation, or the source server (400 naming it). */
export class DangerzoneInputRefused extends Schema.TaggedError<DangerzoneInputRefused>()("DangerzoneInputRefused", {
  field: Schema.Literal("confirmName", "sourceServerId"),
  message: Schema.String
}) {}

/** The server cannot take it now (it runs, another operation holds it), or it stopped partway: what happened is said (409). */
export class DangerzoneConflict extends Schema.TaggedError<DangerzoneConflict>()("DangerzoneConflict", {
  message: Schema.String
}) {}

export type DangerzoneError = DangerzoneInputRefused | DangerzoneConflict
