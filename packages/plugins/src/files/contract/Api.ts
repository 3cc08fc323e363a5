/**
 * The file editor (spec "Files and types editor", `server.config`): list,
 * read and write text files under a server's install folder, paths relative
 * to it. Every path goes through the server's confined files: nothing
 * outside the install folder is ever listed, read or written.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  Access,
  BadRequest,
  BodyExample,
  Conflict,
  Forbidden,
  NotFound,
  pageFields,
  PreconditionFailed,
  ServerNotFound,
  ServerUnreadable
} from "@garrison/runtime"

export const FILES_PERMISSION = "server.config"
/** Largest file read or written through the editor (bodies are limited by BODY_LIMIT_BYTES too). */
export const MAX_EDIT_BYTES = 2 * 1024 * 1024

const RelativePath = Schema.String.pipe(Schema.maxLength(4096, { message: () => "path must be at most 4096 characters" }))

export class FileEntry extends Schema.Class<FileEntry>("FileEntry")({
  name: Schema.String,
  /** Relative to the install folder. */
  path: Schema.String,
  kind: Schema.Literal("file", "folder", "symlink", "other"),
  size: Schema.Number,
  modified: Schema.String
}) {}

/** A folder's entries, folders first, then by name; all in one page. */
export class FileList extends Schema.Class<FileList>("FileList")({ path: Schema.String, ...pageFields(FileEntry) }) {}

export class FileContent extends Schema.Class<FileContent>("FileContent")({
  path: Schema.String,
  content: Schema.String,
  size: Schema.Number,
  modified: Schema.String,
  /** The file's version: send it back (`etag` or `If-Match`) to write over what you read. */
  etag: Schema.String,
  /**
   * The secrets whose values show as `********` (`password`, `passwordAdmin`,
   * `RConPassword`): written back as the mask, each keeps its value.
   */
  masked: Schema.Array(Schema.String)
}) {}

export class FileWritten extends Schema.Class<FileWritten>("FileWritten")({
  path: Schema.String,
  size: Schema.Number,
  modified: Schema.String,
  etag: Schema.String,
  created: Schema.Boolean
}) {}

export const FolderParams = Schema.Struct({ path: Schema.optionalWith(RelativePath, { default: () => "" }) })
export const FileParams = Schema.Struct({ path: RelativePath })

export class WriteInput extends Schema.Class<WriteInput>("FileWriteInput")({
  path: RelativePath.pipe(Schema.minLength(1, { message: () => "path must not be empty" })),
  content: Schema.String,
  /** The version read (`FileContent.etag`): refused (412) when the file changed since. Absent: write whatever is there. */
  etag: Schema.optional(Schema.String.pipe(Schema.maxLength(200)))
}) {}

export const ServerIdPath = Schema.Struct({ id: Schema.String })

export class FilesGroup extends HttpApiGroup.make("files").annotate(OpenApi.Description, "Text files of a server's install folder.")
  .add(
    HttpApiEndpoint.get("list", "/api/servers/:id/files")
      .setPath(ServerIdPath)
      .setUrlParams(FolderParams)
      .addSuccess(FileList)
      .annotate(OpenApi.Summary, "List a folder of the server's install")
      .annotate(OpenApi.Description, "`path` relative to the install folder (empty: the install folder itself).")
  )
  .add(
    HttpApiEndpoint.get("read", "/api/servers/:id/files/read")
      .setPath(ServerIdPath)
      .setUrlParams(FileParams)
      .addSuccess(FileContent)
      .annotate(OpenApi.Summary, "Read a text file of the server's install")
      .annotate(
        OpenApi.Description,
        `Text files only (a binary file is 409), at most ${MAX_EDIT_BYTES} bytes. Secrets show as \`********\` (\`password\`, ` +
          "`passwordAdmin`, BattlEye's `RConPassword`, in any file), named in `masked`; the ETag is of the text as shown."
      )
  )
  .add(
    HttpApiEndpoint.put("write", "/api/servers/:id/files/write")
      .setPath(ServerIdPath)
      .setPayload(WriteInput)
      .addSuccess(FileWritten)
      .addError(PreconditionFailed)
      .annotate(OpenApi.Summary, "Write a text file of the server's install")
      .annotate(
        OpenApi.Description,
        "Replaces (or creates) the file atomically; its folder must exist. With `etag` (or `If-Match`), a file changed since is 412. " +
          "A secret written as `********` keeps its current value (400 when the file has none). Never written (403): the server's " +
          "executable, a file with an execute bit, a program by name (`.so`, `.dll`, `.exe`, ...), the BattlEye folders; " +
          "`.garrison` is 400. New files are 0644, and what is written never has an execute bit."
      )
      .annotate(BodyExample, { path: "profiles/notes.txt", content: "restart at 06:00\n" })
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, Access.permission(FILES_PERMISSION)) {}

export class FilesApi extends HttpApi.make("files").add(FilesGroup) {}
