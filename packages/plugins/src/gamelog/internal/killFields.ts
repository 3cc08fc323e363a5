/** A kill's fields: the feed's `Kill` and the bus's `GameKillRecorded` carry the same. */
import * as Schema from "effect/Schema"

export const Position = Schema.Struct({ x: Schema.Number, y: Schema.Number, z: Schema.Number })

export const killFields = {
  id: Schema.String,
  serverId: Schema.String,
  killerKind: Schema.String,
  platformId: Schema.NullOr(Schema.String),
  playerId: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  victimPlatformId: Schema.NullOr(Schema.String),
  victimPlayerId: Schema.NullOr(Schema.String),
  victimName: Schema.String,
  distance: Schema.NullOr(Schema.Number),
  weapon: Schema.NullOr(Schema.String),
  zone: Schema.NullOr(Schema.String),
  headshot: Schema.Boolean,
  timestamp: Schema.String,
  killerPos: Schema.NullOr(Position),
  victimPos: Schema.NullOr(Position)
}
