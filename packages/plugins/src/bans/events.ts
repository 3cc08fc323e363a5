/**
 * Published after a ban is stored or removed, for webhooks, trust and chat
 * bots. An import publishes one `BansImported` rather than one event per row.
 */
import * as Schema from "effect/Schema"

export class BanAdded extends Schema.TaggedClass<BanAdded>()("BanAdded", {
  id: Schema.String,
  /** Steam64. */
  platformId: Schema.String,
  playerName: Schema.String,
  reason: Schema.String,
  bannedBy: Schema.String,
  bannedAt: Schema.String,
  expiresAt: Schema.NullOr(Schema.String),
  source: Schema.String
}) {}

export class BanRemoved extends Schema.TaggedClass<BanRemoved>()("BanRemoved", {
  id: Schema.String,
  platformId: Schema.String,
  removedBy: Schema.String
}) {}

export class BansImported extends Schema.TaggedClass<BansImported>()("BansImported", {
  added: Schema.Int,
  skipped: Schema.Int,
  failed: Schema.Int,
  importedBy: Schema.String
}) {}
