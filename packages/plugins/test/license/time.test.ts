/**
 * The license over time, on the TestClock, with the plugin's own 6-hourly
 * refresh job against a fake license server: 7 days of grace while the
 * server cannot be reached, then read-only (gated reads run, writes are
 * 402); the license's own expiry; a failed payment (`past_due`, then
 * `lapsed`); a license the server withdraws; each back to `active` once
 * the server confirms it again.
 */
import { describe, expect, it } from "@effect/vitest"
import { adjustInSteps, call, eventually } from "@garrison/testkit"
import { Clock, Effect, TestClock } from "effect"
import { ADMIN, DAY, HOUR, licenseController, START, USER } from "./support.js"
import { type FakeLicenseServer, fakeLicenseServer } from "./fakeLicenseServer.js"

interface Status {
  readonly state: string
  readonly readOnly: boolean
  readonly graceEndsAt: string | null
  readonly lastAttemptAt: string | null
  readonly lastError: string | null
}

const iso = (ms: number) => new Date(ms).toISOString()

const status = Effect.map(call("GET", "/api/license", { as: ADMIN }), (reply) => reply.body as Status)

/** Moves the clock `by` in 6-hour steps (each step's refresh done before the next), then waits for the refresh at the end. */
const runFor = (by: number) =>
  Effect.gen(function* () {
    yield* adjustInSteps(by, 6 * HOUR)
    const at = iso(yield* Clock.currentTimeMillis)
    return yield* eventually(status, (body) => body.lastAttemptAt === at)
  })

const gatedWrite = call("POST", "/api/test-gated/reports", { as: USER })
const gatedRead = call("GET", "/api/test-gated/reports", { as: USER })

const withLicense = <A, E, R>(expiresIn: number, use: (fake: FakeLicenseServer) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(START)
    const fake = yield* fakeLicenseServer({ issuedAt: START, expiresAt: START + expiresIn })
    return yield* Effect.gen(function* () {
      const activated = yield* call("POST", "/api/license/activate", { as: ADMIN, json: { key: "KEY-1" } })
      expect(activated.status).toBe(200)
      return yield* use(fake)
    }).pipe(Effect.provide(licenseController({ LICENSE_SERVER_URL: fake.url, LICENSE_PUBLIC_KEY: fake.publicKeyPem })))
  })

