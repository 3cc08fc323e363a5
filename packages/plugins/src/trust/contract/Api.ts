/**
 * The trust network's HTTP contract: the public lookup and capability
 * document, and the admin's pool (submissions, appeals, overturns,
 * communities and their weights, chat links), `trust.manage`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, BodyExample, Conflict, NotFound, PlatformId, QueryInteger, RateLimit, StoredText, Unauthenticated } from "@garrison/runtime"
import { POOL_STATUSES, REASON_CATEGORIES } from "../internal/rules.js"
import { TIER_NAMES } from "../internal/tiers.js"

export const TRUST_MANAGE = "trust.manage"
export const LOOKUP_RATE_SCOPE = "trust-lookup"

const oneOf = <const T extends ReadonlyArray<string>>(values: T) =>
  Schema.Literal(...values).annotations({ message: () => `expected one of ${values.join(", ")}` })

export const TrustSignals = Schema.Struct({
  bans_active: Schema.Number,
  submissions_pending: Schema.Number,
  accuracy: Schema.NullOr(Schema.Number),
  overturned: Schema.Number,
  expired: Schema.Number,
  communities: Schema.Number,
  playtime_hours: Schema.NullOr(Schema.Number),
  servers_seen: Schema.NullOr(Schema.Number)
})

export class TrustScoreView extends Schema.Class<TrustScoreView>("TrustScore")({
  serviceId: Schema.String,
  platformId: Schema.String,
  score: Schema.Number,
  confidence: Schema.Number,
  band: Schema.String,
  signals: TrustSignals,
  reasons: Schema.Array(Schema.String),
  computedAt: Schema.String,
  proof: Schema.optional(Schema.String)
}) {}

export const IdentifierPath = Schema.Struct({ identifier: Schema.String.pipe(Schema.maxLength(100, { message: () => "the identifier is at most 100 characters" })) })

export class PoolBanView extends Schema.Class<PoolBanView>("TrustPoolBan")({
  id: Schema.String,
  platformId: Schema.String,
  reasonCategory: Schema.String,
  status: Schema.String,
  vouchCount: Schema.Number,
  vouchWeight: Schema.Number,
  activatedAt: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
}) {}

export class PoolBanList extends Schema.Class<PoolBanList>("TrustPoolBanList")({ items: Schema.Array(PoolBanView) }) {}

export const PoolListParams = Schema.Struct({
  status: Schema.optional(oneOf(POOL_STATUSES)),
  platformId: Schema.optional(PlatformId),
  limit: Schema.optional(QueryInteger({ minimum: 1, maximum: 500, default: 50, about: "pool bans to list" }))
})

const Note = StoredText.pipe(Schema.maxLength(1000, { message: () => "must be at most 1000 characters" }))

export class SubmissionInput extends Schema.Class<SubmissionInput>("TrustSubmissionInput")({
  /** A ban of the global ban database (`/api/bans`). */
  banId: Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }), Schema.maxLength(100)),
  reasonCategory: oneOf(REASON_CATEGORIES),
  /** Private: never shown to partners or in lookups. */
  note: Schema.optional(Note)
}) {}

export class OverturnInput extends Schema.Class<OverturnInput>("TrustOverturnInput")({ note: Note.pipe(Schema.minLength(1, { message: () => "must not be empty" })) }) {}

export class AppealView extends Schema.Class<AppealView>("TrustAppeal")({
  id: Schema.String,
  banId: Schema.String,
  statement: Schema.String,
  status: Schema.String,
  createdAt: Schema.String,
  createdBy: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.String),
  decidedBy: Schema.NullOr(Schema.String),
  decisionNote: Schema.NullOr(Schema.String)
}) {}

export class AppealList extends Schema.Class<AppealList>("TrustAppealList")({ items: Schema.Array(AppealView) }) {}

