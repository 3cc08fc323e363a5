/** The actions plugin's own errors, in the contract so clients (the dashboard) decode them without the implementation. */
import * as Schema from "effect/Schema"

/** No provider can run the action now: 503 `provider-unavailable` (declared by the plugin). */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()("ProviderUnavailable", {
  message: Schema.String,
  details: Schema.Struct({ serverId: Schema.String, action: Schema.String, reason: Schema.String })
}) {}

/**
 * The server has no agent set up and nothing else can run the action: 409
 * `agent-not-configured` (declared by the plugin), no Retry-After, since
 * waiting cannot help; the message says which field to set.
 */
export class AgentNotConfigured extends Schema.TaggedError<AgentNotConfigured>()("AgentNotConfigured", {
  message: Schema.String,
  details: Schema.Struct({ serverId: Schema.String, action: Schema.String })
}) {}
