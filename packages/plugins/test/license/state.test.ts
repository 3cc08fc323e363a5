/**
 * The license's states as functions of what is stored and the time
 * (README.md, "States"), at their edges, and what the gate answers in each.
 */
import { describe, expect, it } from "@effect/vitest"
import { licenseGateVerdict as gateVerdict, licenseStandingAt as standingAt, type StoredLicense } from "../../src/license/index.js"
import { DAY, HOUR, START } from "./support.js"

const license = (change: Partial<StoredLicense> = {}): StoredLicense => ({
  key: "k",
  token: "t",
  claims: {
    licenseId: "lic-1",
    tier: "pro",
    holder: null,
    entitlements: ["reports"],
    issuedAt: START,
    expiresAt: START + 30 * DAY,
    standing: "good"
  },
  pinnedKey: null,
  activatedAt: START,
  activatedBy: "root",
  checkedAt: START,
  lastAttemptAt: START,
  lastError: null,
  offline: false,
  pastDueSince: null,
  revokedAt: null,
  ...change
})

describe("license states", () => {
  it("unactivated without a license; active after a check until one is missed by 12 hours (a stopped controller), then grace", () => {
    expect(standingAt(undefined, START)).toEqual({ state: "unactivated", graceEndsAt: null })
    expect(standingAt(license(), START + 12 * HOUR - 1).state).toBe("active")
    expect(standingAt(license(), START + 12 * HOUR)).toEqual({ state: "grace", graceEndsAt: START + 7 * DAY })
  })

  it("grace after a failed refresh until 7 days after the last check, then lapsed", () => {
    const offline = license({ offline: true })
    expect(standingAt(offline, START + HOUR)).toEqual({ state: "grace", graceEndsAt: START + 7 * DAY })
    expect(standingAt(offline, START + 7 * DAY - 1).state).toBe("grace")
    expect(standingAt(offline, START + 7 * DAY)).toEqual({ state: "lapsed", graceEndsAt: START + 7 * DAY })
  })

  it("past_due for 7 days from the first report; offline at once, the earlier end wins", () => {
    const pastDue = license({ pastDueSince: START + DAY, checkedAt: START + DAY })
    expect(standingAt(pastDue, START + 2 * DAY)).toEqual({ state: "past_due", graceEndsAt: START + 8 * DAY })
    expect(standingAt(pastDue, START + 8 * DAY).state).toBe("lapsed")
    const both = license({ pastDueSince: START + 3 * DAY, offline: true })
    expect(standingAt(both, START + 4 * DAY)).toEqual({ state: "past_due", graceEndsAt: START + 7 * DAY })
  })

  it("expired at exp, before anything else; lapsed when withdrawn", () => {
    expect(standingAt(license(), START + 30 * DAY).state).toBe("expired")
    expect(standingAt(license({ revokedAt: START + DAY, offline: true }), START + 30 * DAY).state).toBe("expired")
    expect(standingAt(license({ revokedAt: START + DAY }), START + 2 * DAY).state).toBe("lapsed")
  })
})

describe("the gate", () => {
  it("lets everything through in the community edition", () => {
    expect(gateVerdict(false, undefined, START, "reports", true)).toBeUndefined()
  })

  it("refuses every route without a license, features not included always, and writes only once read-only", () => {
    expect(gateVerdict(true, undefined, START, "reports", false)).toMatchObject({ error: "SUBSCRIPTION_INACTIVE", status: "unactivated" })
    expect(gateVerdict(true, license(), START, "reports", true)).toBeUndefined()
    expect(gateVerdict(true, license(), START, "fleet-sync", false)).toMatchObject({ error: "FEATURE_NOT_ENTITLED", feature: "fleet-sync" })
    const lapsed = license({ offline: true })
    expect(gateVerdict(true, lapsed, START + 6 * DAY, "reports", true)).toBeUndefined()
    expect(gateVerdict(true, lapsed, START + 7 * DAY, "reports", false)).toBeUndefined()
    expect(gateVerdict(true, lapsed, START + 7 * DAY, "reports", true)).toMatchObject({ error: "SUBSCRIPTION_INACTIVE", status: "lapsed" })
  })

  it("takes `*` as every feature", () => {
    const all = license({ claims: { ...license().claims, entitlements: ["*"] } })
    expect(gateVerdict(true, all, START, "anything.at-all", true)).toBeUndefined()
  })
})
