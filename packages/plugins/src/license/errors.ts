import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a license read or write. */
export class LicenseStoreError extends Schema.TaggedError<LicenseStoreError>()("LicenseStoreError", storeErrorFields) {}

export const storeError = storeErrorMapper(LicenseStoreError)

/** No license server is configured (`LICENSE_SERVER_URL`): there is nothing to activate. */
export class CommunityEdition extends Schema.TaggedError<CommunityEdition>()("CommunityEdition", {
  message: Schema.String
}) {}

/** `DELETE /api/license` with no license activated. */
export class NoLicense extends Schema.TaggedError<NoLicense>()("NoLicense", { message: Schema.String }) {}

/** The license server answered the key with a refusal (4xx): `status` is its status, `message` its words (shortened). */
export class KeyRefused extends Schema.TaggedError<KeyRefused>()("KeyRefused", {
  status: Schema.Number,
  message: Schema.String
}) {}

/**
 * The license server could not be used: not reached, no answer in time
 * (`timeout`), an answer that is not what the protocol says, or a token
 * that does not verify (`reason: "token"`: forged, wrong key or algorithm,
 * another machine's, expired).
 */
export class LicenseServerFailed extends Schema.TaggedError<LicenseServerFailed>()("LicenseServerFailed", {
  reason: Schema.Literal("unreachable", "timeout", "bad-answer", "token"),
  message: Schema.String
}) {}

export type LicenseError = CommunityEdition | NoLicense | KeyRefused | LicenseServerFailed | LicenseStoreError
