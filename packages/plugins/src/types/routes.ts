/** The handlers behind `TypesApi`; the host has already checked `server.config` on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import {
  BadRequest,
  Conflict,
  type ConfinedFileError,
  confinedFileHttpError,
  type ConfinedFileHttpError,
  cursorBadRequest,
  type InvalidCursor,
  NotFound
} from "@garrison/runtime"
import { ItemNames, TypeItemPage, TypesApi, TypesFiles, TypesLimits } from "./contract/Api.js"
import type { TypesError } from "./errors.js"
import { TypesEditor } from "./TypesEditor.js"

/**
 * The plugin's errors as the API answers them: the one place their statuses
 * are chosen. A file the server's folder refuses is the runtime's
 * `confinedFileHttpError` naming `file` (404, 409, 400; an I/O fault is a
 * 500 with a request id); a cursor the list did not issue, its one 400.
 */
const typesHttpError = (
  error: TypesError | ConfinedFileError | InvalidCursor
): Effect.Effect<never, BadRequest | Conflict | NotFound | ConfinedFileHttpError> => {
  switch (error._tag) {
    case "ConfinedFileError":
      return confinedFileHttpError(error, "file")
    case "InvalidCursor":
      return cursorBadRequest(error)
    case "TypesInputRefused":
      return Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.reason }] }))
    case "TypesConflict":
      return Effect.fail(new Conflict({ message: error.message }))
    case "TypesItemNotFound":
      return Effect.fail(new NotFound({ message: error.message }))
  }
}
/** Every call reads the mission's files. */
const answeredReads = { ConfinedFileError: typesHttpError, TypesConflict: typesHttpError }
/** A list of items may name a file and a cursor. */
const answeredItems = { ...answeredReads, TypesInputRefused: typesHttpError, InvalidCursor: typesHttpError }
/** A change names a file and items. */
const answeredChanges = { ...answeredReads, TypesInputRefused: typesHttpError, TypesItemNotFound: typesHttpError }

export const TypesRoutes = HttpApiBuilder.group(TypesApi, "types", (handlers) =>
  Effect.gen(function* () {
    const types = yield* TypesEditor
    return handlers
      .handle("files", ({ path }) =>
        Effect.map(types.files(path.id), ({ mission, files }) => new TypesFiles({ mission, items: files, nextCursor: null })).pipe(Effect.catchTags(answeredReads))
      )
      .handle("items", ({ path, urlParams }) => Effect.map(types.items(path.id, urlParams), (page) => new TypeItemPage(page)).pipe(Effect.catchTags(answeredItems)))
      .handle("limits", ({ path }) => Effect.map(types.limits(path.id), (items) => new TypesLimits({ items, nextCursor: null })).pipe(Effect.catchTags(answeredReads)))
      .handle("save", ({ path, payload }) => types.save(path.id, payload.file, payload.items).pipe(Effect.catchTags(answeredChanges)))
      .handle("add", ({ path, payload }) => types.add(path.id, payload.file, payload.item).pipe(Effect.catchTags(answeredChanges)))
      .handle("remove", ({ path, urlParams }) => types.remove(path.id, urlParams.file, urlParams.name).pipe(Effect.catchTags(answeredChanges)))
      .handle("serverItems", ({ path }) =>
        Effect.map(types.names(path.id), (items) => new ItemNames({ items, nextCursor: null, total: items.length })).pipe(Effect.catchTags(answeredReads))
      )
  })
)
