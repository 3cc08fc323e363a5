/** The handlers behind `FilesApi`; the host has already checked `server.config` on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import {
  BadRequest,
  Conflict,
  type ConfinedFileError,
  confinedFileHttpError,
  type ConfinedFileHttpError,
  Forbidden,
  ifMatchHeader,
  versionedAnswer,
  versionMismatchHttp
} from "@garrison/runtime"
import { FileContent, FilesApi, FileWritten } from "./contract/Api.js"
import type { FilesError } from "./errors.js"
import { FileEditor } from "./FileEditor.js"

/**
 * The plugin's errors as the API answers them: the one place their statuses
 * are chosen. A file the install folder refuses is the runtime's
 * `confinedFileHttpError` naming `path` (404, 409, 400; an I/O fault is a
 * 500 with a request id).
 */
const filesHttpError = (error: FilesError | ConfinedFileError): Effect.Effect<never, BadRequest | Forbidden | Conflict | ConfinedFileHttpError> => {
  switch (error._tag) {
    case "ConfinedFileError":
      return confinedFileHttpError(error)
    case "FileInputRefused":
      return Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.reason }] }))
    case "FileNeverWritten":
      return Effect.fail(new Forbidden({ message: error.message, details: { field: error.field } }))
    case "FileNotText":
      return Effect.fail(new Conflict({ message: error.message, details: { binary: true } }))
  }
}
/** Every call names a path. */
const answered = { ConfinedFileError: filesHttpError, FileInputRefused: filesHttpError }

export const FilesRoutes = HttpApiBuilder.group(FilesApi, "files", (handlers) =>
  Effect.gen(function* () {
    const editor = yield* FileEditor
    return handlers
      .handle("list", ({ path, urlParams }) => editor.list(path.id, urlParams.path).pipe(Effect.catchTags(answered)))
      // The file's version is the `ETag` header too: one tag for `If-None-Match` and `If-Match`.
      .handle("read", ({ path, urlParams }) =>
        editor.read(path.id, urlParams.path).pipe(
          Effect.flatMap((content) => versionedAnswer(FileContent, content, content.etag)),
          Effect.catchTags({ ...answered, FileNotText: filesHttpError })
        )
      )
      .handle("write", ({ path, payload }) =>
        Effect.flatMap(ifMatchHeader, (tag) => editor.write(path.id, payload, tag)).pipe(
          Effect.flatMap((written) => versionedAnswer(FileWritten, written, written.etag)),
          Effect.catchTags({ ...answered, FileNeverWritten: filesHttpError, VersionMismatch: versionMismatchHttp })
        )
      )
  })
)
