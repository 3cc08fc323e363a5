/**
 * The types editor (spec "Files and types editor", `server.config`): the
 * mission's economy files as items, changed item by item with a backup of
 * the file as it was. See README.md.
 */
import { Plugin } from "@garrison/runtime"
import { TypesApi } from "./contract/Api.js"
import { TypesRoutes } from "./routes.js"
import { TypesEditor } from "./TypesEditor.js"

export const TypesPlugin = Plugin.make({
  id: "types",
  description: "The mission's types.xml files: items, limits, changes with backups",
  dependsOn: ["servers"],
  layer: TypesEditor.layer,
  http: Plugin.http(TypesApi, TypesRoutes)
})

export { CategoryLimits as TypesCategoryLimits, ItemName as ServerItemName, TypeItem, TypeItemInput, TYPES_PERMISSION, TypesApi, TypesFile, TypesGroup, TypesSaved } from "./contract/Api.js"
export { FLAGS as TYPE_FLAGS, itemProblem as typeItemProblem, parseTypes, printTypes, registeredTypesFiles } from "./internal/typesXml.js"
export { MAX_TYPES_BYTES, TypesEditor } from "./TypesEditor.js"
export type { TypesEditorShape } from "./TypesEditor.js"
export { TypesConflict, TypesInputRefused, TypesItemNotFound } from "./errors.js"
export type { TypesError } from "./errors.js"
