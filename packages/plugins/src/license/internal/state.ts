/**
 * The license's state at an instant, and what the gate answers, as plain
 * functions of what is stored and the time (the plugin reads the time from
 * `Clock`, so tests drive it with `TestClock`). README.md says the same in
 * words; keep the two together.
 */
import type { LicenseRefusal } from "@garrison/runtime"
import * as Duration from "effect/Duration"
import { GRACE_PERIOD, OFFLINE_AFTER } from "../config.js"
import type { LicenseState } from "../contract/Api.js"

/** The claims of a verified token. */
export interface LicenseClaims {
  readonly licenseId: string
  readonly tier: string
  readonly holder: string | null
  readonly entitlements: ReadonlyArray<string>
  /** Epoch milliseconds. */
  readonly issuedAt: number
  /** Epoch milliseconds: the license's own end. */
  readonly expiresAt: number
  readonly standing: "good" | "past_due"
}

/** The activated license as kept in memory (the key and token in clear; sealed at rest). */
export interface StoredLicense {
  readonly key: string
  readonly token: string
  readonly claims: LicenseClaims
  /** The pinned public key (a JWK as JSON text), or null when the configured one is used. */
  readonly pinnedKey: string | null
  readonly activatedAt: number
  readonly activatedBy: string | null
  /** The last time the server answered about this license (activation, a refresh answered with a token or a refusal). */
  readonly checkedAt: number
  readonly lastAttemptAt: number | null
  /** Why the last refresh did not reach the server (or its token did not verify); null after one that did. */
  readonly lastError: string | null
  /** The last refresh did not reach the server. */
  readonly offline: boolean
  /** Since when the server says a payment failed; null while it is paid. */
  readonly pastDueSince: number | null
  /** When the server withdrew the license (a refresh answered 403, 404 or 410); null otherwise. */
  readonly revokedAt: number | null
}

export interface Standing {
  readonly state: LicenseState
  /** When the grace ends (`grace`, `past_due`; for `lapsed` after a grace, when it ended). */
  readonly graceEndsAt: number | null
}

const graceMs = Duration.toMillis(GRACE_PERIOD)
const offlineAfterMs = Duration.toMillis(OFFLINE_AFTER)

/** Whether the license counts as offline at `now`: the last refresh failed, or no check succeeded for `OFFLINE_AFTER`. */
export const isOffline = (license: StoredLicense, now: number): boolean => license.offline || now >= license.checkedAt + offlineAfterMs

/**
 * The state, in this order: `unactivated` (nothing stored), `expired` (at
 * or past the token's `exp`), `lapsed` (withdrawn by the server), then the
 * graces: while a payment failed (7 days from the first time the server
 * said so) and while offline (7 days from the last check), whichever ends
 * first: before its end `past_due` (a failed payment) or `grace`, after it
 * `lapsed`; else `active`.
 */
export const standingAt = (license: StoredLicense | undefined, now: number): Standing => {
  if (license === undefined) return { state: "unactivated", graceEndsAt: null }
  if (now >= license.claims.expiresAt) return { state: "expired", graceEndsAt: null }
  if (license.revokedAt !== null) return { state: "lapsed", graceEndsAt: null }
  const ends: Array<number> = []
  if (license.pastDueSince !== null) ends.push(license.pastDueSince + graceMs)
  if (isOffline(license, now)) ends.push(license.checkedAt + graceMs)
  if (ends.length === 0) return { state: "active", graceEndsAt: null }
  const graceEndsAt = Math.min(...ends)
  if (now >= graceEndsAt) return { state: "lapsed", graceEndsAt }
  return { state: license.pastDueSince !== null ? "past_due" : "grace", graceEndsAt }
}

/** Whether licensed features only read in this state. */
export const readOnlyIn = (state: LicenseState): boolean => state === "lapsed" || state === "expired"

export const entitledTo = (claims: LicenseClaims, feature: string): boolean =>
  claims.entitlements.includes(feature) || claims.entitlements.includes("*")

/**
 * What the gate answers for a route of `feature` (undefined: it may run).
 * `configured`: a license server is set (else the community edition, where
 * nothing is gated).
 */
export const gateVerdict = (
  configured: boolean,
  license: StoredLicense | undefined,
  now: number,
  feature: string,
  write: boolean
): LicenseRefusal | undefined => {
  if (!configured) return undefined
  const { state } = standingAt(license, now)
  if (license === undefined || state === "unactivated") {
    return {
      error: "SUBSCRIPTION_INACTIVE",
      message: `"${feature}" is a licensed feature and no license is activated: an admin activates one (POST /api/license/activate)`,
      feature,
      status: state
    }
  }
  if (!entitledTo(license.claims, feature)) {
    return {
      error: "FEATURE_NOT_ENTITLED",
      message: `the license (tier "${license.claims.tier}") does not include the feature "${feature}"`,
      feature,
      status: state
    }
  }
  if (write && readOnlyIn(state)) {
    return {
      error: "SUBSCRIPTION_INACTIVE",
      message:
        state === "expired"
          ? `the license expired on ${new Date(license.claims.expiresAt).toISOString()}: "${feature}" is read-only until it is renewed`
          : `the license has lapsed: "${feature}" is read-only until the license server confirms it again`,
      feature,
      status: state
    }
  }
  return undefined
}

/** The state in a sentence for `GET /api/license`. */
export const describeStanding = (configured: boolean, license: StoredLicense | undefined, standing: Standing): string => {
  if (!configured) return "community edition: no license server is configured (LICENSE_SERVER_URL), so no feature is gated"
  const at = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString())
  switch (standing.state) {
    case "unactivated":
      return "no license is activated: licensed features answer 402 until an admin activates one"
    case "active":
      return `license active until ${at(license?.claims.expiresAt ?? null)}`
    case "grace":
      return `the license server could not be reached: licensed features keep working until ${at(standing.graceEndsAt)}, then only read`
    case "past_due":
      return `the license server reports a failed payment: licensed features keep working until ${at(standing.graceEndsAt)}, then only read`
    case "lapsed":
      return license?.revokedAt !== null && license?.revokedAt !== undefined
        ? "the license server withdrew the license: licensed features only read"
        : `the grace ended at ${at(standing.graceEndsAt)}: licensed features only read until the license server confirms the license again`
    case "expired":
      return `the license expired at ${at(license?.claims.expiresAt ?? null)}: licensed features only read until it is renewed`
  }
}
