/**
 * A plugin's own errors as the runtime's HTTP errors, for the shapes every
 * plugin has, so each answers them alike. Drop them into `catchTags`:
 *
 *   bans.add(payload, caller).pipe(Effect.catchTags({
 *     InvalidBan: fieldBadRequest,
 *     BanExists: exists,                  // conflictWith(...), defined once per plugin
 *     InvalidCursor: cursorBadRequest,
 *     BanStoreError: storeDefect          // see database/StoreError.ts
 *   }))
 *
 * A refusal with another shape (a message worded apart from its details,
 * a status of its own) keeps its own mapper in the plugin, which says why.
 */
import * as Effect from "effect/Effect"
import { BadRequest, Conflict, NotFound } from "./ApiErrors.js"
import { type InvalidCursor, invalidCursor } from "./Page.js"

/** A domain error naming the request field it refuses (`InvalidBan`, `InvalidPriorityEntry`, ...). */
export interface FieldRefusal {
  /** The body or query field, as the caller spelled it: `expiresAt`, `rcon.port`. */
  readonly field: string
  readonly message: string
}

/** 400 naming the field: `{message, details: [{path: field, message}]}`. */
export const fieldBadRequest = (error: FieldRefusal): Effect.Effect<never, BadRequest> =>
  Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))

/** 404 with the message `describe` words for the error: `notFoundWith((e: BanNotFound) => \`no ban with id "${e.id}"\`)`. */
export const notFoundWith =
  <E>(describe: (error: E) => string) =>
  (error: E): Effect.Effect<never, NotFound> =>
    Effect.fail(new NotFound({ message: describe(error) }))

/** 409 with the message `describe` words and, when given, `details` (what the caller needs to resolve it: the existing id). */
export const conflictWith =
  <E>(describe: (error: E) => string, details?: (error: E) => unknown) =>
  (error: E): Effect.Effect<never, Conflict> =>
    Effect.fail(
      new Conflict(details === undefined ? { message: describe(error) } : { message: describe(error), details: details(error) })
    )

/** The one 400 for a cursor the list did not issue (`invalidCursor()`, naming `cursor`). */
export const cursorBadRequest = (_: InvalidCursor): Effect.Effect<never, BadRequest> => Effect.fail(invalidCursor())
