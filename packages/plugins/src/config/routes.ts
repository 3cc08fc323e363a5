/** The handlers behind `ConfigApi`; the host has already checked `server.config` on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CurrentPrincipal, ifMatchHeader, refusalHttpError } from "@garrison/runtime"
import { ConfigApi, ConfigTemplates, TemplateRestored } from "./contract/Api.js"
import { ServerConfigs } from "./ServerConfigs.js"



export const ConfigRoutes = HttpApiBuilder.group(ConfigApi, "config", (handlers) =>
  Effect.gen(function* () {
    const configs = yield* ServerConfigs
    const caller = Effect.map(CurrentPrincipal, (p) => p.name)
    return handlers
      .handle("read", ({ path }) => configs.read(path.id).pipe(Effect.catchTag("Refusal", refusalHttpError)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(ifMatchHeader, (tag) => configs.update(path.id, payload, tag)).pipe(Effect.catchTag("Refusal", refusalHttpError))
      )
      .handle("templates", ({ path }) => Effect.map(configs.templates(path.id), (items) => new ConfigTemplates({ items, nextCursor: null })))
      .handle("saveTemplate", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => configs.saveTemplate(path.id, payload.name, by)).pipe(Effect.catchTag("Refusal", refusalHttpError))
      )
      .handle("restoreTemplate", ({ path }) =>
        Effect.flatMap(caller, (by) => configs.restoreTemplate(path.id, path.templateId, by)).pipe(
          Effect.map((restored) => new TemplateRestored(restored)),
          Effect.catchTag("Refusal", refusalHttpError)
        )
      )
      .handle("deleteTemplate", ({ path }) => configs.deleteTemplate(path.id, path.templateId).pipe(Effect.catchTag("Refusal", refusalHttpError)))
  })
)
