/** The actions plugin's own error, in the contract so clients (the dashboard) decode it without the implementation. */
import * as Schema from "effect/Schema"

/** No provider can run the action now: 503 `provider-unavailable` (declared by the plugin). */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()("ProviderUnavailable", {
  message: Schema.String,
  details: Schema.Struct({ serverId: Schema.String, action: Schema.String, reason: Schema.String })
}) {}
