/** Role permissions are stored as a JSON array of names. */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

const decode = Schema.decodeUnknownEither(Schema.parseJson(Schema.Array(Schema.String)))

/** A stored list that does not parse grants nothing: fail closed. */
export const parsePermissions = (stored: string): ReadonlyArray<string> =>
  Either.getOrElse(decode(stored), () => [])

/** Without duplicates, in the order given. */
export const normalizePermissions = (names: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(names)]
