/**
 * Why a backup, restore, download or backup setting was refused, in the
 * domain's words; the routes map them to statuses in one function
 * (`routes.ts`), and the hooks that make a backup before an update see
 * their message.
 */
import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** No such backup of this server (404). */
export class BackupNotFound extends Schema.TaggedError<BackupNotFound>()("BackupNotFound", {
  message: Schema.String
}) {}

/** A field of the request is wrong: `type`, `cursor`, `paths[i]` (400 naming it). */
export class BackupInputRefused extends Schema.TaggedError<BackupInputRefused>()("BackupInputRefused", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The server or the backup cannot take it now, or the zip cannot be used: what stands in the way is said (409). */
export class BackupConflict extends Schema.TaggedError<BackupConflict>()("BackupConflict", {
  message: Schema.String
}) {}

export type BackupsError = BackupNotFound | BackupInputRefused | BackupConflict

/** The database refused a read or write of the backup settings: a fault, answered 500 with a request id (`storeDefect`). */
export class BackupStoreError extends Schema.TaggedError<BackupStoreError>()("BackupStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(BackupStoreError)
