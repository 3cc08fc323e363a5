/** What the mods plugin tells other plugins (webhooks, notifications). */
import * as Schema from "effect/Schema"

export class ModInstalled extends Schema.TaggedClass<ModInstalled>()("ModInstalled", {
  serverId: Schema.String,
  workshopId: Schema.String,
  name: Schema.String,
  title: Schema.String,
  by: Schema.String
}) {}

export class ModUpdated extends Schema.TaggedClass<ModUpdated>()("ModUpdated", {
  serverId: Schema.String,
  workshopId: Schema.String,
  name: Schema.String,
  workshopUpdatedAt: Schema.NullOr(Schema.String),
  by: Schema.String
}) {}

export class ModRemoved extends Schema.TaggedClass<ModRemoved>()("ModRemoved", {
  serverId: Schema.String,
  workshopId: Schema.String,
  name: Schema.String,
  by: Schema.String
}) {}

/** An install or update job ended without installing (the reason says why). */
export class ModJobFailed extends Schema.TaggedClass<ModJobFailed>()("ModJobFailed", {
  serverId: Schema.String,
  workshopId: Schema.String,
  kind: Schema.Literal("install", "update"),
  error: Schema.String
}) {}
