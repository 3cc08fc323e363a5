/**
 * The priority queue's HTTP contract: entry schemas and the `HttpApi`.
 * Every endpoint needs `priority.manage`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  BadRequest,
  BodyExample,
  Conflict,
  NotFound,
  pageFields,
  pageParams,
  type PermissionDefinition,
  PlatformId,
  TrimmedStoredText
} from "@garrison/runtime"

export const PRIORITY_PERMISSION = "priority.manage"
/** The permissions the priority plugin owns. */
export const PRIORITY_PERMISSIONS: ReadonlyArray<PermissionDefinition> = [{ name: PRIORITY_PERMISSION, description: "Manage the VIP priority queue" }]

export const PRIORITY_ROLES = ["VIP", "Supporter", "Premium"] as const
export const PriorityRole = Schema.Literal(...PRIORITY_ROLES).annotations({
  message: () => `expected one of ${PRIORITY_ROLES.join(", ")}`
})
export type PriorityRole = typeof PriorityRole.Type

/**
 * Where an entry came from: `manual` (added through the API), `import` (an
 * import), `purchase` (granted or extended by a VIP store purchase).
 */
export const PRIORITY_SOURCES = ["manual", "import", "purchase"] as const
export const PrioritySource = Schema.Literal(...PRIORITY_SOURCES)
export type PrioritySource = typeof PrioritySource.Type

export const DEFAULT_PAGE_SIZE = 100
export const MAX_PAGE_SIZE = 1000
export const MAX_IMPORT_ENTRIES = 100_000

/** A player name as shown in-game: one line, 1 to 128 characters. */
export const PlayerName = TrimmedStoredText.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(128, { message: () => "must be at most 128 characters" }),
  Schema.pattern(/^[^\r\n]*$/, { message: () => "must be a single line" })
)

/**
 * `expiresAt` as a request sends it, the same as a ban's: an ISO-8601 date
 * (`2027-01-31`, midnight UTC) or date-time (`2027-01-31T12:00:00Z`, UTC
 * without a zone), or a duration from now (`30m`, `12h`, `7d`, `2w`); null
 * or absent: permanent. The service reads it with the runtime's
 * `readExpiry` (the strict ISO-8601 reader and `readUserDuration`), so
 * impossible dates such as `2026-02-30` are refused naming what is wrong.
 */
export const ExpiresAt = Schema.NullOr(
  Schema.String.pipe(Schema.maxLength(64)).annotations({
    description:
      "ISO-8601 date (2027-01-31, midnight UTC) or date-time (2027-01-31T12:00:00Z; UTC without a zone), " +
      // The runtime's DURATION_EXAMPLES, spelled out: the dashboard's browser barrel of the runtime leaves the durations out.
      "or a duration from now such as 30m, 12h, 7d or 2w; must be in the future",
    examples: ["30d", "2027-01-31", "2027-01-31T12:00:00Z"]
  })
)

/**
 * An import entry's `expiresAt`, as a ban import reads it: an ISO-8601 date
 * or date-time (no durations: an export holds instants), or null.
 */
export const ImportedExpiresAt = Schema.NullOr(
  Schema.String.pipe(Schema.maxLength(64)).annotations({
    description: "ISO-8601 date (2027-01-31, midnight UTC) or date-time (2027-01-31T12:00:00Z; UTC without a zone)"
  })
)

/** `name`, deprecated: the old spelling of `playerName`, still read on input (and answered beside it) for one release. */
const DeprecatedName = PlayerName.annotations({
  description: "Deprecated: the old name of `playerName`, still accepted. Send `playerName`; when both are sent they must be equal."
})

/** Fields with the player's name: `playerName`, or the deprecated `name` (equal when both are sent). */
interface Named {
  readonly playerName?: string | undefined
  readonly name?: string | undefined
}

/**
 * The player name a body gives, whichever spelling it used (undefined when
 * neither), or the field and words of the refusal: both spellings sent must
 * agree; `required`: one of them must be there. Checked by the service (and
 * per entry by an import), so the answer names the field like any other.
 */
