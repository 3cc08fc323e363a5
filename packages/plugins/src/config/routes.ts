/** The handlers behind `ConfigApi`; the host has already checked `server.config` on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Conflict, CurrentPrincipal, ifMatchHeader, NotFound, storeDefect, versionedAnswer, versionMismatchHttp } from "@garrison/runtime"
import { ConfigApi, ConfigTemplates, ServerConfig, TemplateRestored } from "./contract/Api.js"
import type { ConfigError, ConfigStoreError } from "./errors.js"
import { ServerConfigs } from "./ServerConfigs.js"

/** The plugin's errors as the API answers them: the one place their statuses are chosen (a store failure is a fault: 500 with a request id). */
const configHttpError = (error: ConfigError | ConfigStoreError): Effect.Effect<never, NotFound | Conflict> =>
  error._tag === "ConfigStoreError"
    ? storeDefect(error)
    : error._tag === "ConfigNotFound"
      ? Effect.fail(new NotFound({ message: error.message }))
      : Effect.fail(new Conflict(error.field === undefined ? { message: error.message } : { message: error.message, details: { field: error.field } }))
const answered = { ConfigNotFound: configHttpError, ConfigConflict: configHttpError }
/** For the calls that read or write the stored templates. */
const answeredWithStore = { ...answered, ConfigStoreError: configHttpError }
/** The configuration with its version as the `ETag` header too: one tag for `If-None-Match` and `If-Match`. */
const versioned = (config: ServerConfig) => versionedAnswer(ServerConfig, config, config.etag)

export const ConfigRoutes = HttpApiBuilder.group(ConfigApi, "config", (handlers) =>
  Effect.gen(function* () {
    const configs = yield* ServerConfigs
    const caller = Effect.map(CurrentPrincipal, (p) => p.name)
    return handlers
      .handle("read", ({ path }) => configs.read(path.id).pipe(Effect.flatMap(versioned), Effect.catchTags(answered)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(ifMatchHeader, (tag) => configs.update(path.id, payload, tag)).pipe(
          Effect.flatMap(versioned),
          Effect.catchTags({ ...answered, VersionMismatch: versionMismatchHttp })
        )
      )
      .handle("templates", ({ path }) =>
        Effect.map(configs.templates(path.id), (items) => new ConfigTemplates({ items, nextCursor: null })).pipe(Effect.catchTags({ ConfigStoreError: configHttpError }))
      )
      .handle("saveTemplate", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => configs.saveTemplate(path.id, payload.name, by)).pipe(Effect.catchTags(answeredWithStore))
      )
      .handle("restoreTemplate", ({ path }) =>
        Effect.flatMap(caller, (by) => configs.restoreTemplate(path.id, path.templateId, by)).pipe(
          Effect.map((restored) => new TemplateRestored(restored)),
          Effect.catchTags(answeredWithStore)
        )
      )
      .handle("deleteTemplate", ({ path }) => configs.deleteTemplate(path.id, path.templateId).pipe(Effect.catchTags(answeredWithStore)))
  })
)
