/**
 * Published on the event bus after the admin-log lines behind them are
 * committed (a crash never publishes for lines that were not): the live
 * kill feed, the watchlist and the live map follow these.
 */
import * as Schema from "effect/Schema"

import { killFields } from "./internal/killFields.js"

/** A player's connect line was read. `steam64` when RCON has linked the player. */
export class GamePlayerJoined extends Schema.TaggedClass<GamePlayerJoined>()("GamePlayerJoined", {
  serverId: Schema.String,
  playerId: Schema.String,
  steam64: Schema.NullOr(Schema.String),
  name: Schema.String,
  at: Schema.String
}) {}

/** A death was recorded (any killer kind; `killerKind: "player"` is a kill). */
export class GameKillRecorded extends Schema.TaggedClass<GameKillRecorded>()("GameKillRecorded", killFields) {}

/** Players' positions on a server changed (read from its admin log). */
export class GamePositionsChanged extends Schema.TaggedClass<GamePositionsChanged>()("GamePositionsChanged", {
  serverId: Schema.String
}) {}

/** A server's leaderboard season ended and the next began (a wipe or an admin's reset). */
export class GameSeasonStarted extends Schema.TaggedClass<GameSeasonStarted>()("GameSeasonStarted", {
  serverId: Schema.String,
  seasonId: Schema.String,
  number: Schema.Number,
  reason: Schema.String
}) {}
