/**
 * `ServerConfigs`: each server's `serverDZ.cfg` (the entry's `configFile`)
 * as typed fields, changed in place (the runtime's `ServerConfigFile`: only
 * the changed values' characters are rewritten), through the server's
 * confined files and written atomically, with a version (ETag) so a change
 * based on a stale read is refused. Templates are copies of the whole file
 * per server, stored sealed (they hold the server's passwords).
 *
 * Text is read as UTF-8 when the file is valid UTF-8 and byte for byte
 * (Latin-1) otherwise, and written back the same way, so a file in another
 * encoding is never re-encoded by an edit.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import {
  type ConfigEdit,
  type ConfigValue,
  editServerConfig,
  etagMatches,
  etagOf,
  findSetting,
  parseServerConfig,
  VersionMismatch,
  processUp,
  SEALED_PREFIX,
  SealedSecrets,
  type SealingKey,
  type ServerNotFound,
  type ServerUnreadable,
  type StartupError
} from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { ConfigProblem, ConfigTemplate, ServerConfig, UnknownSetting, type ConfigPatch } from "./contract/Api.js"
import { KNOWN_KEYS, knownKey, SECRET_MASK } from "./internal/knownKeys.js"
import { ConfigConflict, type ConfigError, ConfigNotFound, type ConfigStoreError, storeError } from "./errors.js"

type Lookup = ServerNotFound | ServerUnreadable


export const CONFIG_KEY = {
  name: "config-templates-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts stored configuration templates (they hold server passwords; AES-256-GCM)",
    ifReplaced: "every stored configuration template becomes unreadable: save them again"
  }
} as const satisfies SealingKey

/** Largest configuration file read or written (DayZ's are a few KiB). */
export const MAX_CONFIG_BYTES = 1024 * 1024

export interface ServerConfigsShape {
  readonly read: (serverId: string) => Effect.Effect<ServerConfig, Lookup | ConfigError>
  readonly update: (serverId: string, patch: ConfigPatch, ifMatch: string | undefined) => Effect.Effect<ServerConfig, Lookup | ConfigError | VersionMismatch>
  readonly templates: (serverId: string) => Effect.Effect<ReadonlyArray<ConfigTemplate>, Lookup | ConfigStoreError>
  readonly saveTemplate: (serverId: string, name: string, by: string) => Effect.Effect<ConfigTemplate, Lookup | ConfigError | ConfigStoreError>
  readonly restoreTemplate: (
    serverId: string,
    templateId: string,
    by: string
  ) => Effect.Effect<{ readonly config: ServerConfig; readonly savedBefore: ConfigTemplate }, Lookup | ConfigError | ConfigStoreError>
  readonly deleteTemplate: (serverId: string, templateId: string) => Effect.Effect<void, Lookup | ConfigError | ConfigStoreError>
  /** Forgets a deleted server's templates. */
  readonly forgetServer: (serverId: string) => Effect.Effect<void, ConfigStoreError>
}

interface FileText {
  readonly text: string
  readonly utf8: boolean
  /** The tag of the file's bytes (the version the API shows is `configVersion`'s). */
  readonly etag: string
}

/**
 * The version the API shows (the body's `etag` and the `ETag` header): of
 * the file's bytes, its name and whether the server runs, everything the
 * answer shows, so a conditional GET is 304 only while the whole answer is
 * the same. A change is checked against the file alone (`namesFile`): a
 * version read before the server started or stopped still names its bytes.
 */
export const configVersion = (file: string, bytesTag: string, running: boolean): string =>
  etagOf(new TextEncoder().encode(`${file}\u0000${running ? 1 : 0}\u0000${bytesTag}`))

/** Whether `ifMatch` names this file's bytes, whatever the server's state was when it was read. */
const namesFile = (ifMatch: string, file: string, bytesTag: string): boolean =>
  etagMatches(ifMatch, configVersion(file, bytesTag, false)) || etagMatches(ifMatch, configVersion(file, bytesTag, true))

const utf8Decoder = new TextDecoder("utf-8", { fatal: true })
const decode = (bytes: Uint8Array): FileText => {
  const etag = etagOf(bytes)
  try {
    return { text: utf8Decoder.decode(bytes), utf8: true, etag }
  } catch {
    return { text: Buffer.from(bytes).toString("latin1"), utf8: false, etag }
  }
}
const encode = (text: string, utf8: boolean): Uint8Array => (utf8 ? new TextEncoder().encode(text) : Buffer.from(text, "latin1"))

/** The typed value of a known key from the file (booleans from 0/1), or null when unset or of another type. */
const typedValue = (kind: string, value: ConfigValue | undefined): unknown => {
  if (value === undefined) return null
  switch (kind) {
    case "secret":
      return typeof value === "string" ? (value === "" ? "" : SECRET_MASK) : null
    case "string":
      return typeof value === "string" ? value : String(value)
    case "bool":
      return typeof value === "number" ? value !== 0 : null
    case "int":
    case "number":
      return typeof value === "number" ? value : null
    case "strings":
      return Array.isArray(value) ? value.map(String) : null
    default:
      return null
  }
}

