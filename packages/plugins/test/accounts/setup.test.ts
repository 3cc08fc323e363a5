/**
 * First run and the forced password change: the first admin from
 * ADMIN_USERNAME/ADMIN_PASSWORD, or `admin` with a random password logged
 * once and marked must-change; the setup endpoints open only while no user
 * exists; a must-change user gets 403 password-change-required everywhere
 * but the change itself, logout and health.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { StartupError } from "@garrison/runtime"
import type { LogLine } from "@garrison/testkit"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { accountsController, ADMIN, call, createUser, freshIp, login, type Session, sessionFrom, signIn, signInAdmin } from "./support.js"

const NO_ADMIN_ENV = { ADMIN_USERNAME: "", ADMIN_PASSWORD: "" }

const mustChangeBlocked = (session: Session) =>
  Effect.gen(function* () {
    for (const [method, path] of [["GET", "/api/users"], ["POST", "/api/auth/mfa/setup"], ["GET", "/api/roles"]] as const) {
      const reply = yield* call(method, path, { headers: session.browser })
      expect(reply.status, `${method} ${path}`).toBe(403)
      expect(reply.body).toMatchObject({ error: "password-change-required" })
    }
  })

describe("first run", () => {
  it.scoped("creates the first admin from ADMIN_USERNAME and ADMIN_PASSWORD; setup is then closed (409)", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const users = (yield* call("GET", "/api/users", { headers: admin.bearer })).body
      expect(users).toEqual({
        items: [expect.objectContaining({ username: ADMIN.username, role: "admin", mustChangePassword: false })],
        nextCursor: null,
        total: 1
      })

      const status = yield* call("GET", "/api/setup/status")
      expect(status).toMatchObject({ status: 200, body: { open: false } })
      const late = yield* call("POST", "/api/setup/admin", { json: { username: "intruder", password: "intruder-password" } })
      expect(late.status).toBe(409)
      expect(late.body).toMatchObject({ error: "conflict" })
      expect((yield* login("intruder", "intruder-password")).status).toBe(401)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("without them, creates `admin` with a random password logged once, which must be changed", () => {
    const log: Array<LogLine> = []
    return Effect.gen(function* () {
      const lines = log.map((l) => l.message).filter((l) => l.includes("one-time password"))
      expect(lines).toHaveLength(1)
      const password = /one-time password (\S+) ;/.exec(lines[0]!)?.[1] ?? ""
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/)

      const reply = yield* login("admin", password)
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ user: { username: "admin", role: "admin", mustChangePassword: true } })
      const admin = sessionFrom(reply, freshIp())
      yield* mustChangeBlocked(admin)
      // Health and logout stay open.
      expect((yield* call("GET", "/api/health", { headers: admin.browser })).status).toBe(200)

      const wrong = yield* call("POST", "/api/auth/change-password-forced", {
        json: { currentPassword: "not-the-password", newPassword: "my-own-password" },
        headers: admin.browser
      })
      expect(wrong.status).toBe(403)
      const short = yield* call("POST", "/api/auth/change-password-forced", {
        json: { currentPassword: password, newPassword: "short" },
        headers: admin.browser
      })
      expect(short.status).toBe(400)
      expect(short.body).toMatchObject({ error: "invalid-request", message: expect.stringContaining("8 to 128") })
      const same = yield* call("POST", "/api/auth/change-password-forced", {
        json: { currentPassword: password, newPassword: password },
        headers: admin.browser
      })
      expect(same.status).toBe(400)
      // CSRF applies to the change like to any cookie write.
      const noCsrf = yield* call("POST", "/api/auth/change-password-forced", {
        json: { currentPassword: password, newPassword: "my-own-password" },
        headers: admin.cookieOnly
      })
      expect(noCsrf.body).toMatchObject({ error: "csrf-mismatch" })

      const changed = yield* call("POST", "/api/auth/change-password-forced", {
        json: { currentPassword: password, newPassword: "my-own-password" },
        headers: admin.browser
      })
      expect(changed.status).toBe(204)
      // The same session goes on, now unrestricted.
      expect((yield* call("GET", "/api/users", { headers: admin.browser })).status).toBe(200)
      expect((yield* login("admin", password)).status).toBe(401)
      expect((yield* login("admin", "my-own-password")).body).toMatchObject({ user: { mustChangePassword: false } })
      expect(log.filter((l) => l.message.includes(password))).toHaveLength(1)
      expect(log.map((l) => l.message).join("\n")).not.toContain("my-own-password")
    }).pipe(Effect.provide(accountsController({ env: NO_ADMIN_ENV, log })))
  })

  it.scoped("with only one of the two set, warns and generates the password", () => {
    const log: Array<LogLine> = []
    return Effect.sync(() => {
      expect(log.some((l) => l.message.includes("only one of ADMIN_USERNAME and ADMIN_PASSWORD"))).toBe(true)
      expect(log.filter((l) => l.message.includes('first admin "admin" with the one-time password'))).toHaveLength(1)
    }).pipe(Effect.provide(accountsController({ env: { ADMIN_USERNAME: "chief", ADMIN_PASSWORD: "" }, log })))
  })

  it.scoped("refuses to start on an ADMIN_PASSWORD outside the policy", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Layer.build(accountsController({ env: { ADMIN_PASSWORD: "short" } })))
      expect(Exit.isFailure(exit)).toBe(true)
      const failure = Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : Option.none()
      expect(Option.getOrUndefined(failure)).toBeInstanceOf(StartupError)
      expect(Option.getOrUndefined(failure)).toMatchObject({ reason: "config", message: expect.stringContaining("ADMIN_PASSWORD") })
    }))

  it.scoped("POST /api/setup/admin creates the first admin only while no user exists", () =>
    Effect.gen(function* () {
      // As on a controller whose users were all removed from the database by hand.
      const sql = yield* SqlClient.SqlClient
      yield* sql`DELETE FROM accounts_users`
      expect((yield* call("GET", "/api/setup/status")).body).toEqual({ open: true })

      const weak = yield* call("POST", "/api/setup/admin", { json: { username: "owner", password: "short" } })
      expect(weak.status).toBe(400)
      const badName = yield* call("POST", "/api/setup/admin", { json: { username: "no spaces", password: "long-enough-1" } })
      expect(badName.status).toBe(400)

      const created = yield* call("POST", "/api/setup/admin", { json: { username: "owner", password: "crimson-ferry-almanac-57" } })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ username: "owner", role: "admin", mustChangePassword: false })
      expect(created.text).not.toMatch(/argon2|crimson-ferry-almanac-57/)

      const again = yield* call("POST", "/api/setup/admin", { json: { username: "second", password: "second-password" } })
      expect(again.status).toBe(409)
      expect((yield* call("GET", "/api/setup/status")).body).toEqual({ open: false })
      const owner = yield* signIn("owner", "crimson-ferry-almanac-57")
      expect((yield* call("GET", "/api/users", { headers: owner.bearer })).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))
})

describe("forced password change", () => {
  it.scoped("a user created by an admin must change their password by default", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const reply = yield* call("POST", "/api/users", {
        json: { username: "newbie", password: "given-by-admin", role: "admin" },
        headers: admin.bearer
      })
      expect(reply.body).toMatchObject({ mustChangePassword: true })
      const newbie = yield* signIn("newbie", "given-by-admin")
      yield* mustChangeBlocked(newbie)
      // Logout is allowed while blocked.
      expect((yield* call("POST", "/api/auth/logout", { headers: newbie.cookieOnly })).status).toBe(204)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("changing it ends the user's other sessions, keeps this one", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* createUser(admin, { username: "kim", password: "first-pebble-orbit-harp-14", role: "admin", mustChangePassword: true })
      const here = yield* signIn("kim", "first-pebble-orbit-harp-14")
      const there = yield* signIn("kim", "first-pebble-orbit-harp-14")
      const changed = yield* call("POST", "/api/auth/change-password-forced", {
        json: { currentPassword: "first-pebble-orbit-harp-14", newPassword: "own-cobalt-meadow-lark-39" },
        headers: here.bearer
      })
      expect(changed.status).toBe(204)
      expect((yield* call("GET", "/api/users", { headers: here.bearer })).status).toBe(200)
      expect((yield* call("GET", "/api/users", { headers: there.bearer })).status).toBe(401)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("refuses common, weak and username-holding passwords with a 400 naming the field and why, on every path that sets one", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* createUser(admin, { username: "kestrel", password: "first-pebble-orbit-harp-14", role: "moderator", mustChangePassword: true })
      const kestrel = yield* signIn("kestrel", "first-pebble-orbit-harp-14")
      const change = (newPassword: string) =>
        call("POST", "/api/auth/change-password-forced", {
          json: { currentPassword: "first-pebble-orbit-harp-14", newPassword },
          headers: kestrel.bearer
        })
      const refusals = [
        ["password", /^this password is among the most common ones; .*\(strength 0 of 4, at least 3 needed\)$/],
        ["Password1", /^this password is among the most common ones; .*capitalise more than the first letter/],
        ["garrison123", /^it contains your username or the name Garrison; add more words that are less common/],
        ["Kestrel-Orchard-Violin-2026", /^it contains your username$/]
      ] as const
      for (const [password, why] of refusals) {
        const refused = yield* change(password)
        expect(refused.status, password).toBe(400)
        expect(refused.body, password).toEqual({
          error: "invalid-request",
          message: expect.stringMatching(/^newPassword: /),
          details: [{ path: "newPassword", message: expect.stringMatching(why) }]
        })
        // The password itself is never echoed (the word "password" is in the reasons).
        if (password !== "password") expect(refused.text).not.toContain(password)
      }
      // Still must change: nothing was stored.
      yield* mustChangeBlocked(kestrel)
      expect((yield* change("own-cobalt-meadow-lark-39")).status).toBe(204)

      // The same policy where an admin sets one (create, update) and at setup, named `password`.
      const created = yield* call("POST", "/api/users", { json: { username: "wren", password: "Password1", role: "moderator" }, headers: admin.bearer })
      expect(created.body).toMatchObject({ error: "invalid-request", details: [{ path: "password", message: expect.stringContaining("most common") }] })
      const wren = yield* createUser(admin, { username: "wren", password: "silver-tundra-kettle-38", role: "moderator" })
      const updated = yield* call("PATCH", `/api/users/${wren}`, { json: { password: "wren-is-a-small-brown-bird" }, headers: admin.bearer })
      expect(updated.body).toMatchObject({ error: "invalid-request", details: [{ path: "password", message: "it contains your username" }] })
      // The policy reads the username the user will have.
      const renamed = yield* call("PATCH", `/api/users/${wren}`, { json: { username: "robin", password: "robin-Lantern-Harbour-88" }, headers: admin.bearer })
      expect(renamed.body).toMatchObject({ details: [{ path: "password", message: "it contains your username" }] })
      const sql = yield* SqlClient.SqlClient
      yield* sql`DELETE FROM accounts_users`
      const setup = yield* call("POST", "/api/setup/admin", { json: { username: "owner", password: "qwertyuiop" } })
      expect(setup.body).toMatchObject({ error: "invalid-request", details: [{ path: "password", message: expect.stringContaining("most common") }] })
    }).pipe(Effect.provide(accountsController())))
})
