import * as Schema from "effect/Schema"

/** Why an actor (or a server's `GameControl`) refused or failed a command; `actorErrorToHttp` maps reasons to HTTP statuses. */
export class ActorError extends Schema.TaggedError<ActorError>()("ActorError", {
  serverId: Schema.String,
  reason: Schema.Literal(
    "already-running",
    "not-running",
    "hook-failed",
    /** The stored entry has a launch parameter that cannot be used (see `LaunchParameters`): fix the entry. */
    "invalid-entry",
    "spawn-failed",
    /** The process would run as root (a root-owned install folder): nothing was spawned (see `GameServerUser`). */
    "runs-as-root",
    "stop-failed",
    "rcon-unavailable",
    "rcon-failed",
    "restart-failed",
    /** The game or RCON port is held by something else on the host: nothing was spawned. */
    "ports-in-use",
    /** Another long operation (a restart, an update) is running: wait for it, or stop the server. */
    "busy",
    /** A stop cancelled this operation. */
    "cancelled",
    /** The way this server is controlled cannot do this (see `GameControl.capabilities`). */
    "unsupported",
    /** A provider that could do it is set up but not available now (the agent is down, say). */
    "provider-unavailable",
    /** The agent answered badly or refused Garrison's key. */
    "agent-failed",
    /** The agent's mod did not answer in time (the command was withdrawn). */
    "agent-timed-out",
    /** The game refused the command (the mod answered `ok: false`: no such player, say). */
    "refused",
    /** The entry was deleted: the actor takes no more commands. */
    "removed"
  ),
  message: Schema.String
}) {}
