import * as Schema from "effect/Schema"

/**
 * Something that must stop the controller before it serves a request: a bad
 * plugin list, an unusable data directory, a port already taken. The message
 * is written for the person starting the controller and names both sides of
 * any conflict.
 */
export class StartupError extends Schema.TaggedError<StartupError>()("StartupError", {
  reason: Schema.Literal(
    "duplicate-plugin",
    "missing-dependency",
    "dependency-cycle",
    "duplicate-permission",
    "unknown-permission",
    "route-conflict",
    "missing-access",
    "invalid-plugin",
    "duplicate-rate-limit",
    "unknown-rate-limit",
    "duplicate-scheme",
    "unknown-scheme",
    "duplicate-error-code",
    "duplicate-secret",
    "duplicate-published-event",
    "plugin-load",
    "data-dir",
    "database",
    "port-in-use",
    "config"
  ),
  message: Schema.String
}) {}
