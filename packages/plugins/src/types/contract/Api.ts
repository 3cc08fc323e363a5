/**
 * The types editor (spec "Files and types editor", `server.config`): the
 * mission's `types.xml` and every types file `cfgeconomycore.xml`
 * registers, read as items and changed item by item.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, Conflict, NotFound, pageFields, pageParams, ServerNotFound, ServerUnreadable, totalField } from "@garrison/runtime"

export const TYPES_PERMISSION = "server.config"
export const TYPES_PAGE = { defaultLimit: 100, maxLimit: 1000 } as const

const Count = Schema.NullOr(Schema.Number)

export class TypeItem extends Schema.Class<TypeItem>("TypeItem")({
  name: Schema.String,
  nominal: Count,
  lifetime: Count,
  restock: Count,
  min: Count,
  quantmin: Count,
  quantmax: Count,
  cost: Count,
  flags: Schema.Record({ key: Schema.String, value: Schema.Number }),
  category: Schema.NullOr(Schema.String),
  usage: Schema.Array(Schema.String),
  value: Schema.Array(Schema.String),
  tag: Schema.Array(Schema.String),
  /** The types file it is in, relative to the install folder. */
  file: Schema.String
}) {}

/** An item as sent: the same fields (without `file`); checked (min not above nominal, times not negative, known flags). */
export const TypeItemInput = Schema.Struct({
  name: Schema.String.pipe(Schema.maxLength(128)),
  nominal: Schema.optionalWith(Count, { default: () => null }),
  lifetime: Schema.optionalWith(Count, { default: () => null }),
  restock: Schema.optionalWith(Count, { default: () => null }),
  min: Schema.optionalWith(Count, { default: () => null }),
  quantmin: Schema.optionalWith(Count, { default: () => null }),
  quantmax: Schema.optionalWith(Count, { default: () => null }),
  cost: Schema.optionalWith(Count, { default: () => null }),
  flags: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Number }), { default: () => ({}) }),
  category: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  usage: Schema.optionalWith(Schema.Array(Schema.String).pipe(Schema.maxItems(50)), { default: () => [] }),
  value: Schema.optionalWith(Schema.Array(Schema.String).pipe(Schema.maxItems(50)), { default: () => [] }),
  tag: Schema.optionalWith(Schema.Array(Schema.String).pipe(Schema.maxItems(50)), { default: () => [] })
})
export type TypeItemInput = typeof TypeItemInput.Type

export class TypesFile extends Schema.Class<TypesFile>("TypesFile")({
  path: Schema.String,
  items: Schema.Number,
  size: Schema.Number,
  /** Registered in cfgeconomycore.xml (the mission's own db/types.xml is not). */
  registered: Schema.Boolean,
  /** Why it cannot be read, when it cannot. */
  problem: Schema.NullOr(Schema.String)
}) {}

export class TypesFiles extends Schema.Class<TypesFiles>("TypesFiles")({ mission: Schema.String, ...pageFields(TypesFile) }) {}
export class TypeItemPage extends Schema.Class<TypeItemPage>("TypeItemPage")({ ...pageFields(TypeItem), ...totalField }) {}

export class CategoryLimits extends Schema.Class<CategoryLimits>("TypesCategoryLimits")({
  category: Schema.String,
  items: Schema.Number,
  nominal: Schema.Number,
  min: Schema.Number
}) {}
export class TypesLimits extends Schema.Class<TypesLimits>("TypesLimits")({ ...pageFields(CategoryLimits) }) {}

export class TypesSaved extends Schema.Class<TypesSaved>("TypesSaved")({
  file: Schema.String,
  saved: Schema.Number,
  /** The file as it was, kept under `.garrison/types-backups/`. */
  backup: Schema.String
}) {}

export class ItemName extends Schema.Class<ItemName>("ServerItem")({ name: Schema.String, category: Schema.NullOr(Schema.String) }) {}
export class ItemNames extends Schema.Class<ItemNames>("ServerItems")({ ...pageFields(ItemName), ...totalField }) {}