export class AppealInput extends Schema.Class<AppealInput>("TrustAppealInput")({
  banId: Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }), Schema.maxLength(100)),
  /** The player's words, as an admin took them down. */
  statement: Note.pipe(Schema.minLength(1, { message: () => "must not be empty" }))
}) {}

export class DecisionInput extends Schema.Class<DecisionInput>("TrustAppealDecision")({
  decision: oneOf(["approve", "reject"] as const),
  note: Note.pipe(Schema.minLength(1, { message: () => "must not be empty" }))
}) {}

export const AppealListParams = Schema.Struct({ status: Schema.optional(oneOf(["open", "approved", "rejected"] as const)) })

export class CommunityView extends Schema.Class<CommunityView>("TrustCommunity")({
  id: Schema.String,
  name: Schema.String,
  kind: Schema.String,
  weight: Schema.Number,
  held: Schema.Boolean,
  heldReason: Schema.NullOr(Schema.String),
  overturnRate: Schema.NullOr(Schema.Number),
  submissions: Schema.Number,
  reviewedAt: Schema.NullOr(Schema.String),
  reviewedBy: Schema.NullOr(Schema.String)
}) {}

export class CommunityList extends Schema.Class<CommunityList>("TrustCommunityList")({ items: Schema.Array(CommunityView), threshold: Schema.Number }) {}

export class ReviewInput extends Schema.Class<ReviewInput>("TrustCommunityReview")({
  weight: Schema.Number.pipe(Schema.between(0, 2, { message: () => "must be a number from 0 to 2" }))
}) {}

export class ChatLinkView extends Schema.Class<ChatLinkView>("TrustChatLink")({
  chatUserId: Schema.String,
  platformId: Schema.String,
  linkedAt: Schema.String,
  linkedBy: Schema.NullOr(Schema.String)
}) {}

export class ChatLinkList extends Schema.Class<ChatLinkList>("TrustChatLinkList")({ items: Schema.Array(ChatLinkView) }) {}

export const ChatLinkPath = Schema.Struct({
  chatUserId: Schema.String.pipe(Schema.pattern(/^\d{15,20}$/, { message: () => "must be a chat user id: 15 to 20 digits" }))
})
export class ChatLinkInput extends Schema.Class<ChatLinkInput>("TrustChatLinkInput")({ platformId: PlatformId }) {}

export const IdPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })

export const ExportParams = Schema.Struct({
  /** Changes after this moment: ISO 8601 or epoch milliseconds (a page's `resumeSince`). */
  since: Schema.optional(Schema.String.pipe(Schema.maxLength(40, { message: () => "since is at most 40 characters" }))),
  /** A page's `nextCursor`, as given. */
  cursor: Schema.optional(Schema.String.pipe(Schema.maxLength(500, { message: () => "cursor is at most 500 characters" }))),
  limit: Schema.optional(QueryInteger({ minimum: 1, maximum: 5000, about: "rows per page, up to the key's tier" })),
  /** Comma-separated: active, overturned, expired (all three by default). */
  status: Schema.optional(Schema.String.pipe(Schema.maxLength(100, { message: () => "status is at most 100 characters" })))
})

export class ExportRowView extends Schema.Class<ExportRowView>("TrustExportRow")({
  id: Schema.String,
  platformId: Schema.String,
  serviceId: Schema.String,
  reasonCategory: Schema.String,
  status: Schema.String,
  vouchCount: Schema.Number,
  activatedAt: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  updatedAt: Schema.String,
  updatedMs: Schema.Number
}) {}

export class ExportPageView extends Schema.Class<ExportPageView>("TrustExportPage")({
  bans: Schema.Array(ExportRowView),
  nextCursor: Schema.NullOr(Schema.String),
  resumeSince: Schema.Number,
  proof: Schema.optional(Schema.String)
}) {}

export class PartnerKeyView extends Schema.Class<PartnerKeyView>("TrustPartnerKey")({
  id: Schema.String,
  name: Schema.String,
  tier: Schema.String,
  hint: Schema.String,
  createdAt: Schema.String,
  createdBy: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String),
  lastUsedAt: Schema.NullOr(Schema.String)
}) {}

