/**
 * The server configuration routes (spec "Configuration", `server.config`):
 * `serverDZ.cfg` read as typed fields and changed in place, with an ETag
 * for conditional writes, and per-server templates of the whole file.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, Conflict, NotFound, pageFields, PreconditionFailed, ServerNotFound, ServerUnreadable } from "@garrison/runtime"
import { type KnownKey, KNOWN_KEYS } from "../internal/knownKeys.js"

export const CONFIG_PERMISSION = "server.config"

const OneLine = (max: number) =>
  Schema.String.pipe(
    Schema.maxLength(max, { message: () => `must be at most ${max} characters` }),
    // eslint-disable-next-line no-control-regex
    Schema.pattern(/^[^\u0000-\u001f\u007f]*$/, { message: () => "must be one line, without control characters" })
  )

/** How a known key is given in a change. */
const inputSchema = (key: KnownKey): Schema.Schema.Any => {
  switch (key.kind) {
    case "string": {
      const base = OneLine(256)
      return key.pattern === undefined ? base : base.pipe(Schema.pattern(key.pattern.regex, { message: () => `must be ${key.pattern!.means}` }))
    }
    case "secret":
      return OneLine(64)
    case "bool":
      return Schema.Boolean
    case "int":
      return Schema.Int.pipe(Schema.between(key.min ?? 0, key.max ?? Number.MAX_SAFE_INTEGER, { message: () => `must be a whole number from ${key.min} to ${key.max}` }))
    case "number":
      return Schema.Number.pipe(Schema.between(key.min ?? 0, key.max ?? Number.MAX_SAFE_INTEGER, { message: () => `must be a number from ${key.min} to ${key.max}` }))
    case "strings":
      return Schema.Array(OneLine(256)).pipe(Schema.maxItems(50))
  }
}

/** How a known key is shown (null when the file does not set it). */
const outputSchema = (key: KnownKey): Schema.Schema.Any => {
  switch (key.kind) {
    case "string":
    case "secret":
      return Schema.NullOr(Schema.String)
    case "bool":
      return Schema.NullOr(Schema.Boolean)
    case "int":
    case "number":
      return Schema.NullOr(Schema.Number)
    case "strings":
      return Schema.NullOr(Schema.Array(Schema.String))
  }
}

/** The known settings; `password` and `passwordAdmin` show `********` when set (never their value). */
export const ConfigFields = Schema.Struct(Object.fromEntries(KNOWN_KEYS.map((key) => [key.key, outputSchema(key)])) as Record<string, Schema.Schema.Any>)

/** A change: any known setting, checked by its type and range. A secret sent as `********` is left as it is. */
export const ConfigPatch = Schema.Struct(
  Object.fromEntries(KNOWN_KEYS.map((key) => [key.key, Schema.optional(inputSchema(key))])) as Record<string, Schema.PropertySignature.Any>
)
export type ConfigPatch = Readonly<Record<string, unknown>>

export class UnknownSetting extends Schema.Class<UnknownSetting>("ConfigUnknownSetting")({
  key: Schema.String,
  /** Its value's text as written. */
  value: Schema.String,
  line: Schema.Number
}) {}

export class ConfigProblem extends Schema.Class<ConfigProblem>("ConfigProblem")({ line: Schema.Number, message: Schema.String }) {}

export class ServerConfig extends Schema.Class<ServerConfig>("ServerConfig")({
  /** The file, relative to the install folder (the entry's `configFile`). */
  file: Schema.String,
  fields: ConfigFields,
  unknown: Schema.Array(UnknownSetting),
  /** What DayZ would refuse in the file (a missing `;`): such a file is not changed through this route. */
  problems: Schema.Array(ConfigProblem),
  /** The file's text, the passwords' values masked. */
  text: Schema.String,
  /** The file's version: send it back as `If-Match` to change what you read. */
  etag: Schema.String,
  /** The server runs: a change takes effect at its next start. */
  restartNeeded: Schema.Boolean
}) {}