/** The file as the API shows it: typed fields, unknown keys, problems, the text with passwords masked. */
export const viewOf = (file: string, content: FileText, restartNeeded: boolean): ServerConfig => {
  const parsed = parseServerConfig(content.text)
  const fields: Record<string, unknown> = {}
  for (const key of KNOWN_KEYS) fields[key.key] = typedValue(key.kind, findSetting(parsed, key.key, key.path)?.value)
  const known = (key: string, path: ReadonlyArray<string>) => KNOWN_KEYS.some((k) => k.key.toLowerCase() === key.toLowerCase() && (k.path ?? []).join(">").toLowerCase() === path.join(">").toLowerCase())
  const unknown = parsed.settings.filter((s) => !known(s.key, s.path)).map((s) => new UnknownSetting({ key: s.path.length > 0 ? `${s.path.join(".")}.${s.key}` : s.key, value: s.raw, line: s.line }))
  // The passwords' values never leave: the text shows the mask where they are set.
  let text = content.text
  const secrets = KNOWN_KEYS.filter((k) => k.kind === "secret")
    .map((k) => findSetting(parsed, k.key))
    .filter((s): s is NonNullable<typeof s> => s !== undefined && s.value !== "")
    .sort((a, b) => b.start - a.start)
  for (const s of secrets) text = text.slice(0, s.start) + `"${SECRET_MASK}"` + text.slice(s.end)
  return new ServerConfig({
    file,
    fields: fields as ServerConfig["fields"],
    unknown,
    problems: parsed.problems.map((p) => new ConfigProblem(p)),
    text,
    etag: configVersion(file, content.etag, restartNeeded),
    restartNeeded
  })
}

/** The edits a change makes (a secret sent as the mask is left alone). */
const editsOf = (patch: ConfigPatch): ReadonlyArray<ConfigEdit> =>
  Object.entries(patch).flatMap(([key, value]): ReadonlyArray<ConfigEdit> => {
    const known = knownKey(key)
    if (known === undefined || value === undefined) return []
    if (known.kind === "secret" && value === SECRET_MASK) return []
    const written: ConfigValue = known.kind === "bool" ? (value === true ? 1 : 0) : (value as ConfigValue)
    return [{ key: known.key, value: written, ...(known.path === undefined ? {} : { path: known.path }) }]
  })

interface TemplateRow {
  readonly id: string
  readonly name: string
  readonly content: string
  readonly size_bytes: number
  readonly encoding: string
  readonly created_at: string
  readonly created_by: string
}
const templateOf = (row: TemplateRow) =>
  new ConfigTemplate({ id: row.id, name: row.name, sizeBytes: Number(row.size_bytes), createdAt: row.created_at, createdBy: row.created_by })

