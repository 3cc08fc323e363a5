/**
 * How a stored entry row is read. Entries are stored whole as JSON, and the
 * entry grows with features: a row written by an older version lacks the
 * fields added since. Every field but the identity (`id`, `name`,
 * `installDir`) therefore reads with its default when absent, so a new field
 * never makes an old entry unreadable. A new field added to `ServerEntry`
 * must get its default here too (the test writes rows of older shapes).
 */
import { AgentSettings, RconSettings, ServerEntry, serverEntryDefaults, StopPolicy } from "@garrison/runtime"
import * as Schema from "effect/Schema"

const withDefault = <S extends Schema.Schema.Any>(schema: S, value: Schema.Schema.Type<S>) =>
  Schema.optionalWith(schema, { default: () => value })

const StoredEntryFields = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  installDir: Schema.String,
  executable: withDefault(Schema.String, serverEntryDefaults.executable),
  configFile: withDefault(Schema.String, serverEntryDefaults.configFile),
  gamePort: withDefault(Schema.Int.pipe(Schema.between(1, 65535)), serverEntryDefaults.gamePort),
  profilesDir: withDefault(Schema.String, serverEntryDefaults.profilesDir),
  battleyeDir: withDefault(Schema.String, serverEntryDefaults.battleyeDir),
  mods: withDefault(Schema.Array(Schema.String), serverEntryDefaults.mods),
  serverMods: withDefault(Schema.Array(Schema.String), serverEntryDefaults.serverMods),
  extraArgs: withDefault(Schema.Array(Schema.String), serverEntryDefaults.extraArgs),
  rcon: Schema.optional(RconSettings),
  agent: Schema.optional(AgentSettings),
  watchdog: withDefault(Schema.Boolean, serverEntryDefaults.watchdog),
  stop: withDefault(StopPolicy, serverEntryDefaults.stop)
})

/** A stored row's JSON to an entry; the encoded side is the full entry as written today. */
export const StoredEntry = Schema.parseJson(
  Schema.transform(StoredEntryFields, Schema.typeSchema(ServerEntry), {
    strict: true,
    decode: (fields) => new ServerEntry(fields),
    encode: (entry) => ({ ...entry })
  })
)
