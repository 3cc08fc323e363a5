/** The handlers behind `FilesApi`; the host has already checked `server.config` on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { FilesApi } from "./contract/Api.js"
import { FileEditor } from "./FileEditor.js"

const ifMatch = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const value: unknown = request.headers["if-match"]
  return typeof value === "string" ? value : undefined
})

export const FilesRoutes = HttpApiBuilder.group(FilesApi, "files", (handlers) =>
  Effect.gen(function* () {
    const editor = yield* FileEditor
    return handlers
      .handle("list", ({ path, urlParams }) => editor.list(path.id, urlParams.path))
      .handle("read", ({ path, urlParams }) => editor.read(path.id, urlParams.path))
      .handle("write", ({ path, payload }) => Effect.flatMap(ifMatch, (tag) => editor.write(path.id, payload, tag)))
  })
)