export const ItemsParams = Schema.Struct({
  file: Schema.optional(Schema.String.pipe(Schema.maxLength(4096))),
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(128))),
  category: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  usage: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  value: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  ...pageParams(TYPES_PAGE)
})
export const SaveInput = Schema.Struct({
  file: Schema.optional(Schema.String.pipe(Schema.maxLength(4096))),
  items: Schema.Array(TypeItemInput).pipe(Schema.minItems(1), Schema.maxItems(5000))
})
export const AddInput = Schema.Struct({ file: Schema.optional(Schema.String.pipe(Schema.maxLength(4096))), item: TypeItemInput })
export const RemoveParams = Schema.Struct({ name: Schema.String.pipe(Schema.maxLength(128)), file: Schema.optional(Schema.String.pipe(Schema.maxLength(4096))) })
export const ServerIdPath = Schema.Struct({ id: Schema.String })

export class TypesGroup extends HttpApiGroup.make("types").annotate(OpenApi.Description, "The mission's loot economy files (types.xml): items and their limits.")
  .add(HttpApiEndpoint.get("files", "/api/servers/:id/types/files").setPath(ServerIdPath).addSuccess(TypesFiles).annotate(OpenApi.Summary, "The mission's types files"))
  .add(
    HttpApiEndpoint.get("items", "/api/servers/:id/types/items")
      .setPath(ServerIdPath)
      .setUrlParams(ItemsParams)
      .addSuccess(TypeItemPage)
      .annotate(OpenApi.Summary, "Items of the types files")
      .annotate(OpenApi.Description, "Filtered by name (contains, any case), category, usage and value; in file order.")
  )
  .add(
    HttpApiEndpoint.get("limits", "/api/servers/:id/types/limits")
      .setPath(ServerIdPath)
      .addSuccess(TypesLimits)
      .annotate(OpenApi.Summary, "Nominal and min totals per category")
  )
  .add(
    HttpApiEndpoint.put("save", "/api/servers/:id/types/save")
      .setPath(ServerIdPath)
      .setPayload(SaveInput)
      .addSuccess(TypesSaved)
      .annotate(OpenApi.Summary, "Save changed items")
      .annotate(OpenApi.Description, "Each item must exist in the file (404 names the first that does not); the file as it was is kept as a backup; written atomically.")
      .annotate(BodyExample, { items: [{ name: "ACOGOptic_6x", nominal: 6, min: 2, lifetime: 14400, category: "weapons", usage: ["Military"], value: ["Tier3"] }] })
  )
  .add(
    HttpApiEndpoint.post("add", "/api/servers/:id/types/add")
      .setPath(ServerIdPath)
      .setPayload(AddInput)
      .addSuccess(TypesSaved, { status: 201 })
      .annotate(OpenApi.Summary, "Add an item")
      .annotate(BodyExample, { item: { name: "GarrisonLantern", nominal: 4, min: 2, lifetime: 14400, restock: 0, category: "tools", usage: ["Town"], value: ["Tier1"] } })
  )
  .add(
    HttpApiEndpoint.del("remove", "/api/servers/:id/types/item")
      .setPath(ServerIdPath)
      .setUrlParams(RemoveParams)
      .addSuccess(TypesSaved)
      .annotate(OpenApi.Summary, "Delete an item")
      .annotate(OpenApi.Description, "404 for an item class the file does not have.")
  )
  .add(
    HttpApiEndpoint.get("serverItems", "/api/servers/:id/items")
      .setPath(ServerIdPath)
      .addSuccess(ItemNames)
      .annotate(OpenApi.Summary, "Every item class the server's economy knows")
      .annotate(OpenApi.Description, "Names and categories from every types file, one page; for spawn menus.")
  )
  .addError(ServerNotFound)
  .addError(ServerUnreadable)
  .addError(BadRequest)
  .addError(NotFound)
  .addError(Conflict)
  .annotate(Access, Access.permission(TYPES_PERMISSION)) {}

export class TypesApi extends HttpApi.make("types").add(TypesGroup) {}
