/**
 * Why an update, rebuild, cancel or deploy was refused, in the domain's
 * words; the routes map each to its status once (`routes.ts`,
 * `updatesHttpError`).
 */
import * as Schema from "effect/Schema"

/** The server's state or the stored Steam account stands in the way: fix it, then try again (409). */
export class UpdateConflict extends Schema.TaggedError<UpdateConflict>()("UpdateConflict", {
  message: Schema.String
}) {}

/** Steam, SteamCMD or the deploy folder cannot be reached or made now (503). */
export class UpdatesUnavailable extends Schema.TaggedError<UpdatesUnavailable>()("UpdatesUnavailable", {
  message: Schema.String
}) {}

/** A deploy's install folder cannot be used (400 naming the field). */
export class DeployFolderRefused extends Schema.TaggedError<DeployFolderRefused>()("DeployFolderRefused", {
  field: Schema.Literal("installDir"),
  message: Schema.String
}) {}

export type UpdatesError = UpdateConflict | UpdatesUnavailable | DeployFolderRefused
