/**
 * Login lockout, exactly the spec's schedule, driven by TestClock: 5
 * failures for one (IP, username) within 10 minutes lock the pair for 60 s,
 * then 5 min, then 1 h for each later lock; success clears; other IPs are
 * unaffected; a locked attempt is 429 with Retry-After even with the right
 * password; every lock is an audit row; a restart does not reset it. One IP
 * may fail 15 sign-ins in 15 minutes whatever the usernames (persisted too).
 *
 * Parallel attempts cannot race past it: an attempt is counted before its
 * password is hashed, so at most 5 of a burst are checked.
 *
 * The gate allows 15 requests per 15 minutes per IP on /api/auth/*, so the
 * clock is also moved to let old requests leave that window.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import type * as HttpClient from "@effect/platform/HttpClient"
import { Clock, Deferred, type Duration, Effect, Exit, Fiber, Queue, TestClock } from "effect"
import { Lockout, type LockoutKey } from "../../src/accounts/lockout/Lockout.js"
import {
  accountsController,
  auditRecorder,
  call,
  createUser,
  freshIp,
  login,
  type Reply,
  signIn,
  signInAdmin,
  tempDataDir,
  totp
} from "./support.js"

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

/** `before` on a controller, `pause` on the TestClock, then `after` on a new controller over the same data directory. */
const acrossRestart = <E, R extends HttpClient.HttpClient>(before: Effect.Effect<unknown, E, R>, pause: Duration.DurationInput, after: Effect.Effect<void, E, R>) => {
  const dataDir = tempDataDir()
  return Effect.gen(function* () {
    yield* Effect.scoped(Effect.provide(before, accountsController({ dataDir })))
    yield* TestClock.adjust(pause)
    yield* Effect.scoped(Effect.provide(after, accountsController({ dataDir })))
  })
}

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

  it.scoped("a username with a NUL (none can exist) is 401 and counted, for its pair and its address, under U+FFFD on both engines", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const ip = freshIp()
      for (let i = 0; i < 4; i++) expect((yield* login("Nul\u0000byte", "whatever-1", { ip })).status).toBe(401)
      const rows = yield* Effect.orDie(sql<{ readonly username_key: string }>`SELECT username_key FROM accounts_login_failures WHERE ip = ${ip}`)
      expect(rows.map((row) => row.username_key)).toEqual(Array(4).fill("nul\ufffdbyte"))
      expectLocked(yield* login("nul\u0000byte", "whatever-1", { ip }), 60)
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
    const ip = freshIp()
    return acrossRestart(
      Effect.zipRight(withUser, fiveFailures(ip, 60)),
      "30 seconds",
      Effect.gen(function* () {
        expectLocked(yield* right(ip), 30)
        yield* TestClock.adjust("30 seconds")
        expect((yield* right(ip)).status).toBe(200)
      })
    )
  })

  it.scoped("a spray over many usernames from one IP: after 15 failures in 15 minutes any name is 429, across a restart", () => {
    const ip = freshIp()
    return acrossRestart(
      Effect.gen(function* () {
        yield* withUser
        // 4, 4, 4 and 3 failures: no (IP, username) pair locks.
        for (let i = 0; i < 15; i++) expect((yield* login(`sprayed-${i % 4}`, "a-guess", { ip })).status).toBe(401)
      }),
      "1 minute",
      // A restart empties the gate's count (in memory), not the budget.
      Effect.gen(function* () {
        const refused = yield* right(ip)
        expectLocked(refused, 14 * 60)
        expect(refused.body).toMatchObject({ message: "too many failed sign-ins from this address; retry in 840 s" })
        expect((yield* right(freshIp())).status).toBe(200)
        yield* TestClock.adjust("14 minutes")
        expect((yield* right(ip)).status).toBe(200)
      })
    )
  })

  it.scoped("15 parallel wrong passwords from one IP: at most 5 are checked, the rest are 429 without hashing", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      yield* withUser
      const ip = freshIp()
      const replies = yield* Effect.all(Array.from({ length: 15 }, () => wrong(ip)), { concurrency: "unbounded" })

      // Every checked password leaves one `invalid-credentials` row; refused attempts leave `denied` rows.
      const checked = audit.rows.filter((r) => r.action === "auth.login" && r.ip === ip && r.result === "failure")
      expect(checked.length).toBeGreaterThan(0)
      expect(checked.length).toBeLessThanOrEqual(5)
      const statuses = replies.map((r) => r.status)
      expect(statuses.filter((s) => s === 401).length).toBe(4)
      expect(statuses.filter((s) => s === 429).length).toBe(11)
      for (const reply of replies.filter((r) => r.status === 429)) {
        expect(reply.body).toMatchObject({ error: "rate-limited" })
        expect(Number(reply.headers["retry-after"])).toBe(60)
      }
      const refused = audit.rows.filter((r) => r.action === "auth.login" && r.ip === ip && r.result === "denied")
      expect(refused.length).toBe(10)
      expect(audit.rows.filter((r) => r.action === "auth.lockout" && r.ip === ip).map((r) => r.details?.["lockedForSeconds"])).toEqual([60])
    }).pipe(Effect.provide(accountsController({ audit })))
  })

  it.scoped("8 parallel wrong passwords, then the right one: 429", () =>
    Effect.gen(function* () {
      yield* withUser
      const ip = freshIp()
      const replies = yield* Effect.all(Array.from({ length: 8 }, () => wrong(ip)), { concurrency: "unbounded" })
      expect(replies.every((r) => r.status === 401 || r.status === 429)).toBe(true)
      expectLocked(yield* right(ip), 60)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("\"MFA code required\" does not count: the right password without a code, sequential or in parallel, never locks", () =>
    Effect.gen(function* () {
      yield* withUser
      const session = yield* signIn(USER.username, USER.password)
      const setup = yield* call("POST", "/api/auth/mfa/setup", { headers: session.bearer })
      const { secret } = setup.body as { secret: string }
      const enabled = yield* call("POST", "/api/auth/mfa/verify", {
        json: { code: totp(secret, yield* Clock.currentTimeMillis) },
        headers: session.bearer
      })
      expect(enabled.status).toBe(200)

      const ip = freshIp()
      for (let i = 0; i < 5; i++) expect((yield* right(ip)).body).toMatchObject({ error: "mfa-required" })
      // As many in parallel as the pair may have under way: each gives its attempt back when it ends.
      const burst = yield* Effect.all(Array.from({ length: 5 }, () => right(ip)), { concurrency: "unbounded" })
      expect(burst.map((r) => r.text)).toEqual(Array(5).fill(burst[0]!.text))
      expect(burst[0]!.body).toMatchObject({ error: "mfa-required" })
      // Had any of those ten counted, four failures now would lock the pair.
      for (let i = 0; i < 4; i++) expect((yield* wrong(ip)).status).toBe(401)
      yield* TestClock.adjust("30 seconds")
      const code = totp(secret, yield* Clock.currentTimeMillis)
      expect((yield* login(USER.username, USER.password, { ip, code })).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))
})

describe("attempts under way", () => {
  /** `count` checks of `key` that start, report on `started`, and wait for `release`. */
  const heldAttempts = (key: LockoutKey, count: number, outcome: Effect.Effect<string, string>) =>
    Effect.gen(function* () {
      const lockout = yield* Lockout
      const started = yield* Queue.unbounded<void>()
      const release = yield* Deferred.make<void>()
      const check = Queue.offer(started, undefined).pipe(Effect.zipRight(Deferred.await(release)), Effect.zipRight(outcome))
      const fibers = yield* Effect.forEach(Array.from({ length: count }), () =>
        Effect.fork(lockout.attempt(key, check, Exit.match({ onFailure: () => "failure", onSuccess: () => "uncounted" })))
      )
      yield* Effect.forEach(Array.from({ length: count }), () => Queue.take(started))
      return { fibers, release: Deferred.succeed(release, undefined) }
    })

  it.scoped("with 5 under way, the next is refused before its check runs; when they fail the pair is locked", () =>
    Effect.gen(function* () {
      const lockout = yield* Lockout
      const key = { ip: freshIp(), username: "someone" }
      const held = yield* heldAttempts(key, 5, Effect.fail("wrong"))
      let ran = false
      const refused = yield* Effect.flip(lockout.attempt(key, Effect.sync(() => void (ran = true)), () => "success"))
      expect(refused).toMatchObject({ _tag: "LockedOut", reason: "attempts-at-limit", retryAfterSeconds: 60 })
      expect(ran).toBe(false)

      yield* held.release
      const errors = yield* Effect.forEach(held.fibers, (fiber) => Effect.flip(Fiber.join(fiber)))
      expect(errors.filter((e) => e === "wrong")).toHaveLength(4)
      expect(errors.filter((e) => typeof e === "object" && e._tag === "LockedOut" && e.reason === "locked-now")).toHaveLength(1)
      const locked = yield* Effect.flip(lockout.attempt(key, Effect.void, () => "success"))
      expect(locked).toMatchObject({ reason: "locked", retryAfterSeconds: 60 })
    }).pipe(Effect.provide(accountsController())))

  it.scoped("attempts given back (uncounted) free their place; an interrupted one counts as a failure", () =>
    Effect.gen(function* () {
      const lockout = yield* Lockout
      const key = { ip: freshIp(), username: "someone" }
      const uncounted = yield* heldAttempts(key, 5, Effect.succeed("fine"))
      yield* uncounted.release
      yield* Effect.forEach(uncounted.fibers, Fiber.join)

      // Four failures and one interrupted attempt: five failures, so the pair locks.
      for (let i = 0; i < 4; i++) yield* Effect.flip(lockout.attempt(key, Effect.fail("wrong"), () => "failure"))
      const abandoned = yield* heldAttempts(key, 1, Effect.succeed("never"))
      yield* Fiber.interrupt(abandoned.fibers[0]!)
      const locked = yield* Effect.flip(lockout.attempt(key, Effect.void, () => "success"))
      expect(locked).toMatchObject({ reason: "locked", retryAfterSeconds: 60 })
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a success clears the pair, and attempts still under way then count as new failures", () =>
    Effect.gen(function* () {
      const lockout = yield* Lockout
      const key = { ip: freshIp(), username: "someone" }
      const held = yield* heldAttempts(key, 4, Effect.fail("wrong"))
      yield* lockout.attempt(key, Effect.void, () => "success")
      yield* held.release
      yield* Effect.forEach(held.fibers, (fiber) => Effect.flip(Fiber.join(fiber)))
      // Those four failures count: the fifth locks.
      const fifth = yield* Effect.flip(lockout.attempt(key, Effect.fail("wrong"), () => "failure"))
      expect(fifth).toMatchObject({ _tag: "LockedOut", reason: "locked-now", retryAfterSeconds: 60 })
    }).pipe(Effect.provide(accountsController())))
})