describe("the license over time", () => {
  it.scoped("offline: 7 days of grace from the last check with every feature working, then read-only; active again once the server answers", () =>
    withLicense(30 * DAY, (fake) =>
      Effect.gen(function* () {
        // A healthy refresh after 6 hours: still active, checked then.
        const first = yield* runFor(6 * HOUR)
        expect(first).toMatchObject({ state: "active", lastError: null })
        fake.mode = "fail"
        const offline = yield* runFor(6 * HOUR)
        expect(offline).toMatchObject({ state: "grace", readOnly: false, graceEndsAt: iso(START + 6 * HOUR + 7 * DAY) })
        expect(offline.lastError).toContain("503")
        expect((yield* gatedWrite).status).toBe(200)

        // Up to the last refresh before the grace ends: still grace.
        const late = yield* runFor(7 * DAY - 12 * HOUR)
        expect(late).toMatchObject({ state: "grace", graceEndsAt: iso(START + 6 * HOUR + 7 * DAY) })
        expect((yield* gatedWrite).status).toBe(200)

        // At the end of the grace: lapsed, read-only. Reads run; writes are 402.
        const lapsed = yield* runFor(6 * HOUR)
        expect(lapsed).toMatchObject({ state: "lapsed", readOnly: true })
        expect((yield* gatedRead).status).toBe(200)
        const write = yield* gatedWrite
        expect(write.status).toBe(402)
        expect(write.body).toMatchObject({ error: "SUBSCRIPTION_INACTIVE", feature: "reports", status: "lapsed" })
        // A feature the license never had stays FEATURE_NOT_ENTITLED, reads too.
        expect((yield* call("GET", "/api/test-gated/fleet", { as: USER })).body).toMatchObject({ error: "FEATURE_NOT_ENTITLED" })

        fake.mode = "ok"
        const back = yield* runFor(6 * HOUR)
        expect(back).toMatchObject({ state: "active", readOnly: false, graceEndsAt: null, lastError: null })
        expect((yield* gatedWrite).status).toBe(200)
      })
    )
  )

  it.scoped("the license's own end: expired and read-only at its exp, whatever the refreshes; a renewed token makes it active", () =>
    withLicense(DAY, (fake) =>
      Effect.gen(function* () {
        expect(yield* runFor(18 * HOUR)).toMatchObject({ state: "active" })
        expect((yield* gatedWrite).status).toBe(200)
        const expired = yield* runFor(6 * HOUR)
        expect(expired).toMatchObject({ state: "expired", readOnly: true })
        expect((yield* gatedRead).status).toBe(200)
        const write = yield* gatedWrite
        expect(write.status).toBe(402)
        expect(write.body).toMatchObject({ error: "SUBSCRIPTION_INACTIVE", status: "expired" })
        expect((write.body as { message: string }).message).toContain("expired")

        fake.expiresAt = START + 60 * DAY
        expect(yield* runFor(6 * HOUR)).toMatchObject({ state: "active", readOnly: false })
        expect((yield* gatedWrite).status).toBe(200)
      })
    )
  )

  it.scoped("a failed payment: past_due with every feature working for 7 days from the first report, then lapsed", () =>
    withLicense(30 * DAY, (fake) =>
      Effect.gen(function* () {
        fake.mode = "past-due"
        const pastDue = yield* runFor(6 * HOUR)
        expect(pastDue).toMatchObject({ state: "past_due", readOnly: false, graceEndsAt: iso(START + 6 * HOUR + 7 * DAY) })
        expect((yield* gatedWrite).status).toBe(200)
        // The server's 402 to a refresh says the same; the grace still counts from the first report.
        fake.mode = "payment-failed"
        const declined = yield* runFor(6 * HOUR)
        expect(declined).toMatchObject({ state: "past_due", graceEndsAt: iso(START + 6 * HOUR + 7 * DAY) })
        expect(declined.lastError).toContain("card declined")

        const lapsed = yield* runFor(7 * DAY - 6 * HOUR)
        expect(lapsed).toMatchObject({ state: "lapsed", readOnly: true })
        expect((yield* gatedWrite).body).toMatchObject({ error: "SUBSCRIPTION_INACTIVE", status: "lapsed" })
        expect((yield* gatedRead).status).toBe(200)

        fake.mode = "ok"
        expect(yield* runFor(6 * HOUR)).toMatchObject({ state: "active", graceEndsAt: null })
        expect((yield* gatedWrite).status).toBe(200)
      })
    )
  )

  it.scoped("a license the server withdraws is lapsed at once (read-only), until the server confirms it again", () =>
    withLicense(30 * DAY, (fake) =>
      Effect.gen(function* () {
        fake.mode = "refuse"
        const withdrawn = yield* runFor(6 * HOUR)
        expect(withdrawn).toMatchObject({ state: "lapsed", readOnly: true })
        expect(withdrawn.lastError).toContain("withdrew")
        expect((yield* gatedWrite).status).toBe(402)
        expect((yield* gatedRead).status).toBe(200)
        fake.mode = "ok"
        expect(yield* runFor(6 * HOUR)).toMatchObject({ state: "active" })
      })
    )
  )

  it.scoped("a token the server signs with another key at a refresh proves nothing: counted as offline (grace)", () =>
    withLicense(30 * DAY, (fake) =>
      Effect.gen(function* () {
        fake.mode = "forge"
        const forged = yield* runFor(6 * HOUR)
        expect(forged).toMatchObject({ state: "grace", graceEndsAt: iso(START + 7 * DAY) })
        expect(forged.lastError).toContain("signature verification failed")
      })
    )
  )
})
