/** The handlers behind `DangerzoneApi`; the host has already checked `admin`. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CurrentPrincipal, refusalHttpError } from "@garrison/runtime"
import { DangerzoneApi } from "./contract/Api.js"
import { Dangerzone } from "./Dangerzone.js"

export const DangerzoneRoutes = HttpApiBuilder.group(DangerzoneApi, "dangerzone", (handlers) =>
  Effect.gen(function* () {
    const dangerzone = yield* Dangerzone
    const caller = Effect.map(CurrentPrincipal, (p) => p.id)
    return handlers
      .handle("wipePresets", ({ path }) => Effect.flatMap(caller, (by) => dangerzone.wipePresets(path.id, by)))
      .handle("logsScan", ({ path }) => Effect.flatMap(caller, (by) => dangerzone.logsScan(path.id, by)))
      .handle("clearLogs", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.clearLogs(path.id, payload.categories, by)))
      .handle("wipe", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.wipe(path.id, payload, by)).pipe(Effect.catchTag("Refusal", refusalHttpError)))
      .handle("replicatePreview", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => dangerzone.replicatePreview(path.id, payload, by)).pipe(Effect.catchTag("Refusal", refusalHttpError))
      )
      .handle("replicate", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.replicate(path.id, payload, by)).pipe(Effect.catchTag("Refusal", refusalHttpError)))
  })
)
