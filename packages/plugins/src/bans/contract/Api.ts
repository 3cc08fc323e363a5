/**
 * The bans HTTP contract: the Ban resource, the `/api/bans` routes
 * (`bans.manage`) and the in-game ban route `POST
 * /api/servers/:id/players/:playerId/ban` (`players.ban`).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  BadGateway,
  BadRequest,
  BodyExample,
  Conflict,
  GatewayTimeout,
  hasNul,
  NotFound,
  NUL_RULE,
  pageFields,
  pageParams,
  type PermissionDefinition,
  PlatformId,
  ServerFault,
  ServerNotFound,
  ServerUnreadable,
  Unavailable
} from "@garrison/runtime"
import { PlayerView, ServerPath } from "../../servers/index.js"

export const BANS_PERMISSION = "bans.manage"
export const PLAYER_BAN_PERMISSION = "players.ban"
/** The permissions the bans plugin owns. */
export const BANS_PERMISSIONS: ReadonlyArray<PermissionDefinition> = [
  { name: PLAYER_BAN_PERMISSION, description: "Ban players into the global ban database" },
  { name: BANS_PERMISSION, description: "Manage the global ban database" }
]
export const MAX_PAGE_SIZE = 500
export const DEFAULT_PAGE_SIZE = 50
export const MAX_NAME_LENGTH = 128
export const MAX_REASON_LENGTH = 500

const Text = (field: string, max: number) =>
  Schema.String.pipe(
    Schema.maxLength(max, { message: () => `${field} must be at most ${max} characters` }),
    Schema.filter((s) => !/[\r\n]/.test(s) || `${field} must be a single line`),
    Schema.filter((s) => !hasNul(s) || `${field} ${NUL_RULE}`)
  )

export const PlayerName = Text("playerName", MAX_NAME_LENGTH).pipe(
  Schema.minLength(1, { message: () => "playerName must not be empty" })
)
export const Reason = Text("reason", MAX_REASON_LENGTH).pipe(Schema.minLength(1, { message: () => "reason must not be empty" }))

export class Ban extends Schema.Class<Ban>("Ban")({
  /** UUID, shareable across communities. */
  id: Schema.String,
  /** Steam64. */
  platformId: Schema.String,
  playerName: Schema.String,
  reason: Schema.String,
  bannedBy: Schema.String,
  /** ISO-8601, UTC. */
  bannedAt: Schema.String,
  /** ISO-8601, UTC; null: permanent. */
  expiresAt: Schema.NullOr(Schema.String),
  source: Schema.String
}) {}

/** Body of `POST /api/bans`. `platformId` may be Steam64, Steam2 or Steam3; it is stored as Steam64. */
export const BanInput = Schema.Struct({
  platformId: PlatformId,
  playerName: PlayerName,
  reason: Reason,
  /** ISO-8601 date-time in the future, or a duration from now (`30m`, `12h`, `7d`, `2w`); absent or null: permanent. */
  expiresAt: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(64))))
})
export type BanInput = typeof BanInput.Type

export const BanStatus = Schema.Literal("active", "expired", "all")
export type BanStatus = typeof BanStatus.Type

export const BanListParams = Schema.Struct({
  /** Steam64, Steam2 or Steam3. */
  platformId: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  /** Default `all`. */
  status: Schema.optional(BanStatus),
  /** Case-insensitive substring of the player name or the reason. */
  q: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
  ...pageParams({ defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE })
})
export type BanListParams = typeof BanListParams.Type

/** Newest first (by `bannedAt`, then `id`). */
export class BanPage extends Schema.Class<BanPage>("BanPage")(pageFields(Ban)) {}

export class ImportError extends Schema.Class<ImportError>("BanImportError")({
  /** Position of the entry in the array, from 0. */
  index: Schema.Int,
  platformId: Schema.optional(Schema.String),
  error: Schema.String
}) {}

export class ImportResult extends Schema.Class<ImportResult>("BanImportResult")({
  added: Schema.Int,
  /** Entries for players that already had a ban (stored, or earlier in the file). */
  skipped: Schema.Int,
  errors: Schema.Array(ImportError),
  total: Schema.Int
}) {}

/** Body of `POST /api/bans/import`: a JSON array (an export file); the handler checks each entry itself. */
export const ImportFile = Schema.Unknown.annotations({
  identifier: "BanImportFile",
  jsonSchema: { type: "array", items: { type: "object" } }
})

export const BanIdPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })

/**
 * `expiration`: minutes from now (a positive number, or a string of digits),
 * a duration from now (`30m`, `12h`, `7d`, `2w`), or an ISO-8601 date-time;
 * absent, null, `0` or `"perm"`: permanent.
 * `platformId` (Steam64, Steam2 or Steam3) is required when it cannot be
 * derived: BattlEye GUIDs cannot be turned back into Steam64, so it can only
 * be derived when `:playerId` itself is a platform id.
 */
