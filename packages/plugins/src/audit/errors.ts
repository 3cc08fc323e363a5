import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused an audit read or write. */
export class AuditStoreError extends Schema.TaggedError<AuditStoreError>()("AuditStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(AuditStoreError)
