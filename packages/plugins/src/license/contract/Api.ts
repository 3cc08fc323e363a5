/**
 * The license contract (spec "License"): the license's state for any
 * signed-in user, the tiers the license server sells, and activation and
 * removal for admins. The token itself is never answered: its claims are.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadGateway, BadRequest, BodyExample, Conflict, GatewayTimeout, NotFound, StoredText } from "@garrison/runtime"

/**
 * The license's state (see README.md for each one precisely): `unactivated`,
 * `active`, `grace` (the server could not be reached; features work until
 * `graceEndsAt`), `past_due` (the server says a payment failed; features
 * work until `graceEndsAt`), `lapsed` (grace over, or the server withdrew
 * the license: gated features are read-only) and `expired` (past the
 * license's own end: read-only too).
 */
export const LicenseState = Schema.Literal("unactivated", "active", "grace", "past_due", "lapsed", "expired")
export type LicenseState = typeof LicenseState.Type

/** `community`: no license server configured, nothing gated; `licensed`: a license server is configured. */
export const Edition = Schema.Literal("community", "licensed")
export type Edition = typeof Edition.Type

/** What the license's token says (its claims, checked: never the token). */
export class LicenseClaimsView extends Schema.Class<LicenseClaimsView>("LicenseClaimsView")({
  /** The license's id at its server (`sub`). */
  id: Schema.String,
  tier: Schema.String,
  /** Who holds it, when the server says. */
  holder: Schema.NullOr(Schema.String),
  /** The features it includes (`*`: every feature). */
  entitlements: Schema.Array(Schema.String),
  /** ISO-8601, UTC. */
  issuedAt: Schema.String,
  /** The license's own end (`exp`), ISO-8601. */
  expiresAt: Schema.String,
  /** What the server said of the payments when it issued the token. */
  standing: Schema.Literal("good", "past_due")
}) {}

export class LicensePublicKey extends Schema.Class<LicensePublicKey>("LicensePublicKey")({
  /** `configured` (`LICENSE_PUBLIC_KEY`) or `pinned` (fetched from the server at activation). */
  source: Schema.Literal("configured", "pinned"),
  /** RFC 7638 thumbprint of the key (SHA-256, base64url). */
  thumbprint: Schema.String
}) {}

export class LicenseStatus extends Schema.Class<LicenseStatus>("LicenseStatus")({
  edition: Edition,
  state: LicenseState,
  /** The state in a sentence, with what to do. */
  message: Schema.String,
  /** Whether routes of licensed features are checked at all (false in the community edition). */
  gated: Schema.Boolean,
  /** Whether licensed features only read now (writes answer 402). */
  readOnly: Schema.Boolean,
  license: Schema.NullOr(LicenseClaimsView),
  activatedAt: Schema.NullOr(Schema.String),
  /** The last time the server answered about this license. */
  checkedAt: Schema.NullOr(Schema.String),
  /** The last refresh attempt, answered or not. */
  lastAttemptAt: Schema.NullOr(Schema.String),
  nextRefreshAt: Schema.NullOr(Schema.String),
  /** When the grace (`grace`, `past_due`) ends and licensed features become read-only. */
  graceEndsAt: Schema.NullOr(Schema.String),
  /** Admins only (null for others): the license server, without credentials. */
  server: Schema.NullOr(Schema.String),
  /** Admins only: this controller's machine id, which the license is bound to. */
  machineId: Schema.NullOr(Schema.String),
  /** Admins only: why the last refresh failed, if it did. */
  lastError: Schema.NullOr(Schema.String),
  /** Admins only: the key tokens are checked with. */
  publicKey: Schema.NullOr(LicensePublicKey)
}) {}

export class LicenseTier extends Schema.Class<LicenseTier>("LicenseTier")({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  entitlements: Schema.Array(Schema.String)
}) {}

export class GatedFeature extends Schema.Class<GatedFeature>("GatedFeature")({
  /** The feature's name, as routes declare it. */
  name: Schema.String,
  /** How many routes of the loaded plugins belong to it. */
  routes: Schema.Number,
  /** Whether the license includes it (always true in the community edition). */
  entitled: Schema.Boolean
}) {}

export class LicenseTiers extends Schema.Class<LicenseTiers>("LicenseTiers")({
  edition: Edition,
  /** The tiers the license server offers (empty in the community edition, or before the server was reached). */
  tiers: Schema.Array(LicenseTier),
  /** The tier of the license in force, if any. */
  current: Schema.NullOr(Schema.String),
  /** The licensed features the loaded plugins gate. */
  features: Schema.Array(GatedFeature),
  /** ISO-8601: when the tiers were read from the server. */
  fetchedAt: Schema.NullOr(Schema.String)
}) {}

/** A license key: printable ASCII without spaces, as license servers hand them out. */
export const LicenseKey = StoredText.pipe(
  Schema.minLength(1),
  Schema.maxLength(512),
  Schema.filter((key) => /^[\x21-\x7e]*$/.test(key) || "key must be printable ASCII without spaces")
)

export const ActivateBody = Schema.Struct({ key: LicenseKey })

/** 422: the license server refused the key (unknown, revoked, bound to another machine, unpaid). */
export class LicenseRefused extends Schema.TaggedError<LicenseRefused>()(
  "LicenseRefused",
  { message: Schema.String, details: Schema.optional(Schema.Unknown) },
  HttpApiSchema.annotations({ status: 422 })
) {}

export class LicenseGroup extends HttpApiGroup.make("license").annotate(OpenApi.Description, "The controller's license and the features it unlocks.")
  .add(
    HttpApiEndpoint.get("status", "/api/license")
      .addSuccess(LicenseStatus)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "The license's state")
      .annotate(
        OpenApi.Description,
        "Edition, state (unactivated, active, grace, past_due, lapsed, expired), the license's claims and its dates. " +
          "The server, machine id, last error and public key are shown to admins only."
      )
  )
  .add(
    HttpApiEndpoint.get("tiers", "/api/license/tiers")
      .addSuccess(LicenseTiers)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "License tiers and licensed features")
      .annotate(OpenApi.Description, "The tiers the license server offers, and which licensed features the loaded plugins gate.")
  )
  .add(
    HttpApiEndpoint.post("activate", "/api/license/activate")
      .setPayload(ActivateBody)
      .addSuccess(LicenseStatus)
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Activate a license")
      .annotate(
        OpenApi.Description,
        "Sends the key and this controller's machine id to the license server and keeps the signed token it answers, sealed. " +
          "409 in the community edition (no LICENSE_SERVER_URL); 422 when the server refuses the key; " +
          "502 when its token does not verify or it answers badly; 504 when it does not answer."
      )
      .annotate(BodyExample, { key: "GARRISON-PRO-1234-5678" })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/license")
      .addSuccess(LicenseStatus)
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Remove the license")
      .annotate(OpenApi.Description, "Forgets the key, the token and a pinned public key (and tells the server, if it answers). 404 when none is activated.")
  )
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .addError(LicenseRefused)
  .addError(BadGateway)
  .addError(GatewayTimeout) {}

export class LicenseApi extends HttpApi.make("license").add(LicenseGroup) {}