export class PartnerKeyList extends Schema.Class<PartnerKeyList>("TrustPartnerKeyList")({
  items: Schema.Array(PartnerKeyView),
  tiers: Schema.Array(Schema.Struct({ name: Schema.String, maxLimit: Schema.Number, requestsPerMinute: Schema.Number }))
}) {}

export class PartnerKeyInput extends Schema.Class<PartnerKeyInput>("TrustPartnerKeyInput")({
  name: StoredText.pipe(
    Schema.minLength(1, { message: () => "must not be empty" }),
    Schema.maxLength(100, { message: () => "must be at most 100 characters" }),
    Schema.pattern(/^[^\r\n]*$/, { message: () => "must be a single line" })
  ),
  tier: oneOf(TIER_NAMES)
}) {}

export class PartnerKeyIssued extends Schema.Class<PartnerKeyIssued>("TrustPartnerKeyIssued")({
  /** The key: give it to the partner now, it is not shown again. */
  key: Schema.String,
  partnerKey: PartnerKeyView
}) {}

export class TrustPublicGroup extends HttpApiGroup.make("trustPublic").annotate(OpenApi.Description, "The public trust API: players' trust scores and the pool's export for partners.")
  .add(
    HttpApiEndpoint.get("lookup", "/api/v1/trust/:identifier")
      .setPath(IdentifierPath)
      .addSuccess(TrustScoreView)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(RateLimit, LOOKUP_RATE_SCOPE)
      .annotate(OpenApi.Summary, "A player's trust score")
      .annotate(
        OpenApi.Description,
        "`{identifier}`: a Steam64, a Steam2 id, a service id (UUID) or a linked chat user id; anything else is 400 naming the kinds. " +
          "Score 0-100, confidence 0-1, band (see the capability document), raw `signals` and `reasons`. With signing on, `proof` " +
          "(an RS256 JWT restating score, band, confidence, identity and time) and the same in `x-service-trust-proof`. Public; " +
          "60 a minute per IP (`RATE_LIMIT_TRUST_LOOKUP`)."
      )
  )
  .add(
    HttpApiEndpoint.get("export", "/api/v1/trust/export")
      .setUrlParams(ExportParams)
      .addSuccess(ExportPageView)
      .addError(BadRequest)
      .addError(Unauthenticated)
      .annotate(OpenApi.Summary, "The pool's changes, for partners")
      .annotate(
        OpenApi.Description,
        "Partner key as `Authorization: Bearer <key>` or `x-service-partner-key` (401 without a valid one; 429 with Retry-After past " +
          "the tier's requests a minute). Changes in commit order, pending bans left out, tombstones (`overturned`, `expired`) in. " +
          "Follow `nextCursor` (signed; an altered one is 400) until it is null, then resume later with `since=<resumeSince>`: every " +
          "change arrives once. `limit` up to the tier's page; `status` a comma-separated subset of active, overturned, expired. " +
          "`proof`: an RS256 JWT over the SHA-256 of the page's `bans` JSON (`digest`), `count`, `nextCursor` and `resumeSince`."
      )
  )
  .add(
    HttpApiEndpoint.get("capabilities", "/.well-known/service-trust.json")
      .addSuccess(Schema.Unknown)
      .annotate(OpenApi.Summary, "The trust API's capability document")
      .annotate(OpenApi.Description, "Endpoints, the score schema and bands, identifier kinds, and the public key (JWK) and algorithm when signing is on.")
  )
  .annotate(Access, Access.none) {}

