/**
 * Events the server actors (and, for `ServerDeleted`, the servers plugin)
 * publish on the event bus. Webhooks, audit, notifications and the chat bot
 * subscribe to these.
 */
import * as Schema from "effect/Schema"

const server = { serverId: Schema.String, name: Schema.String }

export class ServerStarting extends Schema.TaggedClass<ServerStarting>()("ServerStarting", server) {}
export class ServerStarted extends Schema.TaggedClass<ServerStarted>()("ServerStarted", {
  ...server,
  pid: Schema.Int,
  reattached: Schema.Boolean
}) {}
export class ServerStopped extends Schema.TaggedClass<ServerStopped>()("ServerStopped", {
  ...server,
  /** How the process ended: `rcon` (#shutdown), `sigterm`, `sigkill`, or `exited` on its own. */
  how: Schema.Literal("rcon", "sigterm", "sigkill", "exited")
}) {}
/**
 * What the watchdog does about a crash: `restarting` (after `restartInMs`),
 * `off` (the entry's watchdog is off), `gave-up` (too many crashes in a
 * row: the server stays down until someone starts it) or `operation` (a
 * long operation that watches the server, a mod rollout's check, was
 * running: it handles the crash, and the watchdog stays out).
 */
export const WatchdogAction = Schema.Literal("restarting", "off", "gave-up", "operation")
export type WatchdogAction = typeof WatchdogAction.Type

export class ServerCrashed extends Schema.TaggedClass<ServerCrashed>()("ServerCrashed", {
  ...server,
  exitCode: Schema.NullOr(Schema.Int),
  signal: Schema.NullOr(Schema.String),
  /** Why it is down, as a person reads it: `exited with code 1`, `killed by SIGKILL`, a failed restart's error. */
  reason: Schema.String,
  /** Crashes in a row, this one included. */
  consecutiveCrashes: Schema.Int,
  watchdog: WatchdogAction,
  /** When the watchdog will try again, or null when it will not. */
  restartInMs: Schema.NullOr(Schema.Int),
  /** With `watchdog: "operation"`: the kind of the operation that handles the crash (`mod-rollout`). */
  operation: Schema.optional(Schema.String)
}) {}
export class ServerRestarted extends Schema.TaggedClass<ServerRestarted>()("ServerRestarted", {
  ...server,
  ok: Schema.Boolean,
  attempts: Schema.Int,
  reason: Schema.Literal("manual", "watchdog", "schedule"),
  error: Schema.optional(Schema.String),
  /** Watchdog restarts: why the server had gone down. */
  crash: Schema.optional(Schema.String)
}) {}
/**
 * A server entry was deleted (`DELETE /api/servers/:id`), after its row is
 * gone. Plugins that keep anything per server (scheduled jobs, console,
 * metrics) drop it here.
 */
export class ServerDeleted extends Schema.TaggedClass<ServerDeleted>()("ServerDeleted", server) {}
/** A server's persistence was wiped (the dangerzone's wipe): a new season of the game begins. */
export class ServerWiped extends Schema.TaggedClass<ServerWiped>()("ServerWiped", {
  ...server,
  preset: Schema.String
}) {}
export class ServerLocked extends Schema.TaggedClass<ServerLocked>()("ServerLocked", server) {}
export class ServerUnlocked extends Schema.TaggedClass<ServerUnlocked>()("ServerUnlocked", server) {}
export class PlayerConnected extends Schema.TaggedClass<PlayerConnected>()("PlayerConnected", {
  ...server,
  slot: Schema.Int,
  playerName: Schema.String,
  ip: Schema.String
}) {}
export class PlayerDisconnected extends Schema.TaggedClass<PlayerDisconnected>()("PlayerDisconnected", {
  ...server,
  slot: Schema.Int,
  playerName: Schema.String
}) {}
export class ChatMessage extends Schema.TaggedClass<ChatMessage>()("ChatMessage", {
  ...server,
  channel: Schema.String,
  playerName: Schema.String,
  text: Schema.String
}) {}
/** Every line the server pushed over RCON, for the console view. */
export class ConsoleLine extends Schema.TaggedClass<ConsoleLine>()("ConsoleLine", {
  serverId: Schema.String,
  at: Schema.Number,
  text: Schema.String
}) {}
