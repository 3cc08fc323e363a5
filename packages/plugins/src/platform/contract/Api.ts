/**
 * The platform plugin's HTTP contract: SteamCMD and Steam Web API settings,
 * the Steam account used for downloads, and workshop lookups. Status and
 * lookups are open to any signed-in caller; settings and credentials are
 * `admin` only, and no credential is ever answered back.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadGateway, BadRequest, BodyExample, Conflict, GatewayTimeout, NotFound, pageFields, pageParams, totalField, TrimmedStoredText, Unavailable } from "@garrison/runtime"

/** Where a setting's value comes from: set through the API, the environment, or the built-in default. */
export const SettingSource = Schema.Literal("setting", "environment", "default")
export type SettingSource = typeof SettingSource.Type

export class PlatformStatus extends Schema.Class<PlatformStatus>("PlatformStatus")({
  steamcmd: Schema.Struct({
    path: Schema.String,
    source: SettingSource,
    /** Whether the path names an executable file now (looked up on PATH when it is a bare name). */
    available: Schema.Boolean,
    /** The file it resolved to, when available. */
    resolved: Schema.NullOr(Schema.String)
  }),
  webApi: Schema.Struct({
    url: Schema.String,
    source: SettingSource,
    /** Whether a Web API key is set (the key itself is never shown). */
    keySet: Schema.Boolean
  }),
  credentials: Schema.Struct({
    configured: Schema.Boolean,
    /** The Steam account name; shown to admins only (null for others and when none is set). */
    username: Schema.NullOr(Schema.String),
    /** When a SteamCMD login last proved them; null when saved without a check. */
    validatedAt: Schema.NullOr(Schema.String),
    savedAt: Schema.NullOr(Schema.String)
  }),
  workshopCache: Schema.Struct({ entries: Schema.Number, ttlSeconds: Schema.Number })
}) {}

/** Steam account names: letters, digits and underscores. */
const SteamAccountName = Schema.Trim.pipe(
  Schema.pattern(/^[A-Za-z0-9_]{1,64}$/, { message: () => "a Steam account name is 1 to 64 letters, digits or underscores" })
)
const SteamPassword = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(256, { message: () => "must be at most 256 characters" }),
  Schema.filter((s) => !s.startsWith("+") || "SteamCMD would read a password starting with \"+\" as a command"),
  // eslint-disable-next-line no-control-regex
  Schema.pattern(/^[^\u0000-\u001f\u007f]*$/, { message: () => "must not hold control characters" })
)
const GuardCode = Schema.Trim.pipe(Schema.pattern(/^[A-Za-z0-9]{5}$/, { message: () => "a Steam Guard code is 5 letters or digits" }))

export class CredentialsInput extends Schema.Class<CredentialsInput>("PlatformCredentialsInput")({
  username: SteamAccountName,
  password: SteamPassword,
  /** The Steam Guard code from the account's e-mail or authenticator app, when Steam asks for one. */
  guardCode: Schema.optional(GuardCode)
}) {}

export class CredentialsSaveInput extends Schema.Class<CredentialsSaveInput>("PlatformCredentialsSaveInput")({
  username: SteamAccountName,
  password: SteamPassword
}) {}

export class CredentialsResult extends Schema.Class<CredentialsResult>("PlatformCredentialsResult")({
  username: Schema.String,
  validated: Schema.Boolean,
  validatedAt: Schema.NullOr(Schema.String),
  savedAt: Schema.String
}) {}

const HttpUrl = TrimmedStoredText.pipe(
  Schema.maxLength(2048),
  Schema.filter((s) => {
    try {
      const url = new URL(s)
      return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === ""
        ? true
        : "must be an http(s) URL without user or password"
    } catch {
      return "must be an absolute http(s) URL"
    }
  })
)

/**
 * Run-time settings; each field: a value sets it, null goes back to the
 * environment's value (`STEAMCMD_PATH`, `STEAM_WEB_API_URL`,
 * `STEAM_WEB_API_KEY`) or the default; absent leaves it.
 */
export class SettingsPatch extends Schema.Class<SettingsPatch>("PlatformSettingsPatch")({
  steamcmdPath: Schema.optional(
    Schema.NullOr(
      Schema.Trim.pipe(
        Schema.minLength(1),
        Schema.maxLength(4096),
        // eslint-disable-next-line no-control-regex
        Schema.pattern(/^[^\u0000-\u001f]*$/, { message: () => "must not hold control characters" })
      )
    )
  ),
  webApiUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  webApiKey: Schema.optional(
    Schema.NullOr(Schema.Trim.pipe(Schema.pattern(/^[A-Za-z0-9]{8,64}$/, { message: () => "a Steam Web API key is 8 to 64 letters or digits" })))
  )
}) {}