export class TrustAdminGroup extends HttpApiGroup.make("trustAdmin").annotate(OpenApi.Description, "The community ban pool: submissions, overturns and appeals.")
  .add(
    HttpApiEndpoint.get("pool", "/api/trust/pool")
      .setUrlParams(PoolListParams)
      .addSuccess(PoolBanList)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "The community ban pool")
      .annotate(OpenApi.Description, "Newest change first; by status or player; at most `limit` (50; 1-500).")
  )
  .add(
    HttpApiEndpoint.post("submit", "/api/trust/submissions")
      .setPayload(SubmissionInput)
      .addSuccess(PoolBanView, { status: 201 })
      .addError(BadRequest)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Submit a ban to the pool")
      .annotate(
        OpenApi.Description,
        "This community's vouch for a ban of the global ban list. 409 when it already vouches for the player's pool ban, the ban " +
          "has expired, or the community is at its cap (50 in 24 hours, 1,000 in 30 days). Audit `trust.submit`."
      )
      .annotate(BodyExample, { banId: "0b5f6f1e-6c1a-4c57-9a4e-2f3d8e1b7c90", reasonCategory: "cheating", note: "aimbot on video" })
  )
  .add(
    HttpApiEndpoint.post("overturn", "/api/trust/pool/:id/overturn")
      .setPath(IdPath)
      .setPayload(OverturnInput)
      .addSuccess(PoolBanView)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Overturn a pool ban")
      .annotate(OpenApi.Description, "The ban becomes `overturned` (a tombstone partners mirror); every vouching community's weight × 0.7. Audit `trust.overturn`.")
      .annotate(BodyExample, { note: "The video shows another player" })
  )
  .add(
    HttpApiEndpoint.get("appeals", "/api/trust/appeals")
      .setUrlParams(AppealListParams)
      .addSuccess(AppealList)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Appeals")
  )
  .add(
    HttpApiEndpoint.post("appeal", "/api/trust/appeals")
      .setPayload(AppealInput)
      .addSuccess(AppealView, { status: 201 })
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Record a player's appeal of a pool ban")
      .annotate(BodyExample, { banId: "0b5f6f1e-6c1a-4c57-9a4e-2f3d8e1b7c90", statement: "I was not on the server that night" })
  )
  .add(
    HttpApiEndpoint.post("decide", "/api/trust/appeals/:id/decision")
      .setPath(IdPath)
      .setPayload(DecisionInput)
      .addSuccess(AppealView)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Approve or reject an appeal")
      .annotate(OpenApi.Description, "Approving overturns the ban. Audit `trust.appeal.approved` / `trust.appeal.rejected`.")
      .annotate(BodyExample, { decision: "approve", note: "Logs show the player offline" })
  )
  .add(
    HttpApiEndpoint.get("communities", "/api/trust/communities")
      .addSuccess(CommunityList)
      .annotate(OpenApi.Summary, "Communities and their weights")
      .annotate(OpenApi.Description, "This community and every partner, with weight, hold, overturn rate over the last 20 submissions; and the threshold.")
  )
  .add(
    HttpApiEndpoint.patch("review", "/api/trust/communities/:id")
      .setPath(IdPath)
      .setPayload(ReviewInput)
      .addSuccess(CommunityView)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Review a community: set its weight")
      .annotate(OpenApi.Description, "Sets the weight (0-2) and lifts a hold; pending bans it vouched for are weighed again. Audit `trust.community.review`.")
      .annotate(BodyExample, { weight: 1 })
  )
  .add(HttpApiEndpoint.get("chatLinks", "/api/trust/chat-links").addSuccess(ChatLinkList).annotate(OpenApi.Summary, "Chat users linked to players"))
  .add(
    HttpApiEndpoint.put("link", "/api/trust/chat-links/:chatUserId")
      .setPath(ChatLinkPath)
      .setPayload(ChatLinkInput)
      .addSuccess(ChatLinkView)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Link a chat user to a player")
      .annotate(OpenApi.Description, "Lookups by that chat user id then name the player. Audit `trust.chat-link.set`.")
      .annotate(BodyExample, { platformId: "76561198012345678" })
  )
  .add(
    HttpApiEndpoint.del("unlink", "/api/trust/chat-links/:chatUserId")
      .setPath(ChatLinkPath)
      .addSuccess(Schema.Struct({ unlinked: Schema.String }))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Unlink a chat user")
  )
  .annotate(Access, Access.permission(TRUST_MANAGE)) {}