export const playerNameOf = (
  body: Named,
  required: boolean
): { readonly playerName: string | undefined } | { readonly field: string; readonly message: string } =>
  body.playerName !== undefined && body.name !== undefined && body.playerName !== body.name
    ? { field: "name", message: "name: the deprecated spelling of playerName, and not the same: send playerName alone" }
    : required && body.playerName === undefined && body.name === undefined
      ? { field: "playerName", message: "playerName is required" }
      : { playerName: body.playerName ?? body.name }

export class PriorityEntry extends Schema.Class<PriorityEntry>("PriorityEntry")({
  id: Schema.String,
  /** Steam64, whatever form was sent. */
  platformId: Schema.String,
  /** The player's name, as bans say it. */
  playerName: Schema.String,
  /** Deprecated: the same as `playerName`, answered for one release for clients that read `name`. */
  name: Schema.String,
  role: Schema.String,
  /** ISO-8601, UTC; null means permanent. */
  expiresAt: Schema.NullOr(Schema.String),
  addedBy: Schema.String,
  /** ISO-8601, UTC. */
  addedAt: Schema.String,
  /** `manual`, `import` or `purchase` (see `PRIORITY_SOURCES`). */
  source: Schema.String
}) {}

/** Body of `POST /api/priority-queue`: `playerName` (or the deprecated `name`) is required (checked by `playerNameOf`). */
export const PriorityEntryInput = Schema.Struct({
  /** Steam64, Steam2 or Steam3; stored as Steam64. */
  platformId: PlatformId,
  playerName: Schema.optionalWith(PlayerName, { exact: true }),
  name: Schema.optionalWith(DeprecatedName, { exact: true }),
  role: PriorityRole,
  /** Absent or null: permanent. Must be in the future. */
  expiresAt: Schema.optionalWith(ExpiresAt, { default: () => null })
}).annotations({ identifier: "PriorityEntryInput" })
export type PriorityEntryInput = typeof PriorityEntryInput.Type

/** Body of `PATCH /api/priority-queue/:id`: only the fields sent change. */
export const PriorityEntryPatch = Schema.Struct({
  playerName: Schema.optionalWith(PlayerName, { exact: true }),
  name: Schema.optionalWith(DeprecatedName, { exact: true }),
  role: Schema.optional(PriorityRole),
  /** null makes the entry permanent; a date or duration must lie in the future. */
  expiresAt: Schema.optional(ExpiresAt)
}).annotations({ identifier: "PriorityEntryPatch" })
export type PriorityEntryPatch = typeof PriorityEntryPatch.Type

/**
 * One entry of an import body; checked one by one so a bad entry never
 * rejects the rest. An export imports back as is (it carries both
 * `playerName` and the deprecated `name`, equal); an older export's `name`
 * alone is read too.
 */
export const PriorityImportEntry = Schema.Struct({
  platformId: PlatformId,
  playerName: Schema.optionalWith(PlayerName, { exact: true }),
  name: Schema.optionalWith(DeprecatedName, { exact: true }),
  role: PriorityRole,
  expiresAt: Schema.optionalWith(ImportedExpiresAt, { default: () => null }),
  /** Absent: the caller. */
  addedBy: Schema.optional(TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(128)))
})
export type PriorityImportEntry = typeof PriorityImportEntry.Type

export class PriorityImportError extends Schema.Class<PriorityImportError>("PriorityImportError")({
  /** Position in the body array, from 0. */
  index: Schema.Number,
  platformId: Schema.optional(Schema.String),
  error: Schema.String
}) {}

export class PriorityImportResult extends Schema.Class<PriorityImportResult>("PriorityImportResult")({
  added: Schema.Number,
  /** Entries for a player who already has one (stored, or earlier in the same body). */
  skipped: Schema.Number,
  errors: Schema.Array(PriorityImportError)
}) {}

export class PriorityCleanupResult extends Schema.Class<PriorityCleanupResult>("PriorityCleanupResult")({
  removed: Schema.Number,
  remaining: Schema.Number
}) {}

/** Oldest first. */
export class PriorityPage extends Schema.Class<PriorityPage>("PriorityPage")(pageFields(PriorityEntry)) {}

export const PriorityListParams = Schema.Struct({
  role: Schema.optional(PriorityRole),
  /** `true`: permanent or not yet expired; `false`: expired, awaiting cleanup. */
  active: Schema.optional(Schema.Literal("true", "false")),
  ...pageParams({ defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE })
})
export type PriorityListParams = typeof PriorityListParams.Type