export class ServerConfigs extends Context.Tag("@garrison/plugins/ServerConfigs")<ServerConfigs, ServerConfigsShape>() {
  static readonly layer: Layer.Layer<ServerConfigs, StartupError | ConfigStoreError, SqlClient.SqlClient | SealedSecrets | Servers> = Layer.effect(
    ServerConfigs,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const servers = yield* Servers
      const [sealedRows] = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM config_templates WHERE content LIKE ${`${SEALED_PREFIX}%`}`.pipe(
        Effect.mapError(storeError("count the sealed templates"))
      )
      const box = yield* (yield* SealedSecrets).box(CONFIG_KEY, { sealedValuesExist: Number(sealedRows?.n ?? 0) > 0, sealedWhat: "configuration templates" })
      // One change of a server's configuration at a time.
      const writes = yield* Effect.makeSemaphore(1)
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

      const fileOf = (serverId: string) =>
        Effect.gen(function* () {
          const handle = yield* servers.get(serverId)
          const entry = yield* handle.entry
          const state = yield* handle.state
          const bytes = yield* handle.files.read(entry.configFile, { maxBytes: MAX_CONFIG_BYTES }).pipe(
            Effect.mapError((error) =>
              error.problem === "not-found"
                ? new ConfigNotFound({ message: `the server's configuration file ${entry.configFile} does not exist` })
                : error.problem === "too-large"
                  ? new ConfigConflict({ message: `${entry.configFile} is larger than ${MAX_CONFIG_BYTES} bytes: not a DayZ configuration` })
                  : new ConfigConflict({ message: `${entry.configFile}: ${error.message}` })
            )
          )
          return { handle, file: entry.configFile, content: decode(bytes), running: processUp(state) }
        })

      const read: ServerConfigsShape["read"] = (serverId) => Effect.map(fileOf(serverId), ({ content, file, running }) => viewOf(file, content, running))

      /** Writes what `text` makes of the file, in the file's encoding unless it says which (a template's own). */
      const write = <E>(
        serverId: string,
        text: (current: FileText, at: { readonly file: string; readonly running: boolean }) => Effect.Effect<string | { readonly text: string; readonly utf8: boolean }, E>
      ) =>
        writes.withPermits(1)(
          Effect.gen(function* () {
            const { handle, file, content, running } = yield* fileOf(serverId)
            const made = yield* text(content, { file, running })
            const next = typeof made === "string" ? { text: made, utf8: content.utf8 } : made
            const bytes = encode(next.text, next.utf8)
            if (next.text !== content.text || next.utf8 !== content.utf8) {
              yield* handle.files.write(file, bytes).pipe(Effect.mapError((error) => new ConfigConflict({ message: `cannot write ${file}: ${error.message}` })))
            }
            return viewOf(file, decode(bytes), running)
          })
        )

      const insertTemplate = (serverId: string, name: string, file: FileText, by: string) =>
        Effect.gen(function* () {
          const id = randomUUID()
          const at = yield* now
          const sizeBytes = encode(file.text, file.utf8).byteLength
          const taken = yield* sql<{ readonly id: string }>`SELECT id FROM config_templates WHERE server_id = ${serverId} AND name = ${name}`.pipe(Effect.mapError(storeError("read a template's name")))
          if (taken.length > 0) return yield* Effect.fail(new ConfigConflict({ message: `server ${serverId} has a template named "${name}" already`, field: "name" }))
          // Sealed: the file holds the server's passwords (and, as ciphertext, any NUL it holds fits PostgreSQL's text).
          yield* sql`INSERT INTO config_templates (id, server_id, name, content, size_bytes, encoding, created_at, created_by)
            VALUES (${id}, ${serverId}, ${name}, ${box.seal(file.text, `config-templates/${id}`)}, ${sizeBytes}, ${file.utf8 ? "utf-8" : "latin1"}, ${at}, ${by})`.pipe(
            Effect.mapError(storeError("save a template"))
          )
          return new ConfigTemplate({ id, name, sizeBytes, createdAt: at, createdBy: by })
        })

      const templateRow = (serverId: string, templateId: string) =>
        Effect.flatMap(
          sql<TemplateRow>`SELECT * FROM config_templates WHERE server_id = ${serverId} AND id = ${templateId}`.pipe(Effect.mapError(storeError("read a template"))),
          (rows) => (rows[0] === undefined ? Effect.fail(new ConfigNotFound({ message: `server ${serverId} has no configuration template ${templateId}` })) : Effect.succeed(rows[0]))
        )

      return ServerConfigs.of({
        read,
        update: (serverId, patch, ifMatch) =>
          write(serverId, (current, { file, running }) =>
            Effect.gen(function* () {
              if (ifMatch !== undefined && !namesFile(ifMatch, file, current.etag)) {
                return yield* new VersionMismatch({
                  message: "the configuration changed since you read it: read it again (its ETag is in the answer) and redo the change",
                  current: configVersion(file, current.etag, running)
                })
              }
              const parsed = parseServerConfig(current.text)
              if (parsed.problems.length > 0) {
                const first = parsed.problems[0]!
                return yield* Effect.fail(new ConfigConflict({ message: `the configuration file has a problem DayZ would refuse (line ${first.line}: ${first.message}): fix it in the file first` }))
              }
              const edits = editsOf(patch)
              const edited = Either.try(() => editServerConfig(parsed, edits))
              if (Either.isLeft(edited)) {
                return yield* Effect.fail(new ConfigConflict({ message: `template: the file has no class Missions { class DayZ { ... } } block to set it in`, field: "template" }))
              }
              return edited.right
            })
          ),
        templates: (serverId) =>
          Effect.zipRight(
            servers.entry(serverId),
            Effect.map(
              sql<TemplateRow>`SELECT * FROM config_templates WHERE server_id = ${serverId} ORDER BY created_at DESC, name`.pipe(Effect.mapError(storeError("list the templates"))),
              (rows) => rows.map(templateOf)
            )
          ),
        saveTemplate: (serverId, name, by) =>
          Effect.flatMap(fileOf(serverId), ({ content }) => insertTemplate(serverId, name, content, by)),
        restoreTemplate: (serverId, templateId, by) =>
          Effect.gen(function* () {
            const row = yield* templateRow(serverId, templateId)
            const opened = box.open(row.content, `config-templates/${row.id}`)
            if (Either.isLeft(opened)) return yield* Effect.fail(new ConfigConflict({ message: `template ${row.name} cannot be read (${opened.left}): save it again` }))
            let savedBefore: ConfigTemplate | undefined
            const config = yield* write(serverId, (current) =>
              Effect.gen(function* () {
                savedBefore = yield* insertTemplate(serverId, `before restoring "${row.name}" at ${yield* now}`, current, by)
                return { text: opened.right, utf8: row.encoding !== "latin1" }
              })
            )
            return { config, savedBefore: savedBefore! }
          }),
        deleteTemplate: (serverId, templateId) =>
          Effect.gen(function* () {
            yield* templateRow(serverId, templateId)
            yield* sql`DELETE FROM config_templates WHERE server_id = ${serverId} AND id = ${templateId}`.pipe(Effect.mapError(storeError("delete a template")))
          }),
        forgetServer: (serverId) => Effect.asVoid(sql`DELETE FROM config_templates WHERE server_id = ${serverId}`.pipe(Effect.mapError(storeError("forget a server's templates"))))
      })
    })
  )
}
