/**
 * Store errors: the database refused a plugin's read or write, or gave rows
 * the plugin cannot read. One way to make them and one way to answer them:
 * each plugin declares its class from `storeErrorFields`, makes its
 * `storeError(operation)` with `storeErrorMapper`, and its routes answer
 * it with `storeDefect` (a 500 with a request id).
 *
 *   export class BanStoreError extends Schema.TaggedError<BanStoreError>()("BanStoreError", storeErrorFields) {}
 *   export const storeError = storeErrorMapper(BanStoreError)
 *   sql`...`.pipe(Effect.mapError(storeError("read bans")))
 *
 * Why a class per plugin rather than one runtime `StoreError`: the tag says
 * whose store failed in every log line and in the signatures other plugins
 * use (`BansShape`, `PriorityQueueShape`, ...), and routes catch each by its
 * tag (the servers routes among them, `catchTag("ServerStoreError", ...)`).
 * What every plugin used to copy, the fields, the message and the 500, is
 * here once.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** The fields of every plugin's store error: the operation and what the database said, in one message. */
export const storeErrorFields = { message: Schema.String }

/** What a failed database call leaves: an `SqlError` (with the driver's error as `cause`), or a `ParseError` of rows. */
export interface StoreFailure {
  readonly message: string
  readonly cause?: unknown
}

/** `"<operation>: <the failure's message> (<the driver's message>)"`. */
export const storeFailureMessage = (operation: string, failure: StoreFailure): string =>
  `${operation}: ${failure.message}${failure.cause instanceof Error ? ` (${failure.cause.message})` : ""}`

/** A plugin's `storeError(operation)` mapper, made from its class. */
export const storeErrorMapper =
  <E>(StoreError: new (fields: { readonly message: string }) => E) =>
  (operation: string) =>
  (failure: StoreFailure): E =>
    new StoreError({ message: storeFailureMessage(operation, failure) })

/**
 * In a handler: a store error is a fault, not an answer. It dies, and the
 * host logs it and answers 500 `internal` with the request id to quote;
 * the client never sees the database's message.
 */
export const storeDefect = (error: { readonly _tag: string; readonly message: string }): Effect.Effect<never> => Effect.die(error)
