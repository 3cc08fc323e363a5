/** What server installs and updates tell other plugins (webhooks, notifications). */
import * as Schema from "effect/Schema"

const kind = Schema.Literal("update", "rebuild", "deploy")

export class ServerUpdated extends Schema.TaggedClass<ServerUpdated>()("ServerUpdated", {
  serverId: Schema.String,
  name: Schema.String,
  kind,
  appId: Schema.String,
  buildId: Schema.NullOr(Schema.String),
  by: Schema.String
}) {}

export class ServerUpdateFailed extends Schema.TaggedClass<ServerUpdateFailed>()("ServerUpdateFailed", {
  serverId: Schema.String,
  name: Schema.String,
  kind,
  error: Schema.String
}) {}