export class TrustPartnerKeysGroup extends HttpApiGroup.make("trustPartnerKeys").annotate(OpenApi.Description, "Keys that partners call the trust API with.")
  .add(
    HttpApiEndpoint.get("list", "/api/trust/partner-keys")
      .addSuccess(PartnerKeyList)
      .annotate(OpenApi.Summary, "Partner keys and tiers")
      .annotate(OpenApi.Description, "Every key with its tier, hint and last use (never the key), and the tiers' page sizes and rates.")
  )
  .add(
    HttpApiEndpoint.post("issue", "/api/trust/partner-keys")
      .setPayload(PartnerKeyInput)
      .addSuccess(PartnerKeyIssued, { status: 201 })
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Issue a partner key")
      .annotate(OpenApi.Description, "The key is in this answer only (stored as its SHA-256). Audit `trust.partner-key.issue`.")
      .annotate(BodyExample, { name: "Chernarus Survivors", tier: "partner" })
  )
  .add(
    HttpApiEndpoint.del("revoke", "/api/trust/partner-keys/:id")
      .setPath(IdPath)
      .addSuccess(PartnerKeyView)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Revoke a partner key")
      .annotate(OpenApi.Description, "Refused at once from then on. Audit `trust.partner-key.revoke`.")
  )
  .annotate(Access, Access.permission(ADMIN)) {}

const HttpUrl = Schema.String.pipe(
  Schema.maxLength(2048, { message: () => "must be at most 2048 characters" }),
  Schema.filter((text) => {
    try {
      const url = new URL(text)
      return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "" ? true : "must be an http(s) URL without user or password"
    } catch {
      return "must be an absolute http(s) URL (the partner's Garrison, https://partner.example.com)"
    }
  })
)
const PartnerKeyText = Schema.String.pipe(Schema.pattern(/^[\x21-\x7e]{16,512}$/, { message: () => "must be 16 to 512 printable ASCII characters without spaces" }))
const Categories = Schema.Array(oneOf(REASON_CATEGORIES)).pipe(Schema.maxItems(REASON_CATEGORIES.length))
const Exemptions = Schema.Array(PlatformId).pipe(Schema.maxItems(1000, { message: () => "at most 1000 exemptions" }))
const MinVouches = Schema.Int.pipe(Schema.between(1, 100, { message: () => "must be a whole number from 1 to 100" }))
const IntervalSeconds = Schema.Int.pipe(Schema.between(60, 86_400, { message: () => "must be a whole number of seconds from 60 to 86400" }))

export class SubscriptionView extends Schema.Class<SubscriptionView>("TrustSubscription")({
  id: Schema.String,
  name: Schema.String,
  baseUrl: Schema.String,
  keyHint: Schema.String,
  minVouches: Schema.Number,
  categories: Schema.Array(Schema.String),
  exemptions: Schema.Array(Schema.String),
  intervalSeconds: Schema.Number,
  enabled: Schema.Boolean,
  since: Schema.Number,
  lastPullAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  lastChanges: Schema.NullOr(Schema.Number),
  bansHeld: Schema.Number,
  createdAt: Schema.String,
  createdBy: Schema.NullOr(Schema.String)
}) {}

export class SubscriptionList extends Schema.Class<SubscriptionList>("TrustSubscriptionList")({ items: Schema.Array(SubscriptionView) }) {}

