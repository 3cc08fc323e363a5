import * as Schema from "effect/Schema"

/** A watched player joined a server (their connect line was read from its admin log). */
export class WatchlistJoined extends Schema.TaggedClass<WatchlistJoined>()("WatchlistJoined", {
  entryId: Schema.String,
  serverId: Schema.String,
  serverName: Schema.String,
  playerId: Schema.String,
  platformId: Schema.NullOr(Schema.String),
  name: Schema.String,
  note: Schema.String,
  at: Schema.String
}) {}
