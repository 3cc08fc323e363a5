import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a cloud link read or write. */
export class CloudStoreError extends Schema.TaggedError<CloudStoreError>()("CloudStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(CloudStoreError)

/** No relay is configured (`CLOUD_RELAY_URL`): the link cannot be enabled. */
export class NoRelay extends Schema.TaggedError<NoRelay>()("NoRelay", { message: Schema.String }) {}

/** The enable names a role the link may not act with (unknown, or granting `admin`): a 400 naming `field`. */
export class LinkRoleRefused extends Schema.TaggedError<LinkRoleRefused>()("LinkRoleRefused", {
  field: Schema.String,
  message: Schema.String
}) {}

/** A disconnect or reconnect of a server the link does not mirror. */
export class NotMirrored extends Schema.TaggedError<NotMirrored>()("NotMirrored", {
  serverId: Schema.String,
  message: Schema.String
}) {}

export type CloudError = CloudStoreError | NoRelay | LinkRoleRefused | NotMirrored
