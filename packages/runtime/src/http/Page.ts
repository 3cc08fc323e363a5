/**
 * The one list envelope, `{ items, nextCursor, total? }`, and what every
 * list route shares to answer it: the `limit` and `cursor` query
 * parameters, opaque keyset cursors, and the 400 for a cursor the list did
 * not issue.
 *
 * Keyset pagination: a cursor holds the sort key of the last item of a
 * page, and the next page starts strictly after it, so items added or
 * removed in between are neither skipped nor repeated. Follow `nextCursor`
 * until it is null. `total` is there where it is cheap (a count the list
 * already knows), never at the price of a second scan.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { BadRequest } from "./ApiErrors.js"
import { QueryInteger } from "./QueryInteger.js"

/** Longest `cursor` accepted: every cursor a list issues is far shorter. */
export const MAX_CURSOR_LENGTH = 512

export interface PageLimits {
  /** Items per page when `limit` is left out. */
  readonly defaultLimit: number
  /** The largest `limit` accepted. */
  readonly maxLimit: number
}

// A refinement's description is also what a failed check says it expected ("limit must be an integer
// from 1 to 500"); what a reader of the API documentation needs goes on the query field (`pageParams`).

/** `cursor`: the `nextCursor` of the previous page, passed back unchanged. */
export const PageCursor = Schema.String.pipe(Schema.maxLength(MAX_CURSOR_LENGTH)).annotations({
  description: `a cursor of at most ${MAX_CURSOR_LENGTH} characters`
})

/**
 * `limit`: an integer from 1 to `maxLimit` (a query string carries it as
 * text). The document shows it as a person reads it (`QueryInteger`); a
 * failed check says "an integer from 1 to N".
 */
export const PageLimit = ({ defaultLimit, maxLimit }: PageLimits) =>
  QueryInteger({ minimum: 1, maximum: maxLimit, default: defaultLimit, about: "Items per page" }).annotations({
    description: `an integer from 1 to ${maxLimit}`
  })

/** The query fields every list takes; spread them into the list's own parameters. */
export const pageParams = (limits: PageLimits) => ({
  limit: Schema.optional(PageLimit(limits)),
  cursor: Schema.optional(PageCursor).annotations({
    description: "The previous page's nextCursor, unchanged; leave it out for the first page."
  })
})

const NextCursor = Schema.NullOr(Schema.String).annotations({
  description: "Pass as cursor to get the next page; null on the last page."
})

/** The envelope's fields; spread them into a named page class (`class BanPage extends Schema.Class(...)({...pageFields(Ban)})`). */
export const pageFields = <Item extends Schema.Schema.Any>(item: Item) => ({
  items: Schema.Array(item),
  nextCursor: NextCursor
})

/** `total`, for lists that know their size without another scan. */
export const totalField = {
  total: Schema.Int.annotations({ description: "Items in the whole list, over all pages." })
}

/** `{items, nextCursor, total}` over `item`, for a list with no page class of its own. */
export const PageWithTotal = <Item extends Schema.Schema.Any>(item: Item) =>
  Schema.Struct({ ...pageFields(item), ...totalField })

/** A page as a handler returns it. */
export interface PageOf<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

/**
 * The page in `rows` read with `LIMIT limit + 1`: the extra row only says
 * that another page follows, whose cursor is the position of the last row
 * kept.
 */
export const pageOfRows = <Row>(rows: ReadonlyArray<Row>, limit: number, cursorOf: (last: Row) => string): PageOf<Row> => {
  const items = rows.length > limit ? rows.slice(0, limit) : rows
  const last = items[items.length - 1]
  return { items, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null }
}

/** The limit a list uses: the caller's (already checked by `PageLimit`), or the default; clamped for callers inside the process. */
export const effectiveLimit = (limit: number | undefined, { defaultLimit, maxLimit }: PageLimits): number =>
  Math.min(Math.max(Math.trunc(limit ?? defaultLimit), 1), maxLimit)

export interface CursorCodec<Position> {
  readonly encode: (position: Position) => string
  /** None for anything this list did not issue (another list's cursor, an edited one, garbage). */
  readonly decode: (cursor: string) => Option.Option<Position>
}

/**
 * Opaque cursors for one list: `base64url("<list>:<position as JSON>")`.
 * The list's name keeps one list's cursor from being read by another, and
 * `position` (a schema) checks what comes back, so an edited cursor is
 * refused rather than read.
 */
export const cursorCodec = <Position, Encoded>(list: string, position: Schema.Schema<Position, Encoded>): CursorCodec<Position> => {
  const json = Schema.parseJson(position)
  const encodeJson = Schema.encodeSync(json)
  const decodeJson = Schema.decodeUnknownOption(json)
  const prefix = `${list}:`
  return {
    encode: (value) => Buffer.from(`${prefix}${encodeJson(value)}`, "utf8").toString("base64url"),
    decode: (cursor) => {
      if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return Option.none()
      const text = Buffer.from(cursor, "base64url").toString("utf8")
      return text.startsWith(prefix) ? decodeJson(text.slice(prefix.length)) : Option.none()
    }
  }
}

/**
 * A `cursor` the list did not issue: the one error every list fails with
 * for it, whether the list lives in a service or a route. An endpoint
 * answers it with `invalidCursor()` (`cursorBadRequest` in `catchTags`).
 */
export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("InvalidCursor", {
  cursor: Schema.String
}) {}

/** The position `cursor` holds: undefined for the first page (no cursor), `InvalidCursor` for one the list did not issue. */
export const decodeCursor = <Position>(
  codec: CursorCodec<Position>,
  cursor: string | undefined
): Effect.Effect<Position | undefined, InvalidCursor> =>
  cursor === undefined
    ? Effect.succeed(undefined)
    : Option.match(codec.decode(cursor), {
        onNone: () => Effect.fail(new InvalidCursor({ cursor })),
        onSome: (position) => Effect.succeed<Position | undefined>(position)
      })

/** The 400 for a `cursor` the list did not issue. */
export const invalidCursor = (): BadRequest =>
  new BadRequest({
    message: "cursor is not one this list returned: pass nextCursor back unchanged, or leave cursor out to start again",
    details: [{ path: "cursor", message: "is not one this list returned" }]
  })
