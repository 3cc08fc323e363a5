/**
 * Why a path inside a root folder (a game server's install folder, its
 * profiles folder) could not be used. One error for every confined
 * operation, reads and writes alike, and for every implementation of
 * `ServerFiles` (the local disk now, the agent later): `path` is always the
 * relative path as the caller gave it, never where it resolved to.
 */
import * as Schema from "effect/Schema"

export const ConfinedFileProblem = Schema.Literal(
  // Refusals: the path itself is not allowed (400).
  /** The relative path breaks the rules (NUL, absolute, `..` leaving the root, a lone surrogate, too long). */
  "invalid-path",
  /** A folder on the way, or the opened file itself, lies outside the root. */
  "outside-root",
  /** The last name is a symbolic link (never followed). */
  "symlink",
  /** A file with more than one name: it may be a hard link to a file outside the root. */
  "hard-link",
  // What is there is not what the operation needs (400).
  /** A folder, FIFO, socket or device where a file was expected. */
  "not-regular-file",
  "not-a-folder",
  /** A read of a whole file larger than its limit (read a range instead). */
  "too-large",
  // Missing (404), or in the way (409).
  "not-found",
  /** The target of a rename (or a new folder) already exists. */
  "exists",
  /** A folder to remove still holds entries (and the removal was not recursive). */
  "not-empty",
  /** The file or a folder on its way was replaced while it was opened (a race): nothing was read or written; try again. */
  "changed",
  /** Any other refusal of the file system (permissions, a full disk, too many open files): a real fault. */
  "io"
)
export type ConfinedFileProblem = typeof ConfinedFileProblem.Type

export class ConfinedFileError extends Schema.TaggedError<ConfinedFileError>()("ConfinedFileError", {
  /** The relative path as the caller gave it (never the resolved one). */
  path: Schema.String,
  problem: ConfinedFileProblem,
  /** What is wrong, without the path (`resolves outside its folder`). */
  message: Schema.String
}) {}

/** Problems that refuse the path itself: confinement, not the state of the disk. */
export const CONFINEMENT_PROBLEMS: ReadonlySet<ConfinedFileProblem> = new Set(["invalid-path", "outside-root", "symlink", "hard-link"])

export const isConfinementRefusal = (error: ConfinedFileError): boolean => CONFINEMENT_PROBLEMS.has(error.problem)