export const PlayerBanBody = Schema.Struct({
  reason: Reason,
  expiration: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String.pipe(Schema.maxLength(64))))),
  platformId: Schema.optional(PlatformId),
  playerName: Schema.optional(PlayerName)
})
export type PlayerBanBody = typeof PlayerBanBody.Type

export const PlayerBanPath = Schema.Struct({
  id: ServerPath.fields.id,
  playerId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
})

export class KickedOn extends Schema.Class<KickedOn>("BanKickedOn")({
  serverId: Schema.String,
  player: PlayerView
}) {}

export class PlayerBanReply extends Schema.Class<PlayerBanReply>("PlayerBanReply")({
  ban: Ban,
  /** The running servers the player was kicked from. */
  kicked: Schema.Array(KickedOn)
}) {}

export class BansGroup extends HttpApiGroup.make("bans").annotate(OpenApi.Description, "Bans across servers: list, add, lift, import and export.")
  .add(
    HttpApiEndpoint.get("list", "/api/bans")
      .setUrlParams(BanListParams)
      .addSuccess(BanPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "List bans")
      .annotate(OpenApi.Description, "Newest first, filtered by player, status and a text search of names and reasons.")
  )
  .add(
    HttpApiEndpoint.post("add", "/api/bans")
      .setPayload(BanInput)
      .addSuccess(Ban, { status: 201 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Ban a player")
      .annotate(
        OpenApi.Description,
        "Adds the player to the global ban database and every server's `ban.txt`. 409 when the player already has an active ban."
      )
      .annotate(BodyExample, {
        platformId: "76561198000000001",
        playerName: "Survivor",
        reason: "Cheating: speed hack",
        expiresAt: "2026-03-01T00:00:00Z"
      })
  )
  .add(
    HttpApiEndpoint.get("export", "/api/bans/export")
      .addSuccess(Schema.Array(Ban))
      .annotate(OpenApi.Summary, "Export bans")
      .annotate(OpenApi.Description, "Attachment `service-bans-YYYY-MM-DD.json`: every ban, oldest first.")
  )
  .add(
    HttpApiEndpoint.post("import", "/api/bans/import")
      // Taken as it comes: the handler answers 400 unless it is an array, and checks each entry exactly once
      // (one bad entry is reported, not fatal), rather than a decoder walking 100,000 entries first.
      .setPayload(ImportFile)
      .addSuccess(ImportResult)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Import bans")
      .annotate(BodyExample, [
        {
          platformId: "76561198000000001",
          playerName: "Survivor",
          reason: "Cheating: speed hack",
          bannedBy: "admin",
          bannedAt: "2026-01-31T12:00:00Z"
        }
      ])
      .annotate(
        OpenApi.Description,
        "Array of `{platformId, playerName, reason, bannedBy, bannedAt, expiresAt?}`; one transaction. Large files need BODY_LIMIT_BYTES raised."
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/api/bans/:id").setPath(BanIdPath).addSuccess(Ban).addError(NotFound)
      .annotate(OpenApi.Summary, "Get a ban")
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/bans/:id").setPath(BanIdPath).addError(NotFound)
      .annotate(OpenApi.Summary, "Lift a ban")
      .annotate(OpenApi.Description, "Also removed from every server's `ban.txt`.")
  )
  .annotate(Access, Access.permission(BANS_PERMISSION)) {}

export class PlayerBanGroup extends HttpApiGroup.make("playerBan").annotate(OpenApi.Description, "Banning an online player of one server.")
  .add(
    HttpApiEndpoint.post("ban", "/api/servers/:id/players/:playerId/ban")
      .setPath(PlayerBanPath)
      .setPayload(PlayerBanBody)
      .addSuccess(PlayerBanReply, { status: 201 })
      .annotate(Access, Access.permission(PLAYER_BAN_PERMISSION))
      .annotate(OpenApi.Summary, "Ban a player on a server")
      .annotate(BodyExample, { reason: "Team killing", expiration: 1440 })
      .annotate(
        OpenApi.Description,
        "playerId: BattlEye player number, GUID, exact name, or a platform id. Adds a global ban and kicks the player everywhere."
      )
  )
  .addError(BadRequest)
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(NotFound)
  .addError(Conflict)
  .addError(Unavailable)
  .addError(ServerFault)
  // The agent answered badly (502) or its mod did not answer in time (504), for actions it serves.
  .addError(BadGateway)
  .addError(GatewayTimeout) {}

export class BansApi extends HttpApi.make("bans").add(BansGroup).add(PlayerBanGroup) {}