export class SubscriptionInput extends Schema.Class<SubscriptionInput>("TrustSubscriptionInput")({
  /** Lower-case letters, digits and dashes: the local bans' source is `trust:<name>`. */
  name: Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: () => "must be 1 to 40 lower-case letters, digits or dashes" })),
  baseUrl: HttpUrl,
  partnerKey: PartnerKeyText,
  minVouches: Schema.optionalWith(MinVouches, { default: () => 1 }),
  categories: Schema.optionalWith(Categories, { default: () => [] }),
  exemptions: Schema.optionalWith(Exemptions, { default: () => [] }),
  intervalSeconds: Schema.optionalWith(IntervalSeconds, { default: () => 300 }),
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true })
}) {}

export class SubscriptionPatch extends Schema.Class<SubscriptionPatch>("TrustSubscriptionPatch")({
  /** The partner moved: pulls go on from where they were. (The name is the bans' source, `trust:<name>`: it does not change.) */
  baseUrl: Schema.optional(HttpUrl),
  partnerKey: Schema.optional(PartnerKeyText),
  minVouches: Schema.optional(MinVouches),
  categories: Schema.optional(Categories),
  exemptions: Schema.optional(Exemptions),
  intervalSeconds: Schema.optional(IntervalSeconds),
  enabled: Schema.optional(Schema.Boolean)
}) {}

export class PullReportView extends Schema.Class<PullReportView>("TrustPullReport")({
  read: Schema.Number,
  banned: Schema.Number,
  lifted: Schema.Number,
  skipped: Schema.Number,
  subscription: SubscriptionView
}) {}

export const RemoveParams = Schema.Struct({ liftBans: Schema.optional(Schema.Literal("true", "false").annotations({ message: () => "liftBans is true or false" })) })

export class TrustSubscriptionsGroup extends HttpApiGroup.make("trustSubscriptions").annotate(OpenApi.Description, "Partners' ban feeds this instance follows.")
  .add(HttpApiEndpoint.get("list", "/api/trust/subscriptions").addSuccess(SubscriptionList).annotate(OpenApi.Summary, "Partners' feeds this instance follows"))
  .add(
    HttpApiEndpoint.post("create", "/api/trust/subscriptions")
      .setPayload(SubscriptionInput)
      .addSuccess(SubscriptionView, { status: 201 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Follow a partner's export")
      .annotate(
        OpenApi.Description,
        "With the partner's key (sealed here, never answered). Policy: `minVouches`, `categories` (empty: all), `exemptions` (players never banned " +
          "from this feed). Active rows that pass become local bans with source `trust:<name>`; tombstones lift them. Audit `trust.subscription.create`."
      )
      .annotate(BodyExample, { name: "chernarus-survivors", baseUrl: "https://garrison.partner.example", partnerKey: "gtp_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG", minVouches: 2, categories: ["cheating"], exemptions: [] })
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/trust/subscriptions/:id")
      .setPath(IdPath)
      .setPayload(SubscriptionPatch)
      .addSuccess(SubscriptionView)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Change a subscription's policy, address, key, interval or state")
      .annotate(BodyExample, { minVouches: 3, exemptions: ["76561198012345678"] })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/trust/subscriptions/:id")
      .setPath(IdPath)
      .setUrlParams(RemoveParams)
      .addSuccess(Schema.Struct({ removed: Schema.String, lifted: Schema.Number }))
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Stop following a partner")
      .annotate(OpenApi.Description, "`?liftBans=true` lifts the local bans the feed made; without it they stay (as bans of their own).")
  )
  .add(
    HttpApiEndpoint.post("pull", "/api/trust/subscriptions/:id/pull")
      .setPath(IdPath)
      .addSuccess(PullReportView)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Pull a partner's feed now")
      .annotate(OpenApi.Description, "Rows read, bans made and lifted, rows skipped by the policy; a failure is in `subscription.lastError`. 409 while a pull runs.")
  )
  .annotate(Access, Access.permission(ADMIN)) {}

export class TrustApi extends HttpApi.make("trust").add(TrustPublicGroup).add(TrustAdminGroup).add(TrustPartnerKeysGroup).add(TrustSubscriptionsGroup) {}