export class WorkshopItem extends Schema.Class<WorkshopItem>("WorkshopItem")({
  workshopId: Schema.String,
  title: Schema.String,
  description: Schema.String,
  sizeBytes: Schema.Number,
  /** ISO-8601 UTC, from Steam's unix seconds. */
  timeCreated: Schema.NullOr(Schema.String),
  timeUpdated: Schema.NullOr(Schema.String),
  banned: Schema.Boolean,
  subscriptions: Schema.Number,
  tags: Schema.Array(Schema.String),
  previewUrl: Schema.NullOr(Schema.String)
}) {}

/** One page of Steam's answer in the list envelope; `total` is Steam's count of matches. */
export class WorkshopPage extends Schema.Class<WorkshopPage>("WorkshopPage")({ ...pageFields(WorkshopItem), ...totalField }) {}

export const WORKSHOP_PAGE = { defaultLimit: 20, maxLimit: 100 } as const
/** Steam pages its results; its own paging stops after this many. */
export const WORKSHOP_MAX_PAGE = 1000

export const SearchParams = Schema.Struct({
  q: Schema.Trim.pipe(Schema.minLength(1, { message: () => "q must not be empty" }), Schema.maxLength(200)),
  ...pageParams(WORKSHOP_PAGE)
})
export const PopularParams = Schema.Struct({ ...pageParams(WORKSHOP_PAGE) })
export const WorkshopIdPath = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^\d{1,20}$/, { message: () => "a workshop id is a number" }))
})

export class PlatformGroup extends HttpApiGroup.make("platform").annotate(OpenApi.Description, "SteamCMD and the Steam account used for downloads.")
  .add(
    HttpApiEndpoint.get("status", "/api/platform/status")
      .addSuccess(PlatformStatus)
      .annotate(Access, Access.anyAuth)
      .annotate(OpenApi.Summary, "Download tool and Steam account status")
      .annotate(OpenApi.Description, "Where SteamCMD and the Steam Web API are, whether SteamCMD is there, and whether an account is set. No secret is shown.")
  )
  .add(
    HttpApiEndpoint.post("credentials", "/api/platform/credentials")
      .setPayload(CredentialsInput)
      .addSuccess(CredentialsResult)
      .addError(BadRequest)
      .addError(Conflict)
      .addError(Unavailable)
      .addError(GatewayTimeout)
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Check and store the Steam account")
      .annotate(
        OpenApi.Description,
        "Logs in through SteamCMD first; stored (encrypted) only when the login works. 400 for a wrong name, password or code; " +
          "409 when Steam asks for a Steam Guard code (send it as `guardCode`); 503 when SteamCMD cannot be run."
      )
      .annotate(BodyExample, { username: "my_steam_account", password: "correct horse", guardCode: "F4K3C" })
  )
  .add(
    HttpApiEndpoint.post("saveCredentials", "/api/platform/credentials/save")
      .setPayload(CredentialsSaveInput)
      .addSuccess(CredentialsResult)
      .addError(BadRequest)
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Store the Steam account without checking it")
      .annotate(OpenApi.Description, "For an account whose Steam Guard code is not at hand: the first download proves it.")
      .annotate(BodyExample, { username: "my_steam_account", password: "correct horse" })
  )
  .add(
    HttpApiEndpoint.del("removeCredentials", "/api/platform/credentials")
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Forget the Steam account")
  )
  .add(
    HttpApiEndpoint.patch("settings", "/api/platform/settings")
      .setPayload(SettingsPatch)
      .addSuccess(PlatformStatus)
      .addError(BadRequest)
      .annotate(Access, Access.permission(ADMIN))
      .annotate(OpenApi.Summary, "Set where SteamCMD and the Steam Web API are")
      .annotate(OpenApi.Description, "null returns a setting to the environment's value or the default.")
      .annotate(BodyExample, { steamcmdPath: "/opt/steamcmd/steamcmd.sh", webApiUrl: null })
  ) {}

export class WorkshopGroup extends HttpApiGroup.make("workshop").annotate(OpenApi.Description, "Searching and reading DayZ Steam Workshop items.")
  .add(
    HttpApiEndpoint.get("search", "/api/workshop/search")
      .setUrlParams(SearchParams)
      .addSuccess(WorkshopPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Search DayZ's workshop")
  )
  .add(
    HttpApiEndpoint.get("details", "/api/workshop/details/:id")
      .setPath(WorkshopIdPath)
      .addSuccess(WorkshopItem)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "One workshop item")
  )
  .add(
    HttpApiEndpoint.get("popular", "/api/workshop/popular")
      .setUrlParams(PopularParams)
      .addSuccess(WorkshopPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Trending DayZ workshop items")
  )
  // The Web API unreachable or silent: 503 (Retry-After); answering wrongly (a refused key): 502.
  .addError(Unavailable)
  .addError(BadGateway)
  .annotate(Access, Access.anyAuth) {}

export class PlatformApi extends HttpApi.make("platform").add(PlatformGroup).add(WorkshopGroup) {}
