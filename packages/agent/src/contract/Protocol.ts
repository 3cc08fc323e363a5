/**
 * The file protocol between the agent and the companion mod, and the
 * agent's health answer.
 *
 * `<profiles>/<modDir>/commands/<id><commandSuffix>`: one command, written
 * by the agent under a temporary name and renamed into place.
 * `<profiles>/<modDir>/responses/<id><responseSuffix>`: the mod's answer,
 * read and removed by the agent. `id` is a UUID the agent makes.
 */
import * as Schema from "effect/Schema"

/** Default port of the agent. */
export const AGENT_PORT = 9100

/** How long the agent waits for the mod's response file by default. */
export const COMMAND_TIMEOUT_MS = 10_000

/** The mod's folder name under the profiles folder by default. */
export const DEFAULT_MOD_DIR = "Garrison"

/** The file the mod may touch to say it is alive (its age shows in `/health`). */
export const HEARTBEAT_FILE = "heartbeat.json"

/** A command file: `{id, action, params, timestamp}`. */
export const AgentCommand = Schema.Struct({
  /** A UUID made by the agent; also the file's name. */
  id: Schema.String,
  /** Dotted action name, for example `player.heal`. */
  action: Schema.String,
  /** The request's body or query (decoded) with its path parameters. */
  params: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** Milliseconds since epoch. */
  timestamp: Schema.Int
})
export type AgentCommand = typeof AgentCommand.Type

/** A response file: `{id, ok, data, error, timestamp}`. */
export const AgentResponse = Schema.Struct({
  id: Schema.String,
  ok: Schema.Boolean,
  data: Schema.optional(Schema.Unknown),
  error: Schema.optional(Schema.String),
  timestamp: Schema.optional(Schema.Number)
})
export type AgentResponse = typeof AgentResponse.Type

/** Whether the mod is answering, as `/health` reports it. */
export const ModLiveness = Schema.Struct({
  /** A response or the mod's heartbeat within the last `AGENT_MOD_STALE_AFTER` (default 10 s). */
  answering: Schema.Boolean,
  /** Milliseconds since the last response file was read, or null before the first. */
  lastResponseAgeMs: Schema.NullOr(Schema.Number),
  /** Milliseconds since the mod last wrote its heartbeat file, or null when there is none. */
  heartbeatAgeMs: Schema.NullOr(Schema.Number),
  /** Commands waiting for an answer now. */
  pending: Schema.Number,
  /** Milliseconds the oldest waiting command has waited, or null when none waits. */
  oldestPendingMs: Schema.NullOr(Schema.Number)
})
export type ModLiveness = typeof ModLiveness.Type

/** `GET /health`: `{status, version, uptime (seconds), queueDir, mod}`. */
export const AgentHealth = Schema.Struct({
  status: Schema.Literal("ok"),
  version: Schema.String,
  uptime: Schema.Number,
  /** The commands folder the agent writes into. */
  queueDir: Schema.String,
  mod: ModLiveness
}).annotations({ identifier: "AgentHealth" })
export type AgentHealth = typeof AgentHealth.Type
