/**
 * Login lockout, exactly the spec's schedule, driven by TestClock: 5
 * failures for one (IP, username) within 10 minutes lock the pair for 60 s,
 * then 5 min, then 1 h for each later lock; success clears; other IPs are
 * unaffected; a locked attempt is 429 with Retry-After even with the right
 * password; every lock is an audit row; a restart does not reset it.
 *
 * The gate allows 15 requests per 15 minutes per IP on /api/auth/*, so the
 * clock is also moved to let old requests leave that window.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { accountsController, auditRecorder, call, createUser, freshIp, login, type Reply, signInAdmin, tempDataDir } from "./support.js"

const USER = { username: "lock-me", password: "the-right-password" }

const wrong = (ip: string) => login(USER.username, "a-wrong-password", { ip })
const right = (ip: string) => login(USER.username, USER.password, { ip })

const expectLocked = (reply: Reply, retryAfter: number) => {
  expect(reply.status).toBe(429)
  expect(reply.headers["retry-after"]).toBe(String(retryAfter))
  expect(reply.body).toMatchObject({ error: "rate-limited" })
  expect(reply.setCookies).toEqual([])
}

/** Four plain failures, then the fifth locks. */
const fiveFailures = (ip: string, lockSeconds: number) =>
  Effect.gen(function* () {
    for (let i = 0; i < 4; i++) expect((yield* wrong(ip)).status).toBe(401)
    expectLocked(yield* wrong(ip), lockSeconds)
  })

const withUser = Effect.gen(function* () {
  const admin = yield* signInAdmin
  yield* createUser(admin, { ...USER, role: "moderator" })
})

describe("login lockout", () => {
  it.scoped("locks 60 s, then 5 min, then 1 h for each later lock; a locked attempt is 429 even with the right password", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      yield* withUser
      const ip = freshIp()

      // First lock: 60 s.
      yield* fiveFailures(ip, 60)
      expectLocked(yield* right(ip), 60)
      yield* TestClock.adjust("59 seconds")
      expectLocked(yield* right(ip), 1)
      yield* TestClock.adjust("1 second")

      // Second lock: 5 min (no success in between, so the count goes on).
      yield* fiveFailures(ip, 300)
      yield* TestClock.adjust("299 seconds")
      expectLocked(yield* right(ip), 1)
      yield* TestClock.adjust("1 second")

      // Let the gate's 15-minute window drain before the next burst.
      yield* TestClock.adjust("10 minutes")
      // Third lock: 1 h.
      yield* fiveFailures(ip, 3600)
      expectLocked(yield* right(ip), 3600)
      yield* TestClock.adjust("1 hour")

      // Fourth and later: 1 h each.
      yield* fiveFailures(ip, 3600)
      yield* TestClock.adjust("1 hour")

      // Success clears the counter: the next lock is 60 s again.
      expect((yield* right(ip)).status).toBe(200)
      yield* fiveFailures(ip, 60)

      const locks = audit.rows.filter((r) => r.action === "auth.lockout")
      expect(locks.map((r) => r.details?.["lockedForSeconds"])).toEqual([60, 300, 3600, 3600, 60])
      expect(locks.every((r) => r.ip === ip && r.target === USER.username && r.result === "denied")).toBe(true)
      expect(audit.rows.filter((r) => r.action === "auth.login" && r.details?.["reason"] === "locked-out").length).toBe(4)
    }).pipe(Effect.provide(accountsController({ audit })))
  }, 60_000)

  it.scoped("failures from another IP do not lock this IP; the lock is per (IP, username)", () =>
    Effect.gen(function* () {
      yield* withUser
      const attacker = freshIp()
      const owner = freshIp()
      yield* fiveFailures(attacker, 60)
      expectLocked(yield* right(attacker), 60)
      // The owner, from their own address, signs in.
      expect((yield* right(owner)).status).toBe(200)
      // The attacker's pair stays locked (the owner's success cleared only the owner's pair).
      expectLocked(yield* right(attacker), 60)
      // Another username from the attacker's IP is not locked either.
      expect((yield* login("root", "correct horse battery staple", { ip: attacker })).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("only failures within 10 minutes count; success clears them", () =>
    Effect.gen(function* () {
      yield* withUser
      const ip = freshIp()
      for (let i = 0; i < 4; i++) expect((yield* wrong(ip)).status).toBe(401)
      yield* TestClock.adjust("10 minutes")
      // The four are outside the window now: one more is not the fifth.
      expect((yield* wrong(ip)).status).toBe(401)
      yield* TestClock.adjust("5 minutes")
      for (let i = 0; i < 3; i++) expect((yield* wrong(ip)).status).toBe(401)
      // Four in the window; a success clears them, so four more do not lock.
      expect((yield* right(ip)).status).toBe(200)
      yield* TestClock.adjust("15 minutes")
      for (let i = 0; i < 4; i++) expect((yield* wrong(ip)).status).toBe(401)
      expect((yield* right(ip)).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("unknown usernames lock the same way (no hint which names exist)", () =>
    Effect.gen(function* () {
      const ip = freshIp()
      for (let i = 0; i < 4; i++) expect((yield* login("ghost", "whatever-1", { ip })).status).toBe(401)
      expectLocked(yield* login("ghost", "whatever-1", { ip }), 60)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("MFA-disable and password-change confirmations count towards the same lockout", () =>
    Effect.gen(function* () {
      yield* withUser
      const ip = freshIp()
      const session = yield* login(USER.username, USER.password, { ip })
      const headers = { authorization: `Bearer ${(session.body as { token: string }).token}`, "x-forwarded-for": ip }
      for (let i = 0; i < 4; i++) {
        const reply = yield* call("POST", "/api/auth/change-password-forced", {
          json: { currentPassword: "not-it-at-all", newPassword: "a-new-password" },
          headers
        })
        expect(reply.status).toBe(403)
      }
      expectLocked(yield* wrong(ip), 60)
      const locked = yield* call("POST", "/api/auth/change-password-forced", {
        json: { currentPassword: USER.password, newPassword: "a-new-password" },
        headers
      })
      expectLocked(locked, 60)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("is persisted: a restart does not reset it", () => {
    const dataDir = tempDataDir()
    const ip = freshIp()
    return Effect.gen(function* () {
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* withUser
          yield* fiveFailures(ip, 60)
        }).pipe(Effect.provide(accountsController({ dataDir })))
      )
      yield* TestClock.adjust("30 seconds")
      yield* Effect.scoped(
        Effect.gen(function* () {
          expectLocked(yield* right(ip), 30)
          yield* TestClock.adjust("30 seconds")
          expect((yield* right(ip)).status).toBe(200)
        }).pipe(Effect.provide(accountsController({ dataDir })))
      )
    })
  })
})
