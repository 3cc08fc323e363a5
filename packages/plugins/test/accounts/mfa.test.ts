/**
 * MFA (TOTP, RFC 6238): the Appendix B vectors, enrolment with a secret and
 * an otpauth:// URI, login answering `mfa-required` without a code, ±1 step
 * accepted, a step never accepted twice, recovery codes used once, and
 * disabling with a code or the password.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Either, Option, TestClock } from "effect"
import { SqlClient } from "@effect/sql"
import { createCipheriv, randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { Secret } from "otpauth"
import { codeAt, matchStep } from "../../src/accounts/mfa/Totp.js"
import { keyIdOf, openWith, sealWith } from "@garrison/runtime"
import {
  accountsController,
  ADMIN,
  auditRecorder,
  call,
  login,
  type Session,
  signIn,
  signInAdmin,
  tempDataDir,
  totp
} from "./support.js"

/** What the MFA box wrote before SealedSecrets (its code at that release, kept here to produce old rows). */
const legacySeal = (key: Uint8Array, plaintext: string, owner: string): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(Buffer.from(owner))
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return ["v1", iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".")
}

describe("TOTP", () => {
  // RFC 6238 Appendix B: 8 digits, 30 s steps, the ASCII seeds below.
  const seeds = {
    SHA1: "12345678901234567890",
    SHA256: "12345678901234567890123456789012",
    SHA512: "1234567890123456789012345678901234567890123456789012345678901234"
  } as const
  const vectors: ReadonlyArray<readonly [number, string, string, string]> = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"]
  ]

  it("matches RFC 6238 Appendix B for SHA1, SHA256 and SHA512", () => {
    for (const [seconds, sha1, sha256, sha512] of vectors) {
      const at = (algorithm: keyof typeof seeds) =>
        codeAt(Secret.fromLatin1(seeds[algorithm]), seconds * 1000, { digits: 8, algorithm })
      expect([at("SHA1"), at("SHA256"), at("SHA512")]).toEqual([sha1, sha256, sha512])
    }
  })

  it("accepts the current step and one either side, only after the last used step", () => {
    const secret = new Secret({ size: 20 }).base32
    const now = 1_000_000 * 30_000
    const step = now / 30_000
    const code = (s: number) => totp(secret, s * 30_000)
    expect(matchStep(secret, code(step), now, null)).toEqual(Option.some(step))
    expect(matchStep(secret, code(step - 1), now, null)).toEqual(Option.some(step - 1))
    expect(matchStep(secret, code(step + 1), now, null)).toEqual(Option.some(step + 1))
    expect(matchStep(secret, code(step - 2), now, null)).toEqual(Option.none())
    expect(matchStep(secret, code(step + 2), now, null)).toEqual(Option.none())
    // The same step, or an earlier one, never twice.
    expect(matchStep(secret, code(step), now, step)).toEqual(Option.none())
    expect(matchStep(secret, code(step - 1), now, step)).toEqual(Option.none())
    expect(matchStep(secret, code(step + 1), now, step)).toEqual(Option.some(step + 1))
    expect(matchStep(secret, "12345", now, null)).toEqual(Option.none())
  })

  it("keeps secrets sealed to their owner", () => {
    const key = new Uint8Array(32).fill(7)
    const sealed = sealWith(key, "JBSWY3DPEHPK3PXP", "user-1")
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP")
    expect(sealed.startsWith(`sealed:v1:${keyIdOf(key)}:`)).toBe(true)
    expect(openWith(key, sealed, "user-1")).toEqual(Either.right("JBSWY3DPEHPK3PXP"))
    expect(openWith(key, sealed, "user-2")).toEqual(Either.left("tampered"))
    expect(openWith(new Uint8Array(32).fill(8), sealed, "user-1")).toEqual(Either.left("other-key"))
    expect(openWith(key, "JBSWY3DPEHPK3PXP", "user-1")).toEqual(Either.left("not-sealed"))
  })

  it("still opens secrets sealed by the MFA box before SealedSecrets existed (v1.<iv>.<body>.<tag>)", () => {
    const key = new Uint8Array(32).fill(7)
    const legacy = legacySeal(key, "JBSWY3DPEHPK3PXP", "user-1")
    expect(openWith(key, legacy, "user-1")).toEqual(Either.right("JBSWY3DPEHPK3PXP"))
    expect(openWith(key, legacy, "user-2")).toEqual(Either.left("tampered"))
  })
})

