/**
 * Why a list, read or write of the file editor was refused, in the
 * domain's words; the routes map them to statuses in one function
 * (`routes.ts`, `filesHttpError`). A file the install folder refuses is the
 * runtime's `ConfinedFileError`, left as it is.
 */
import * as Schema from "effect/Schema"

/**
 * A field of the request is wrong (400 naming it): the `path` (not a path
 * inside the install folder, or Garrison's own `.garrison` folder), or the
 * `content` (a mask with no value to keep, too large, a NUL character).
 */
export class FileInputRefused extends Schema.TaggedError<FileInputRefused>()("FileInputRefused", {
  field: Schema.Literal("path", "content"),
  /** The whole sentence, naming the field: `content holds a NUL character: the editor writes text files only`. */
  message: Schema.String,
  /** What is wrong with the field, in a few words: `holds a NUL character`. */
  reason: Schema.String
}) {}

/** A file the editor never writes, for admins too: a program, the server's executable, the BattlEye folders (403). */
export class FileNeverWritten extends Schema.TaggedError<FileNeverWritten>()("FileNeverWritten", {
  field: Schema.Literal("path"),
  message: Schema.String
}) {}

/** The file holds NUL bytes or is not UTF-8: listed, but not read (409 `binary`). */
export class FileNotText extends Schema.TaggedError<FileNotText>()("FileNotText", {
  message: Schema.String
}) {}

export type FilesError = FileInputRefused | FileNeverWritten | FileNotText
