/** Published after every admin action a caller ran on a server (heal, teleport, weather, ...), whatever its outcome. */
import * as Schema from "effect/Schema"

export class AdminAction extends Schema.TaggedClass<AdminAction>()("AdminAction", {
  serverId: Schema.String,
  /** The companion mod's action name (`player.heal`), or the RCON command family when RCON served it (`rcon.message`). */
  action: Schema.String,
  /** Who ran it (user name, or `bot:<id>`). */
  actor: Schema.String,
  /** The player or object it was aimed at, when it names one. */
  target: Schema.NullOr(Schema.String),
  provider: Schema.Literal("agent", "rcon"),
  ok: Schema.Boolean,
  /** Why it failed, when it did. */
  error: Schema.optional(Schema.String),
  at: Schema.String
}) {}
