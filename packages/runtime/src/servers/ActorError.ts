import * as Schema from "effect/Schema"

/** Why an actor refused or failed a command. The servers plugin maps reasons to HTTP statuses. */
export class ActorError extends Schema.TaggedError<ActorError>()("ActorError", {
  serverId: Schema.String,
  reason: Schema.Literal(
    "already-running",
    "not-running",
    "hook-failed",
    /** The stored entry has a launch parameter that cannot be used (see `LaunchParameters`): fix the entry. */
    "invalid-entry",
    "spawn-failed",
    "stop-failed",
    "rcon-unavailable",
    "rcon-failed",
    "restart-failed",
    "removed"
  ),
  message: Schema.String
}) {}
