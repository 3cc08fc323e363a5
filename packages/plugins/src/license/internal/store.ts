/**
 * The license at rest: the one row of `license_state`, the key and the
 * token sealed. A row read back is opened and its token verified again; one
 * that cannot be trusted is dropped (logged), as if no license were stored.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Option from "effect/Option"
import type { SealedBox } from "@garrison/runtime"
import { storeError } from "../errors.js"
import { verifyToken, type VerifyingKey } from "./server.js"
import type { StoredLicense } from "./state.js"
import { verifyingKeyForStored } from "./verifyingKey.js"
import { isoOf, isoOrNull } from "@garrison/runtime"

const msOrNull = (text: string | null) => (text === null ? null : Date.parse(text))

export interface LicenseRow {
  readonly license_key: string
  readonly token: string
  readonly pinned_key: string | null
  readonly activated_at: string
  readonly activated_by: string | null
  readonly checked_at: string
  readonly last_attempt_at: string | null
  readonly last_error: string | null
  readonly offline: number | string
  readonly past_due_since: string | null
  readonly revoked_at: string | null
}

/** The stored row (none or one). */
export const readLicenseRows = (sql: SqlClient.SqlClient) =>
  sql<LicenseRow>`SELECT license_key, token, pinned_key, activated_at, activated_by, checked_at, last_attempt_at,
      last_error, offline, past_due_since, revoked_at FROM license_state WHERE id = 1`.pipe(Effect.mapError(storeError("read the license")))

/** The stored license as it reads back, verified again, or undefined (logged) when it cannot be trusted. */
export const openLicenseRow = (
  row: LicenseRow,
  box: SealedBox,
  configuredKey: Option.Option<VerifyingKey>,
  machineId: string
) =>
  Effect.gen(function* () {
    const key = box.open(row.license_key, "license/license_key")
    const token = box.open(row.token, "license/token")
    if (Either.isLeft(key) || Either.isLeft(token)) {
      return yield* Effect.as(Effect.logError("license: the stored license does not open (its key file changed?): activate it again"), undefined)
    }
    const verifying = yield* verifyingKeyForStored(configuredKey, row.pinned_key)
    if (Either.isLeft(verifying)) {
      return yield* Effect.as(Effect.logError(`license: the stored license cannot be checked (${verifying.left}): activate it again`), undefined)
    }
    const now = yield* Clock.currentTimeMillis
    const claims = yield* Effect.either(verifyToken(token.right, verifying.right, machineId, now, { atIssue: true }))
    if (Either.isLeft(claims)) {
      return yield* Effect.as(
        Effect.logError(`license: the stored license does not verify (${claims.left.message}); LICENSE_PUBLIC_KEY changed? activate it again`),
        undefined
      )
    }
    const license: StoredLicense = {
      key: key.right,
      token: token.right,
      claims: claims.right,
      pinnedKey: row.pinned_key,
      activatedAt: Date.parse(row.activated_at),
      activatedBy: row.activated_by,
      checkedAt: Date.parse(row.checked_at),
      lastAttemptAt: msOrNull(row.last_attempt_at),
      lastError: row.last_error,
      offline: Number(row.offline) !== 0,
      pastDueSince: msOrNull(row.past_due_since),
      revokedAt: msOrNull(row.revoked_at)
    }
    return { license, verifying: verifying.right }
  })

/** Writes the license, sealed, over the stored one. */
export const saveLicense = (sql: SqlClient.SqlClient, box: SealedBox, license: StoredLicense) =>
  sql`INSERT INTO license_state (id, license_key, token, pinned_key, activated_at, activated_by, checked_at, last_attempt_at,
        last_error, offline, past_due_since, revoked_at)
      VALUES (1, ${box.seal(license.key, "license/license_key")}, ${box.seal(license.token, "license/token")}, ${license.pinnedKey},
        ${isoOf(license.activatedAt)}, ${license.activatedBy}, ${isoOf(license.checkedAt)}, ${isoOrNull(license.lastAttemptAt)},
        ${license.lastError}, ${license.offline ? 1 : 0}, ${isoOrNull(license.pastDueSince)}, ${isoOrNull(license.revokedAt)})
      ON CONFLICT (id) DO UPDATE SET license_key = excluded.license_key, token = excluded.token, pinned_key = excluded.pinned_key,
        activated_at = excluded.activated_at, activated_by = excluded.activated_by, checked_at = excluded.checked_at,
        last_attempt_at = excluded.last_attempt_at, last_error = excluded.last_error, offline = excluded.offline,
        past_due_since = excluded.past_due_since, revoked_at = excluded.revoked_at`

export const deleteLicense = (sql: SqlClient.SqlClient) => sql`DELETE FROM license_state WHERE id = 1`
