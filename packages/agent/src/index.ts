/**
 * @garrison/agent: the sidecar next to each game server. It turns HTTP calls
 * into JSON command files for the companion mod and returns the mod's
 * response files. This module is its contract, shared with the controller's
 * provider; the server itself lands with the agent issue.
 */
import * as Schema from "effect/Schema"

/** Default port of the agent. */
export const AGENT_PORT = 9100

/** How long the agent waits for the mod's response file. */
export const COMMAND_TIMEOUT_MS = 10_000

/** A command file written into `<profiles>/<modDir>/commands/`. */
export class AgentCommand extends Schema.Class<AgentCommand>("AgentCommand")({
  id: Schema.String,
  /** Dotted action name, for example `player.heal`. */
  action: Schema.String,
  params: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** Milliseconds since epoch. */
  timestamp: Schema.Int
}) {}

/** A response file the mod writes into `<profiles>/<modDir>/responses/`. */
export class AgentResponse extends Schema.Class<AgentResponse>("AgentResponse")({
  id: Schema.String,
  ok: Schema.Boolean,
  data: Schema.optional(Schema.Unknown),
  error: Schema.optional(Schema.String),
  timestamp: Schema.optional(Schema.Int)
}) {}

/** `GET /health` of the agent. */
export class AgentHealth extends Schema.Class<AgentHealth>("AgentHealth")({
  status: Schema.Literal("ok"),
  version: Schema.String,
  uptime: Schema.Number,
  queueDir: Schema.String
}) {}
