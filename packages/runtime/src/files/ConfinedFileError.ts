/** Why a path inside a root folder could not be opened. */
import * as Schema from "effect/Schema"

export const ConfinedFileProblem = Schema.Literal(
  /** The relative path breaks the rules (NUL, absolute, `..`, too long). */
  "invalid-path",
  /** A folder on the way, or the opened file itself, lies outside the root. */
  "outside-root",
  /** The last name is a symbolic link (never followed). */
  "symlink",
  /** A folder, FIFO, socket or device where a file was expected. */
  "not-regular-file",
  "not-a-folder",
  /** A file with more than one name: it may be a hard link to a file outside the root. */
  "hard-link",
  "not-found",
  /** The file or a folder on its way was replaced while it was opened (a race): nothing was read. */
  "changed",
  /** Any other refusal of the file system (permissions, too many open files). */
  "io"
)
export type ConfinedFileProblem = typeof ConfinedFileProblem.Type

export class ConfinedFileError extends Schema.TaggedError<ConfinedFileError>()("ConfinedFileError", {
  /** The relative path as the caller gave it (never the resolved one). */
  path: Schema.String,
  problem: ConfinedFileProblem,
  message: Schema.String
}) {}
