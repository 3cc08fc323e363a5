/** The handlers behind `DangerzoneApi`; the host has already checked `admin`. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import {
  BadRequest,
  type ConfinedFileError,
  type ConfinedFileHttpError,
  confinedFileHttpError,
  auditActorOf,
  Conflict,
  CurrentPrincipal,
  storeDefect
} from "@garrison/runtime"
import { DangerzoneApi } from "./contract/Api.js"
import { Dangerzone } from "./Dangerzone.js"
import type { BackupStoreError } from "../backups/index.js"
import type { DangerzoneError } from "./errors.js"

/**
 * The plugin's errors as the API answers them: the one place their statuses
 * are chosen. A file the server's folder refuses is the runtime's
 * `confinedFileHttpError` (404, 409, 400 naming the path); a store failure
 * of the backup taken first is a fault (500 with a request id).
 */
const dangerzoneHttpError = (
  error: DangerzoneError | ConfinedFileError | BackupStoreError
): Effect.Effect<never, BadRequest | Conflict | ConfinedFileHttpError> => {
  switch (error._tag) {
    case "BackupStoreError":
      return storeDefect(error)
    case "ConfinedFileError":
      return confinedFileHttpError(error)
    case "DangerzoneInputRefused":
      return Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
    case "DangerzoneConflict":
      return Effect.fail(new Conflict({ message: error.message }))
  }
}
/** The scans and log clearing meet only files. */
const answeredFiles = { ConfinedFileError: dangerzoneHttpError }
const answered = { ...answeredFiles, DangerzoneInputRefused: dangerzoneHttpError, DangerzoneConflict: dangerzoneHttpError }
/** A wipe or a replicate makes a backup first. */
const answeredWithBackup = { ...answered, BackupStoreError: dangerzoneHttpError }

export const DangerzoneRoutes = HttpApiBuilder.group(DangerzoneApi, "dangerzone", (handlers) =>
  Effect.gen(function* () {
    const dangerzone = yield* Dangerzone
    const caller = Effect.map(CurrentPrincipal, auditActorOf)
    return handlers
      .handle("wipePresets", ({ path }) =>
        Effect.flatMap(caller, (by) => dangerzone.wipePresets(path.id, by)).pipe(Effect.catchTags({ ...answeredFiles, DangerzoneConflict: dangerzoneHttpError }))
      )
      .handle("logsScan", ({ path }) => Effect.flatMap(caller, (by) => dangerzone.logsScan(path.id, by)).pipe(Effect.catchTags(answeredFiles)))
      .handle("clearLogs", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => dangerzone.clearLogs(path.id, payload.categories, by)).pipe(Effect.catchTags(answeredFiles))
      )
      .handle("wipe", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.wipe(path.id, payload, by)).pipe(Effect.catchTags(answeredWithBackup)))
      .handle("replicatePreview", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => dangerzone.replicatePreview(path.id, payload, by)).pipe(Effect.catchTags(answered))
      )
      .handle("replicate", ({ path, payload }) => Effect.flatMap(caller, (by) => dangerzone.replicate(path.id, payload, by)).pipe(Effect.catchTags(answeredWithBackup)))
  })
)
