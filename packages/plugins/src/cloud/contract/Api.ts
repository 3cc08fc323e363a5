/**
 * The cloud contract (spec "Cloud", admin): the link's status; enabling it
 * with the relay's link token and the role it acts with; disabling it; and
 * which servers it mirrors. The token is never answered.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, BodyExample, Conflict, ServerNotFound, ServerUnreadable, StoredText, TrimmedStoredText } from "@garrison/runtime"

/** `disabled` (not enabled, or no relay configured), `connecting`, `connected` (the relay accepted the token), `backing-off` (waiting for `nextAttemptAt`). */
export const LinkState = Schema.Literal("disabled", "connecting", "connected", "backing-off")
export type LinkState = typeof LinkState.Type

export class CloudServer extends Schema.Class<CloudServer>("CloudServer")({
  serverId: Schema.String,
  /** Null when the entry is gone or cannot be read. */
  name: Schema.NullOr(Schema.String),
  /** ISO-8601: since when it is mirrored. */
  connectedAt: Schema.String
}) {}

export class CloudStatus extends Schema.Class<CloudStatus>("CloudStatus")({
  /** Whether a relay is configured (`CLOUD_RELAY_URL`). */
  configured: Schema.Boolean,
  /** The relay, without credentials or query. */
  relay: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  /** The role the link acts with: remote actions need its permissions. */
  role: Schema.NullOr(Schema.String),
  enabledAt: Schema.NullOr(Schema.String),
  state: LinkState,
  /** ISO-8601: when the current state began. */
  since: Schema.NullOr(Schema.String),
  /** Connection attempts since the last successful one (0 while connected). */
  attempt: Schema.Number,
  /** ISO-8601: the next attempt, while `backing-off`. */
  nextAttemptAt: Schema.NullOr(Schema.String),
  /** Why the last attempt failed or the last connection ended. */
  lastError: Schema.NullOr(Schema.String),
  lastConnectedAt: Schema.NullOr(Schema.String),
  /** The servers mirrored to the relay, in the order they were connected. */
  servers: Schema.Array(CloudServer)
}) {}

/** The link token the relay issued: printable ASCII without spaces. */
export const LinkToken = StoredText.pipe(
  Schema.minLength(16),
  Schema.maxLength(4096),
  Schema.filter((token) => /^[\x21-\x7e]*$/.test(token) || "token must be printable ASCII without spaces")
)

export const EnableBody = Schema.Struct({
  token: LinkToken,
  /** A role (users and roles): remote actions run only with its permissions, never `admin`. */
  role: TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(100))
})

export const CloudServerPath = Schema.Struct({ serverId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)) })

export class CloudGroup extends HttpApiGroup.make("cloud").annotate(OpenApi.Description, "The cloud link that mirrors servers to a relay.")
  .add(
    HttpApiEndpoint.get("status", "/api/cloud/status")
      .addSuccess(CloudStatus)
      .annotate(OpenApi.Summary, "The cloud link's status")
      .annotate(OpenApi.Description, "State (disabled, connecting, connected, backing-off with the next attempt), last error, role and mirrored servers.")
  )
  .add(
    HttpApiEndpoint.post("enable", "/api/cloud/enable")
      .setPayload(EnableBody)
      .addSuccess(CloudStatus)
      .annotate(OpenApi.Summary, "Enable the cloud link")
      .annotate(
        OpenApi.Description,
        "Stores the relay's link token (sealed) and the role remote actions run with, and connects to CLOUD_RELAY_URL. " +
          "409 when no relay is configured; 400 when the role does not exist or grants admin."
      )
      .annotate(BodyExample, { token: "lnk_3f9a1c0e5b7d4e2a9c8b", role: "cloud-operator" })
  )
  .add(
    HttpApiEndpoint.post("disable", "/api/cloud/disable")
      .addSuccess(CloudStatus)
      .annotate(OpenApi.Summary, "Disable the cloud link")
      .annotate(OpenApi.Description, "Closes the connection and forgets the link token; the mirrored servers are kept for the next enable.")
  )
  .add(
    HttpApiEndpoint.post("connect", "/api/cloud/connect/:serverId")
      .setPath(CloudServerPath)
      .addSuccess(CloudStatus)
      .annotate(OpenApi.Summary, "Mirror a server to the relay")
      .annotate(OpenApi.Description, "Its status is sent to the relay from now on, and the relay may ask it the remote actions the link's role allows.")
  )
  .add(
    HttpApiEndpoint.post("disconnect", "/api/cloud/disconnect/:serverId")
      .setPath(CloudServerPath)
      .addSuccess(CloudStatus)
      .annotate(OpenApi.Summary, "Stop mirroring a server")
      .annotate(OpenApi.Description, "409 when it is not mirrored.")
  )
  .add(
    HttpApiEndpoint.post("reconnect", "/api/cloud/reconnect/:serverId")
      .setPath(CloudServerPath)
      .addSuccess(CloudStatus)
      .annotate(OpenApi.Summary, "Announce a mirrored server to the relay again")
      .annotate(
        OpenApi.Description,
        "Sends server.disconnected then server.connected with its current status, for a relay that lost it; while the link waits to reconnect, it tries now. 409 when the server is not mirrored."
      )
  )
  .addError(BadRequest)
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(Conflict)
  .annotate(Access, Access.permission(ADMIN)) {}

export class CloudApi extends HttpApi.make("cloud").add(CloudGroup) {}
