import * as Schema from "effect/Schema"

/** The database refused a notifications read or write. */
export class NotificationStoreError extends Schema.TaggedError<NotificationStoreError>()("NotificationStoreError", {
  message: Schema.String
}) {}

/** A publisher sent something `NewNotification` rejects, or named a permission nobody declares. */
export class InvalidNotification extends Schema.TaggedError<InvalidNotification>()("InvalidNotification", {
  message: Schema.String
}) {}

/** A `cursor` this plugin did not issue. */
export class InvalidNotificationCursor extends Schema.TaggedError<InvalidNotificationCursor>()(
  "InvalidNotificationCursor",
  { cursor: Schema.String }
) {}

export const storeError = (operation: string) => (error: { readonly message: string; readonly cause?: unknown }) =>
  new NotificationStoreError({
    message: `${operation}: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}`
  })
