import * as Schema from "effect/Schema"

/** The database refused an audit read or write. */
export class AuditStoreError extends Schema.TaggedError<AuditStoreError>()("AuditStoreError", {
  message: Schema.String
}) {}

/** A `cursor` this plugin did not issue. */
export class InvalidAuditCursor extends Schema.TaggedError<InvalidAuditCursor>()("InvalidAuditCursor", {
  cursor: Schema.String
}) {}

export const storeError = (operation: string) => (error: { readonly message: string; readonly cause?: unknown }) =>
  new AuditStoreError({
    message: `${operation}: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}`
  })
