/**
 * A `ConfinedFileError` as the controller answers it, for any route that
 * takes a path inside a server's folders (file editor, config editor,
 * backups): a refused path is 400 naming the field and the path, a missing
 * one 404, a file in the way or swapped mid-operation 409. An I/O fault is
 * not the caller's doing: it is a 500 (the route dies with it).
 */
import * as Effect from "effect/Effect"
import { BadRequest, Conflict, NotFound } from "../http/ApiErrors.js"
import type { ConfinedFileError } from "./ConfinedFileError.js"

/** The path as it is shown in a message: JSON-quoted, so NUL, control characters and lone surrogates are visible. */
export const showPath = (path: string): string => JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}...` : path)

/** The refusal as a 400: `{message: "path: \"../x\" must not go up ...", details: [{path, message, file, problem}]}`. */
export const confinedFileBadRequest = (error: ConfinedFileError, field = "path"): BadRequest =>
  new BadRequest({
    message: `${field}: ${showPath(error.path)} ${error.message}`,
    details: [{ path: field, message: error.message, file: error.path, problem: error.problem }]
  })

export type ConfinedFileHttpError = BadRequest | NotFound | Conflict

/**
 * The HTTP error for a failed file operation on `field`: 400 for refusals and
 * wrong kinds (including too large), 404 not found, 409 exists, not empty or
 * changed; an I/O fault dies (500 with a request id, never the system's text).
 */
export const confinedFileHttpError = (error: ConfinedFileError, field = "path"): Effect.Effect<never, ConfinedFileHttpError> => {
  switch (error.problem) {
    case "not-found":
      return Effect.fail(new NotFound({ message: `${field}: ${showPath(error.path)} ${error.message}` }))
    case "exists":
    case "not-empty":
    case "changed":
      return Effect.fail(
        new Conflict({ message: `${field}: ${showPath(error.path)} ${error.message}`, details: { file: error.path, problem: error.problem } })
      )
    case "io":
      return Effect.die(error)
    default:
      return Effect.fail(confinedFileBadRequest(error, field))
  }
}
