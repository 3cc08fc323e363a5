/**
 * The file editor (spec "Files and types editor", `server.config`): text
 * files under a server's install folder, listed, read and written through
 * its confined files. See README.md.
 */
import { Plugin } from "@garrison/runtime"
import { FilesApi } from "./contract/Api.js"
import { FileEditor } from "./FileEditor.js"
import { FilesRoutes } from "./routes.js"

export const FilesPlugin = Plugin.make({
  id: "files",
  description: "Text files of a server's install folder: list, read, write (confined to it)",
  dependsOn: ["servers"],
  layer: FileEditor.layer,
  http: Plugin.http(FilesApi, FilesRoutes)
})

export { FileContent, FileEntry, FileList, FILES_PERMISSION, FilesApi, FilesGroup, FileWritten, MAX_EDIT_BYTES, WriteInput as FileWriteInput } from "./contract/Api.js"
export { FileEditor } from "./FileEditor.js"
export type { FileEditorShape } from "./FileEditor.js"
export { FileInputRefused, FileNeverWritten, FileNotText } from "./errors.js"
export type { FilesError } from "./errors.js"
