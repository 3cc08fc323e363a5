/** What rollouts tell other plugins (webhooks, notifications). */
import * as Schema from "effect/Schema"

const mods = Schema.Array(Schema.Struct({ workshopId: Schema.String, name: Schema.String }))

export class RolloutCompleted extends Schema.TaggedClass<RolloutCompleted>()("RolloutCompleted", {
  serverId: Schema.String,
  name: Schema.String,
  mods,
  server: Schema.Boolean,
  by: Schema.String
}) {}

/** The new versions failed the check and the previous ones were put back. */
export class RolloutRolledBack extends Schema.TaggedClass<RolloutRolledBack>()("RolloutRolledBack", {
  serverId: Schema.String,
  name: Schema.String,
  mods,
  reason: Schema.String,
  /** Whether the server answered again on the previous versions. */
  recovered: Schema.Boolean,
  by: Schema.String
}) {}

export class RolloutFailed extends Schema.TaggedClass<RolloutFailed>()("RolloutFailed", {
  serverId: Schema.String,
  name: Schema.String,
  error: Schema.String,
  by: Schema.String
}) {}
