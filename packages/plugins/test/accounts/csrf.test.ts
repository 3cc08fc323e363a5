/**
 * CSRF for cookie sessions (OWASP signed double-submit): a cookie-carried
 * POST/PUT/PATCH/DELETE needs `X-CSRF-Token` equal to the `csrf-token`
 * cookie AND bound to the session; Bearer calls need none; the exempt list
 * is exactly the spec's.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { accountsController, auditRecorder, call, signInAdmin } from "./support.js"

const newRole = (name: string) => ({ name, permissions: ["server.view"] })

describe("CSRF", () => {
  it.scoped("a cookie write with the session's token passes; missing or wrong is 403 csrf-mismatch with an audit row", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      const admin = yield* signInAdmin

      const ok = yield* call("POST", "/api/roles", { json: newRole("one"), headers: admin.browser })
      expect(ok.status).toBe(201)

      const missing = yield* call("POST", "/api/roles", { json: newRole("two"), headers: admin.cookieOnly })
      expect(missing.status).toBe(403)
      expect(missing.body).toMatchObject({ error: "csrf-mismatch" })

      const wrong = yield* call("POST", "/api/roles", {
        json: newRole("three"),
        headers: { ...admin.cookieOnly, "x-csrf-token": admin.csrf.slice(0, -2) + "xx" }
      })
      expect(wrong.status).toBe(403)
      expect(wrong.body).toMatchObject({ error: "csrf-mismatch" })

      // Every method that writes.
      for (const [method, path] of [["PATCH", "/api/roles/one"], ["DELETE", "/api/roles/one"], ["PATCH", `/api/users/${admin.userId}`]] as const) {
        const reply = yield* call(method, path, { json: method === "DELETE" ? undefined : {}, headers: admin.cookieOnly })
        expect(reply.status, `${method} ${path}`).toBe(403)
      }

      // Nothing was written by the refused calls.
      const roles = ((yield* call("GET", "/api/roles", { headers: admin.cookieOnly })).body as { items: Array<{ name: string }> }).items
      expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(["one"]))
      expect(roles.map((r) => r.name)).not.toContain("two")
      expect(roles.map((r) => r.name)).not.toContain("three")

      const rows = audit.rows.filter((r) => r.action === "auth.csrf-mismatch")
      expect(rows).toHaveLength(5)
      expect(rows[0]).toMatchObject({ actor: admin.userId, actorName: "root", ip: admin.ip, result: "denied", target: "POST /api/roles" })
      expect(JSON.stringify(rows)).not.toContain(admin.csrf)
    }).pipe(Effect.provide(accountsController({ audit })))
  })

  it.scoped("a cookie planted by another site does not pass, even when the header matches it", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const planted = { cookie: `auth-token=${admin.token}; csrf-token=attacker-chosen`, "x-csrf-token": "attacker-chosen" }
      const reply = yield* call("POST", "/api/roles", { json: newRole("planted"), headers: planted })
      expect(reply.status).toBe(403)
      expect(reply.body).toMatchObject({ error: "csrf-mismatch" })

      // A real CSRF token, but of another session (say, the attacker's own), is no better.
      const attacker = yield* signInAdmin
      const borrowed = {
        cookie: `auth-token=${admin.token}; csrf-token=${attacker.csrf}`,
        "x-csrf-token": attacker.csrf
      }
      expect((yield* call("POST", "/api/roles", { json: newRole("borrowed"), headers: borrowed })).status).toBe(403)
      // The header and cookie must also agree with each other.
      const split = { cookie: `auth-token=${admin.token}; csrf-token=${attacker.csrf}`, "x-csrf-token": admin.csrf }
      expect((yield* call("POST", "/api/roles", { json: newRole("split"), headers: split })).status).toBe(403)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("Bearer calls carry no ambient credentials and need no CSRF token", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      expect((yield* call("POST", "/api/roles", { json: newRole("scripted"), headers: admin.bearer })).status).toBe(201)
      expect((yield* call("DELETE", "/api/roles/scripted", { headers: admin.bearer })).status).toBe(204)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("reads need no CSRF token", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      expect((yield* call("GET", "/api/users", { headers: admin.cookieOnly })).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("exempt: POST /api/auth/login, POST /api/auth/logout and /api/setup/*", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      // Setup: answered on its merits (closed: 409), never csrf-mismatch.
      const setup = yield* call("POST", "/api/setup/admin", {
        json: { username: "late", password: "late-password" },
        headers: admin.cookieOnly
      })
      expect(setup.status).toBe(409)
      expect((yield* call("GET", "/api/setup/status", { headers: admin.cookieOnly })).status).toBe(200)
      // Login with a session cookie already set and no CSRF header.
      const again = yield* call("POST", "/api/auth/login", {
        json: { username: "root", password: "correct horse battery staple" },
        headers: { ...admin.cookieOnly, "x-forwarded-for": "10.200.0.1" }
      })
      expect(again.status).toBe(200)
      expect((yield* call("POST", "/api/auth/logout", { headers: admin.cookieOnly })).status).toBe(204)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("an exemption is exact: other /api/auth/* writes by cookie still need the token", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      for (const path of ["/api/auth/mfa/setup", "/api/auth/logout/../mfa/setup", "/api/auth/change-password-forced"]) {
        const reply = yield* call("POST", path, { json: { currentPassword: "x", newPassword: "yyyyyyyy" }, headers: admin.cookieOnly })
        expect([403, 404], `${path}: ${reply.text}`).toContain(reply.status)
        if (reply.status === 403) expect(reply.body).toMatchObject({ error: "csrf-mismatch" })
      }
    }).pipe(Effect.provide(accountsController())))
})