export class ConfigTemplate extends Schema.Class<ConfigTemplate>("ConfigTemplate")({
  id: Schema.String,
  name: Schema.String,
  sizeBytes: Schema.Number,
  createdAt: Schema.String,
  createdBy: Schema.String
}) {}

export class ConfigTemplates extends Schema.Class<ConfigTemplates>("ConfigTemplates")({ ...pageFields(ConfigTemplate) }) {}

export class TemplateInput extends Schema.Class<TemplateInput>("ConfigTemplateInput")({
  name: Schema.Trim.pipe(
    Schema.minLength(1, { message: () => "must not be empty" }),
    Schema.maxLength(100, { message: () => "must be at most 100 characters" }),
    // eslint-disable-next-line no-control-regex
    Schema.pattern(/^[^\u0000-\u001f\u007f]*$/, { message: () => "must be one line" })
  )
}) {}

export class TemplateRestored extends Schema.Class<TemplateRestored>("ConfigTemplateRestored")({
  config: ServerConfig,
  /** The config as it was before the restore, saved as a template first. */
  savedBefore: ConfigTemplate
}) {}

export const ServerIdPath = Schema.Struct({ id: Schema.String })
export const TemplatePath = Schema.Struct({ id: Schema.String, templateId: Schema.String })

export class ConfigGroup extends HttpApiGroup.make("config").annotate(OpenApi.Description, "The server's configuration file (serverDZ.cfg) and its templates.")
  .add(
    HttpApiEndpoint.get("read", "/api/servers/:id/config")
      .setPath(ServerIdPath)
      .addSuccess(ServerConfig)
      .annotate(OpenApi.Summary, "Read the server's configuration file")
      .annotate(OpenApi.Description, "Known settings as typed fields (passwords masked), unknown ones as written, the text and its ETag.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/api/servers/:id/config")
      .setPath(ServerIdPath)
      .setPayload(ConfigPatch)
      .addSuccess(ServerConfig)
      .addError(PreconditionFailed)
      .annotate(OpenApi.Summary, "Change settings in the server's configuration file")
      .annotate(
        OpenApi.Description,
        "Only the changed values are rewritten (comments, order and unknown keys stay); the file is replaced atomically. " +
          "With `If-Match`, a file changed since that version is 412. A file DayZ would refuse is 409. A running server " +
          "gets the change at its next start (`restartNeeded`)."
      )
      .annotate(BodyExample, { hostname: "Chernarus | PvE | Discord: example", maxPlayers: 60, enableWhitelist: false })
  )
  .add(
    HttpApiEndpoint.get("templates", "/api/servers/:id/config/templates")
      .setPath(ServerIdPath)
      .addSuccess(ConfigTemplates)
      .annotate(OpenApi.Summary, "List the server's configuration templates")
  )
  .add(
    HttpApiEndpoint.post("saveTemplate", "/api/servers/:id/config/templates")
      .setPath(ServerIdPath)
      .setPayload(TemplateInput)
      .addSuccess(ConfigTemplate, { status: 201 })
      .annotate(OpenApi.Summary, "Save the configuration as a template")
      .annotate(OpenApi.Description, "The whole file as it is now, under a name (409 when the server has a template of that name).")
      .annotate(BodyExample, { name: "weekend event" })
  )
  .add(
    HttpApiEndpoint.post("restoreTemplate", "/api/servers/:id/config/templates/:templateId/restore")
      .setPath(TemplatePath)
      .addSuccess(TemplateRestored)
      .annotate(OpenApi.Summary, "Put a template back as the configuration")
      .annotate(OpenApi.Description, "The configuration before the restore is saved as a template first (`savedBefore`).")
  )
  .add(
    HttpApiEndpoint.del("deleteTemplate", "/api/servers/:id/config/templates/:templateId")
      .setPath(TemplatePath)
      .annotate(OpenApi.Summary, "Delete a configuration template")
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, Access.permission(CONFIG_PERMISSION)) {}

export class ConfigApi extends HttpApi.make("config").add(ConfigGroup) {}
