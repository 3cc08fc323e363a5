/**
 * `reset-admin`'s work (`resetAdminPassword`), in-process against the real
 * accounts plugin: a new one-time password that must be changed, the
 * admin's sessions ended, their lockouts lifted, MFA kept unless asked, an
 * audit row; refusals that name what exists. The command itself is run as a
 * real process in test/e2e/first-start.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { resetAdminPassword } from "../../src/accounts/index.js"
import { accountsController, ADMIN, auditRecorder, call, createUser, freshIp, login, signInAdmin, totp } from "./support.js"

const WRONG = "not the password at all"

/** Turns MFA on for a signed-in admin; returns the TOTP secret. */
const enrolMfa = (browser: Readonly<Record<string, string>>) =>
  Effect.gen(function* () {
    const setup = yield* call("POST", "/api/auth/mfa/setup", { headers: browser })
    const { secret } = setup.body as { secret: string }
    const verify = yield* call("POST", "/api/auth/mfa/verify", { json: { code: totp(secret, Date.now()) }, headers: browser })
    expect(verify.status, JSON.stringify(verify.body)).toBe(200)
    return secret
  })

describe("resetAdminPassword", () => {
  it.live("sets a one-time password, ends sessions, lifts lockouts, keeps MFA unless asked; each reset is audited", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* enrolMfa(admin.browser)

      // Locked out from one address.
      const ip = freshIp()
      for (let i = 0; i < 5; i++) yield* login(ADMIN.username, WRONG, { ip })
      expect((yield* login(ADMIN.username, WRONG, { ip })).status).toBe(429)

      const kept = yield* resetAdminPassword(undefined)
      expect(kept).toMatchObject({ username: ADMIN.username, mfaTurnedOff: false })
      expect(kept.password).toMatch(/^[A-Za-z0-9]{24}$/)
      // The session is over; the old password is refused; the lock is gone; MFA still asks for its code.
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(401)
      expect((yield* login(ADMIN.username, ADMIN.password, { ip: freshIp() })).status).toBe(401)
      const withoutCode = yield* login(ADMIN.username, kept.password, { ip })
      expect(withoutCode.status).toBe(401)
      expect(withoutCode.body).toMatchObject({ error: "mfa-required" })

      const off = yield* resetAdminPassword(ADMIN.username.toUpperCase(), { turnMfaOff: true })
      expect(off.mfaTurnedOff).toBe(true)
      const signedIn = yield* login(ADMIN.username, off.password, { ip })
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
      expect(signedIn.body).toMatchObject({ user: { username: ADMIN.username, mustChangePassword: true } })

      const resets = audit.rows.filter((row) => row.action === "auth.password-reset")
      expect(resets).toEqual([
        expect.objectContaining({ actor: null, target: ADMIN.username, result: "success", details: { via: "reset-admin command", mfaTurnedOff: false } }),
        expect.objectContaining({ actor: null, target: ADMIN.username, result: "success", details: { via: "reset-admin command", mfaTurnedOff: true } })
      ])
    }).pipe(Effect.provide(accountsController({ audit })))
  }, 60_000)

  it.live("refuses, naming what exists: an unknown user, a user who is not an admin, no name with several admins", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* createUser(admin, { username: "moddy", password: "moderator password 1", role: "moderator" })

      const unknown = yield* Effect.either(resetAdminPassword("nobody"))
      expect(Either.isLeft(unknown) && unknown.left.message).toBe(`no user "nobody"; admins: ${ADMIN.username}`)
      const notAdmin = yield* Effect.either(resetAdminPassword("moddy"))
      expect(Either.isLeft(notAdmin) && notAdmin.left.message).toBe('"moddy" is not an admin; an admin can set their password with PATCH /api/users/:id')

      yield* createUser(admin, { username: "second", password: "another admin passphrase", role: "admin" })
      const unnamed = yield* Effect.either(resetAdminPassword(undefined))
      expect(Either.isLeft(unnamed) && unnamed.left.message).toBe(`there are 2 admins (${ADMIN.username}, second): name the one to reset`)
      // Nothing changed: the admin still signs in with their own password.
      expect((yield* login(ADMIN.username, ADMIN.password, { ip: freshIp() })).status).toBe(200)
    }).pipe(Effect.provide(accountsController())), 60_000)
})