/** Enrols the admin: returns the secret and the recovery codes. */
const enrol = (session: Session) =>
  Effect.gen(function* () {
    const setup = yield* call("POST", "/api/auth/mfa/setup", { headers: session.browser })
    expect(setup.status).toBe(200)
    const { secret, uri } = setup.body as { secret: string; uri: string }
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(uri).toMatch(/^otpauth:\/\/totp\/Garrison:root\?/)
    expect(uri).toContain(`secret=${secret}`)
    const now = yield* Clock.currentTimeMillis
    const verify = yield* call("POST", "/api/auth/mfa/verify", { json: { code: totp(secret, now) }, headers: session.browser })
    expect(verify.status).toBe(200)
    const { enabled, recoveryCodes } = verify.body as { enabled: boolean; recoveryCodes: Array<string> }
    expect(enabled).toBe(true)
    expect(recoveryCodes).toHaveLength(10)
    expect(new Set(recoveryCodes).size).toBe(10)
    return { secret, recoveryCodes }
  })

const STEP = 30_000

describe("MFA", () => {
  it.scoped("setup, verify, then login needs the code: mfa-required without it; ±1 step accepted; a step never twice", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      // Start mid-step (a big jump would make the plugin's 10-minute jobs run for every interval skipped).
      yield* TestClock.adjust("10 seconds")
      const admin = yield* signInAdmin
      const { secret } = yield* enrol(admin)
      const start = yield* Clock.currentTimeMillis
      const codeAtStep = (offset: number) => totp(secret, start + offset * STEP)

      const noCode = yield* login(ADMIN.username, ADMIN.password)
      expect(noCode.status).toBe(401)
      expect(noCode.body).toMatchObject({ error: "mfa-required" })
      expect(noCode.setCookies).toEqual([])

      // A wrong password with MFA on is a plain 401: mfa-required only follows the right password.
      expect((yield* login(ADMIN.username, "wrong-password")).body).toMatchObject({ error: "unauthenticated" })

      // The code verify just used is spent.
      const replay = yield* login(ADMIN.username, ADMIN.password, { code: codeAtStep(0) })
      expect(replay.status).toBe(401)
      expect(replay.body).toMatchObject({ error: "unauthenticated" })

      // Two steps later: the previous step's code (-1) is accepted...
      yield* TestClock.adjust(2 * STEP)
      expect((yield* login(ADMIN.username, ADMIN.password, { code: codeAtStep(1) })).status).toBe(200)
      // ...and so is the next step's (+1),
      expect((yield* login(ADMIN.username, ADMIN.password, { code: codeAtStep(3) })).status).toBe(200)
      // but not a second time, nor an earlier step after it, nor two steps ahead.
      expect((yield* login(ADMIN.username, ADMIN.password, { code: codeAtStep(3) })).status).toBe(401)
      expect((yield* login(ADMIN.username, ADMIN.password, { code: codeAtStep(2) })).status).toBe(401)
      yield* TestClock.adjust(2 * STEP)
      expect((yield* login(ADMIN.username, ADMIN.password, { code: codeAtStep(6) })).status).toBe(401)
      // The current step's code works once.
      expect((yield* login(ADMIN.username, ADMIN.password, { code: codeAtStep(4) })).status).toBe(200)

      const actions = audit.rows.map((r) => `${r.action}:${r.result}`)
      expect(actions).toEqual(expect.arrayContaining(["auth.mfa.setup:success", "auth.mfa.enable:success"]))
      expect(JSON.stringify(audit.rows)).not.toContain(secret)
    }).pipe(Effect.provide(accountsController({ audit })))
  })

  it.scoped("a user enrolled before SealedSecrets (legacy ciphertext in the row) still signs in with a code", () => {
    const dataDir = tempDataDir()
    return Effect.gen(function* () {
      yield* TestClock.adjust("10 seconds")
      const { secret } = yield* enrol(yield* signInAdmin)
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ id: string; mfa_secret: string }>`SELECT id, mfa_secret FROM accounts_users WHERE username = ${ADMIN.username}`
      expect(row?.mfa_secret.startsWith("sealed:v1:")).toBe(true)
      const key = Buffer.from(Fs.readFileSync(NodePath.join(dataDir, "secrets", "accounts-mfa-key.key"), "utf8").trim(), "base64url")
      yield* sql`UPDATE accounts_users SET mfa_secret = ${legacySeal(key, secret, row?.id ?? "")} WHERE id = ${row?.id ?? ""}`
      yield* TestClock.adjust(2 * STEP)
      const now = yield* Clock.currentTimeMillis
      expect((yield* login(ADMIN.username, ADMIN.password, { code: totp(secret, now) })).status).toBe(200)
    }).pipe(Effect.provide(accountsController({ dataDir })))
  })

  it.scoped("recovery codes sign in once each", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const { recoveryCodes } = yield* enrol(admin)
      const [first, second] = recoveryCodes as [string, string]
      expect((yield* login(ADMIN.username, ADMIN.password, { code: first })).status).toBe(200)
      expect((yield* login(ADMIN.username, ADMIN.password, { code: first })).status).toBe(401)
      expect((yield* login(ADMIN.username, ADMIN.password, { code: second.toUpperCase() })).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("verify needs a pending setup and a valid code; setup while on is 409", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const early = yield* call("POST", "/api/auth/mfa/verify", { json: { code: "123456" }, headers: admin.browser })
      expect(early.status).toBe(409)
      const setup = yield* call("POST", "/api/auth/mfa/setup", { headers: admin.browser })
      const { secret } = setup.body as { secret: string }
      const now = yield* Clock.currentTimeMillis
      const wrongCode = totp(secret, now + 10 * STEP)
      const wrong = yield* call("POST", "/api/auth/mfa/verify", { json: { code: wrongCode }, headers: admin.browser })
      expect(wrong.status).toBe(403)
      // Still off: login needs no code.
      expect((yield* login(ADMIN.username, ADMIN.password)).status).toBe(200)
      yield* enrol(admin)
      expect((yield* call("POST", "/api/auth/mfa/setup", { headers: admin.browser })).status).toBe(409)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("disable needs a current code or the password; after it, login needs no code", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      const admin = yield* signInAdmin
      const { secret } = yield* enrol(admin)
      const start = yield* Clock.currentTimeMillis

      const nothing = yield* call("POST", "/api/auth/mfa/disable", { json: {}, headers: admin.browser })
      expect(nothing.status).toBe(403)
      const badPassword = yield* call("POST", "/api/auth/mfa/disable", { json: { password: "nope-nope" }, headers: admin.browser })
      expect(badPassword.status).toBe(403)
      // The enrolment's own code is spent.
      const spent = yield* call("POST", "/api/auth/mfa/disable", { json: { code: totp(secret, start) }, headers: admin.browser })
      expect(spent.status).toBe(403)

      yield* TestClock.adjust(STEP)
      const byCode = yield* call("POST", "/api/auth/mfa/disable", { json: { code: totp(secret, start + STEP) }, headers: admin.browser })
      expect(byCode.status).toBe(200)
      expect(byCode.body).toEqual({ enabled: false })
      expect((yield* login(ADMIN.username, ADMIN.password)).status).toBe(200)
      expect((yield* call("POST", "/api/auth/mfa/disable", { json: { password: ADMIN.password }, headers: admin.browser })).status).toBe(409)

      // On again, off by password.
      yield* enrol(admin)
      const byPassword = yield* call("POST", "/api/auth/mfa/disable", { json: { password: ADMIN.password }, headers: admin.browser })
      expect(byPassword.status).toBe(200)
      expect((yield* login(ADMIN.username, ADMIN.password)).status).toBe(200)

      const disables = audit.rows.filter((r) => r.action === "auth.mfa.disable").map((r) => r.result)
      expect(disables).toEqual(["failure", "failure", "failure", "success", "failure", "success"])
    }).pipe(Effect.provide(accountsController({ audit })))
  })

  it.scoped("an admin can turn a user's MFA off (lost device), never on", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* enrol(admin)
      const other = yield* call("POST", "/api/users", {
        json: { username: "helper", password: "willow-anvil-quartet-83", role: "admin", mustChangePassword: false },
        headers: admin.bearer
      })
      const helper = yield* signIn("helper", "willow-anvil-quartet-83")
      const off = yield* call("PATCH", `/api/users/${admin.userId}`, { json: { mfaEnabled: false }, headers: helper.bearer })
      expect(off.status).toBe(200)
      expect(off.body).toMatchObject({ mfaEnabled: false })
      expect((yield* login(ADMIN.username, ADMIN.password)).status).toBe(200)
      const on = yield* call("PATCH", `/api/users/${(other.body as { id: string }).id}`, { json: { mfaEnabled: true }, headers: admin.bearer })
      expect(on.status).toBe(400)
    }).pipe(Effect.provide(accountsController())))
})
