/**
 * Published on the event bus after the admin-log lines behind them are
 * committed (a crash never publishes for lines that were not): the live
 * kill feed, the watchlist and the live map follow these.
 */
import * as Schema from "effect/Schema"

const NullableNumber = Schema.NullOr(Schema.Number)
const Pos = Schema.NullOr(Schema.Struct({ x: Schema.Number, y: Schema.Number, z: Schema.Number }))

/** A player's connect line was read. `steam64` when RCON has linked the player. */
export class GamePlayerJoined extends Schema.TaggedClass<GamePlayerJoined>()("GamePlayerJoined", {
  serverId: Schema.String,
  playerId: Schema.String,
  steam64: Schema.NullOr(Schema.String),
  name: Schema.String,
  at: Schema.String
}) {}

/** A death was recorded (any killer kind; `killerKind: "player"` is a kill). */
export class GameKillRecorded extends Schema.TaggedClass<GameKillRecorded>()("GameKillRecorded", {
  id: Schema.String,
  serverId: Schema.String,
  killerKind: Schema.String,
  platformId: Schema.NullOr(Schema.String),
  playerId: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  victimPlatformId: Schema.NullOr(Schema.String),
  victimPlayerId: Schema.NullOr(Schema.String),
  victimName: Schema.String,
  distance: NullableNumber,
  weapon: Schema.NullOr(Schema.String),
  zone: Schema.NullOr(Schema.String),
  headshot: Schema.Boolean,
  timestamp: Schema.String,
  killerPos: Pos,
  victimPos: Pos
}) {}

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
