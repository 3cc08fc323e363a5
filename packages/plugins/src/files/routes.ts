/** The handlers behind `FilesApi`; the host has already checked `server.config` on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { ifMatchHeader } from "@garrison/runtime"
import { FilesApi } from "./contract/Api.js"
import { FileEditor } from "./FileEditor.js"


export const FilesRoutes = HttpApiBuilder.group(FilesApi, "files", (handlers) =>
  Effect.gen(function* () {
    const editor = yield* FileEditor
    return handlers
      .handle("list", ({ path, urlParams }) => editor.list(path.id, urlParams.path))
      .handle("read", ({ path, urlParams }) => editor.read(path.id, urlParams.path))
      .handle("write", ({ path, payload }) => Effect.flatMap(ifMatchHeader, (tag) => editor.write(path.id, payload, tag)))
  })
)