export const PriorityEntryPath = Schema.Struct({ id: Schema.String })

export class PriorityGroup extends HttpApiGroup.make("priority").annotate(OpenApi.Description, "The priority queue: players who skip the join queue.")
  .add(
    HttpApiEndpoint.get("list", "/api/priority-queue")
      .setUrlParams(PriorityListParams)
      .addSuccess(PriorityPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "List the priority queue")
      .annotate(OpenApi.Description, "Oldest first, filtered by role and by whether an entry is still active.")
  )
  .add(
    HttpApiEndpoint.post("add", "/api/priority-queue")
      .setPayload(PriorityEntryInput)
      .addSuccess(PriorityEntry, { status: 201 })
      .addError(BadRequest)
      .addError(Conflict)
      .annotate(OpenApi.Summary, "Give a player queue priority")
      .annotate(
        OpenApi.Description,
        "Written into every server's `priority.txt`. 409 when the player already has an entry. `expiresAt`, as for a ban: an " +
          "ISO-8601 date (midnight UTC) or date-time, or a duration from now (`30m`, `12h`, `7d`, `2w`), in the future; null or " +
          "absent: permanent. `name` is the deprecated spelling of `playerName`, still accepted; entries answer both for now."
      )
      .annotate(BodyExample, { platformId: "76561198000000001", playerName: "Survivor", role: "VIP", expiresAt: "30d" })
  )
  .add(
    HttpApiEndpoint.get("export", "/api/priority-queue/export").addSuccess(Schema.Array(PriorityEntry))
      .annotate(OpenApi.Summary, "Export the priority queue")
      .annotate(
        OpenApi.Description,
        "Every entry, as `POST /api/priority-queue/import` takes them (`playerName`, and the deprecated `name` beside it for now)."
      )
  )
  .add(
    HttpApiEndpoint.post("import", "/api/priority-queue/import")
      .setPayload(Schema.Array(Schema.Unknown).pipe(Schema.maxItems(MAX_IMPORT_ENTRIES)))
      .addSuccess(PriorityImportResult)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Import priority entries")
      .annotate(
        OpenApi.Description,
        `An array of entries (at most ${MAX_IMPORT_ENTRIES}), each checked on its own: bad ones are listed in \`errors\`, ` +
          "players who already have an entry are skipped. `expiresAt` is an ISO-8601 date (midnight UTC) or date-time, or " +
          "null; `name` is the deprecated spelling of `playerName`, still accepted."
      )
      .annotate(BodyExample, [
        { platformId: "76561198000000001", playerName: "Survivor", role: "VIP", expiresAt: "2026-12-31T23:59:59Z" },
        { platformId: "76561198000000002", playerName: "Medic", role: "Supporter", expiresAt: null, addedBy: "admin" }
      ])
  )
  .add(
    HttpApiEndpoint.post("cleanup", "/api/priority-queue/cleanup").addSuccess(PriorityCleanupResult)
      .annotate(OpenApi.Summary, "Remove expired priority entries")
      .annotate(OpenApi.Description, "Also runs by itself every 60 seconds.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/priority-queue/:id")
      .setPath(PriorityEntryPath)
      .setPayload(PriorityEntryPatch)
      .addSuccess(PriorityEntry)
      .addError(BadRequest)
      .addError(NotFound)
      .annotate(OpenApi.Summary, "Change a priority entry")
      .annotate(
        OpenApi.Description,
        "Only the fields sent change; `expiresAt` as for an add (`30d`, `2027-01-31`, a date-time), `null` makes the entry " +
          "permanent. `name` is the deprecated spelling of `playerName`, still accepted."
      )
      .annotate(BodyExample, { role: "Premium", expiresAt: "2027-01-31" })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/priority-queue/:id").setPath(PriorityEntryPath).addError(NotFound)
      .annotate(OpenApi.Summary, "Remove a priority entry")
      .annotate(OpenApi.Description, "Also removed from every server's `priority.txt`.")
  )
  .annotate(Access, Access.permission(PRIORITY_PERMISSION)) {}

export class PriorityApi extends HttpApi.make("priority").add(PriorityGroup) {}
