/**
 * Published after an admin's kick went through (the game control, RCON or
 * the agent, answered): webhooks (`player.kick`), chat bots. A ban's kick
 * is `BanAdded`'s, and the kick of everyone before a scheduled restart or
 * a rollout is the scheduler's or rollout's, not one event per player.
 */
import * as Schema from "effect/Schema"

export class PlayerKicked extends Schema.TaggedClass<PlayerKicked>()("PlayerKicked", {
  serverId: Schema.String,
  /** The server's name. */
  name: Schema.String,
  /** BattlEye's player number on that server. */
  slot: Schema.Int,
  playerName: Schema.String,
  /** The player's Steam64, when the server's logs prove it (null otherwise). */
  steam64: Schema.NullOr(Schema.String),
  reason: Schema.String,
  /** Who kicked (user name). */
  by: Schema.String
}) {}
