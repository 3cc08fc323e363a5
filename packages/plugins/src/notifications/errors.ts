import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a notifications read or write. */
export class NotificationStoreError extends Schema.TaggedError<NotificationStoreError>()("NotificationStoreError", storeErrorFields) {}

/** A publisher sent something `NewNotification` rejects, or named a permission nobody declares. */
export class InvalidNotification extends Schema.TaggedError<InvalidNotification>()("InvalidNotification", {
  message: Schema.String
}) {}

export const storeError = storeErrorMapper(NotificationStoreError)
