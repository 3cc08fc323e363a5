/** The handlers behind `TypesApi`; the host has already checked `server.config` on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { ItemNames, TypeItemPage, TypesApi, TypesFiles, TypesLimits } from "./contract/Api.js"
import { TypesEditor } from "./TypesEditor.js"

export const TypesRoutes = HttpApiBuilder.group(TypesApi, "types", (handlers) =>
  Effect.gen(function* () {
    const types = yield* TypesEditor
    return handlers
      .handle("files", ({ path }) => Effect.map(types.files(path.id), ({ mission, files }) => new TypesFiles({ mission, items: files, nextCursor: null })))
      .handle("items", ({ path, urlParams }) => Effect.map(types.items(path.id, urlParams), (page) => new TypeItemPage(page)))
      .handle("limits", ({ path }) => Effect.map(types.limits(path.id), (items) => new TypesLimits({ items, nextCursor: null })))
      .handle("save", ({ path, payload }) => types.save(path.id, payload.file, payload.items))
      .handle("add", ({ path, payload }) => types.add(path.id, payload.file, payload.item))
      .handle("remove", ({ path, urlParams }) => types.remove(path.id, urlParams.file, urlParams.name))
      .handle("serverItems", ({ path }) => Effect.map(types.names(path.id), (items) => new ItemNames({ items, nextCursor: null, total: items.length })))
  })
)
