/**
 * Why a read or a change of the mission's types files was refused, in the
 * domain's words; the routes map them to statuses in one function
 * (`routes.ts`, `typesHttpError`). A file the server's folder refuses is
 * the runtime's `ConfinedFileError`, left as it is; a cursor the list did
 * not issue is the runtime's `InvalidCursor`.
 */
import * as Schema from "effect/Schema"

/**
 * A field of the request is wrong (400 naming it): the `file` is not a
 * types file of the mission, or an item of `items` (or the `item` added)
 * breaks the rules of types.xml.
 */
export class TypesInputRefused extends Schema.TaggedError<TypesInputRefused>()("TypesInputRefused", {
  field: Schema.Literal("file", "items"),
  /** The whole sentence, naming what is refused: `item "Apple": nominal must be ...`. */
  message: Schema.String,
  /** What is wrong with the field, in a few words: `not a types file`. */
  reason: Schema.String
}) {}

/**
 * The mission or its files cannot be used as they are (the configuration
 * names no mission, an economy file does not parse), or the item to add is
 * there already: what stands in the way is said (409).
 */
export class TypesConflict extends Schema.TaggedError<TypesConflict>()("TypesConflict", {
  message: Schema.String
}) {}

/** The file has no item of that name (404). */
export class TypesItemNotFound extends Schema.TaggedError<TypesItemNotFound>()("TypesItemNotFound", {
  message: Schema.String
}) {}

export type TypesError = TypesInputRefused | TypesConflict | TypesItemNotFound
