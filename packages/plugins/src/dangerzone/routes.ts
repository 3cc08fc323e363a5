/** The handlers behind `DangerzoneApi`; the host has already checked `admin`. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { BadRequest, Conflict, CurrentPrincipal } from "@garrison/runtime"
import { DangerzoneApi } from "./contract/Api.js"
import { Dangerzone } from "./Dangerzone.js"
import type { DangerzoneError } from "./errors.js"

/** The plugin's errors as the API answers them: the one place their statuses are chosen. */
const dangerzoneHttpError = (error: DangerzoneError): Effect.Effect<never, BadRequest | Conflict> =>
  error._tag === "DangerzoneInputRefused"
    ? Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
    : Effect.fail(new Conflict({ message: error.message }))
const answered = { DangerzoneInputRefused: dangerzoneHttpError, DangerzoneConflict: dangerzoneHttpError }

export const DangerzoneRoutes = HttpApiBuilder.group(DangerzoneApi, "dangerzone", (handlers) =>
  Effect.gen(function* () {
    const dangerzone = yield* Dangerzone
    const caller = Effect.map(CurrentPrincipal, (p) => p.id)
    return handlers
      .handle("wipePresets", ({ path }) => Effect.flatMap(caller, (by) => dangerzone.wipePresets(path.id, by)))
      .handle("logsScan", ({ path }) => Effect.flatMap(caller, (by) => dangerzone.logsScan(path.id, by)))
      .handle("clearLogs", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.clearLogs(path.id, payload.categories, by)))
      .handle("wipe", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.wipe(path.id, payload, by)).pipe(Effect.catchTags(answered)))
      .handle("replicatePreview", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => dangerzone.replicatePreview(path.id, payload, by)).pipe(Effect.catchTags(answered))
      )
      .handle("replicate", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.replicate(path.id, payload, by)).pipe(Effect.catchTags(answered)))
  })
)
