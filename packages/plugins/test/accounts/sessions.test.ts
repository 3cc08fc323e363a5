/**
 * Login and sessions, exactly as the spec: the response and its cookies,
 * the cookie read before the Bearer header, permissions read per request,
 * logout revoking the token everywhere, expiry, and disabled or deleted
 * users refused.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import {
  accountsController,
  ADMIN,
  auditRecorder,
  call,
  createUser,
  freshIp,
  login,
  sessionFrom,
  signIn,
  signInAdmin
} from "./support.js"
import { CALLER_RECHECK_MS } from "../../src/accounts/authenticator/AccountsAuthenticator.js"

describe("login", () => {
  it.scoped("answers {token, user:{id, username, role}} and sets auth-token (HttpOnly, Lax) and csrf-token (readable)", () =>
    Effect.gen(function* () {
      const reply = yield* login(ADMIN.username, ADMIN.password)
      expect(reply.status).toBe(200)
      const body = reply.body as { token: string; user: Record<string, unknown> }
      expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
      expect(body.user).toEqual({ id: expect.any(String), username: ADMIN.username, role: "admin", mustChangePassword: false })

      const auth = reply.setCookies.find((c) => c.startsWith("auth-token="))
      const csrf = reply.setCookies.find((c) => c.startsWith("csrf-token="))
      expect(auth).toContain(`auth-token=${body.token}`)
      expect(auth).toMatch(/; HttpOnly/)
      expect(auth).toMatch(/; SameSite=Lax/)
      expect(auth).toMatch(/; Path=\//)
      expect(auth).not.toMatch(/; Secure/)
      expect(csrf).toMatch(/^csrf-token=[\w-]{20,};/)
      expect(csrf).not.toMatch(/HttpOnly/)
      expect(csrf).toMatch(/; SameSite=Lax/)

      // The JWT carries jti, sub and exp (12 h by default), and no permissions.
      const claims = JSON.parse(Buffer.from(body.token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>
      expect(claims).toMatchObject({ jti: expect.any(String), sub: body.user.id, exp: 12 * 3600 })
      expect(JSON.stringify(claims)).not.toContain("admin")
    }).pipe(Effect.provide(accountsController())))

  it.scoped("marks both cookies Secure behind a TLS proxy (X-Forwarded-Proto: https with TRUST_PROXY)", () =>
    Effect.gen(function* () {
      const reply = yield* call("POST", "/api/auth/login", {
        json: { username: ADMIN.username, password: ADMIN.password },
        headers: { "x-forwarded-for": freshIp(), "x-forwarded-proto": "https" }
      })
      expect(reply.status).toBe(200)
      expect(reply.setCookies).toHaveLength(2)
      for (const cookie of reply.setCookies) expect(cookie).toMatch(/; Secure/)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("one 401 for a wrong password, an unknown user and a disabled user; audit rows say which", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      const admin = yield* signInAdmin
      const id = yield* createUser(admin, { username: "dora", password: "granite-puffin-sonnet-24", role: "moderator" })
      yield* call("PATCH", `/api/users/${id}`, { json: { disabled: true }, headers: admin.bearer })

      for (const [username, password] of [[ADMIN.username, "wrong-password"], ["nobody", "whatever1"], ["dora", "granite-puffin-sonnet-24"]] as const) {
        const reply = yield* login(username, password)
        expect(reply.status).toBe(401)
        expect(reply.body).toEqual({ error: "unauthenticated", message: "wrong username or password" })
        expect(reply.setCookies).toEqual([])
      }
      const logins = audit.rows.filter((r) => r.action === "auth.login")
      expect(logins.map((r) => [r.target, r.result])).toEqual([
        [ADMIN.username, "success"],
        [ADMIN.username, "failure"],
        ["nobody", "failure"],
        ["dora", "failure"]
      ])
      // A known account is named by id and username (no one is signed in yet to name the row after); an unknown one is no one.
      expect(logins.map((r) => [r.actor, r.actorName])).toEqual([
        [admin.userId, ADMIN.username],
        [admin.userId, ADMIN.username],
        [null, null],
        [id, "dora"]
      ])
      expect(JSON.stringify(audit.rows)).not.toContain("wrong-password")
      expect(JSON.stringify(audit.rows)).not.toContain("granite-puffin-sonnet-24")
    }).pipe(Effect.provide(accountsController({ audit })))
  })

  it.scoped("a body that is not {username, password} is 400 naming the field", () =>
    Effect.gen(function* () {
      const reply = yield* call("POST", "/api/auth/login", { json: { username: ADMIN.username }, headers: { "x-forwarded-for": freshIp() } })
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({ error: "invalid-request", message: expect.stringContaining("password") })
    }).pipe(Effect.provide(accountsController())))
})

describe("sessions", () => {
  it.scoped("the cookie is read first, then Authorization: Bearer; no credentials is 401", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const id = yield* createUser(admin, { username: "mod", password: "quiet-harbour-lantern-41", role: "moderator" })
      const mod = yield* signIn("mod", "quiet-harbour-lantern-41")

      // Admin's cookie with the moderator's bearer token: the cookie wins.
      const both = yield* call("GET", "/api/users", { headers: { ...admin.cookieOnly, authorization: `Bearer ${mod.token}` } })
      expect(both.status).toBe(200)
      // The moderator's cookie with the admin's bearer token: still the cookie.
      const swapped = yield* call("GET", "/api/users", { headers: { ...mod.cookieOnly, authorization: `Bearer ${admin.token}` } })
      expect(swapped.status).toBe(403)
      expect(swapped.body).toMatchObject({ error: "forbidden", message: 'missing permission "admin"' })

      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)
      expect((yield* call("GET", "/api/users")).status).toBe(401)
      expect(id).toBe(mod.userId)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a tampered, foreign or garbage token is 401", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const [header, payload, signature] = admin.token.split(".") as [string, string, string]
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: "someone-else" })).toString("base64url")
      const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")
      for (const token of [`${header}.${forged}.${signature}`, `${none}.${payload}.`, "garbage", `${header}.${payload}.${signature}x`]) {
        const reply = yield* call("GET", "/api/users", { headers: { authorization: `Bearer ${token}` } })
        expect(reply.status).toBe(401)
        expect(reply.body).toMatchObject({ error: "unauthenticated" })
      }
    }).pipe(Effect.provide(accountsController())))

  it.scoped("logout revokes the token (401 on every route after, cookie or bearer) and clears the cookies", () => {
    const audit = auditRecorder()
    return Effect.gen(function* () {
      const admin = yield* signInAdmin
      const other = yield* signInAdmin
      // Logout is CSRF-exempt: a cookie alone is enough.
      const out = yield* call("POST", "/api/auth/logout", { headers: admin.cookieOnly })
      expect(out.status).toBe(204)
      expect(out.setCookies).toEqual(
        expect.arrayContaining([expect.stringMatching(/^auth-token=; Max-Age=0; Path=\//), expect.stringMatching(/^csrf-token=; Max-Age=0/)])
      )
      const routes = [
        ["GET", "/api/users"],
        ["GET", "/api/roles"],
        ["POST", "/api/auth/mfa/setup"],
        ["POST", "/api/auth/logout"],
        ["GET", "/api/backup/users"]
      ] as const
      for (const [method, path] of routes) {
        for (const headers of [admin.browser, admin.bearer]) {
          const reply = yield* call(method, path, { headers })
          expect(reply.status, `${method} ${path}`).toBe(401)
        }
      }
      // Only that session ended.
      expect((yield* call("GET", "/api/users", { headers: other.bearer })).status).toBe(200)
      expect(audit.rows.filter((r) => r.action === "auth.logout")).toHaveLength(1)
    }).pipe(Effect.provide(accountsController({ audit })))
  })

  it.scoped("a token expires after SESSION_TTL (12 h by default)", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* TestClock.adjust("11 hours")
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)
      yield* TestClock.adjust("1 hour")
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(401)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("SESSION_TTL sets the lifetime", () =>
    Effect.gen(function* () {
      const reply = yield* login(ADMIN.username, ADMIN.password)
      const admin = sessionFrom(reply, "10.9.9.9")
      expect(reply.setCookies[0]).toContain("Max-Age=1800")
      yield* TestClock.adjust("29 minutes")
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)
      yield* TestClock.adjust("1 minute")
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(401)
    }).pipe(Effect.provide(accountsController({ env: { SESSION_TTL: "30 minutes" } }))))

  it.scoped("permissions are read per request: a role change takes effect on the next request", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const id = yield* createUser(admin, { username: "rita", password: "tangerine-glacier-mosaic-53", role: "moderator" })
      const rita = yield* signIn("rita", "tangerine-glacier-mosaic-53")
      expect((yield* call("GET", "/api/users", { headers: rita.bearer })).status).toBe(403)

      // Her user's role changes: same token, new permissions.
      expect((yield* call("PATCH", `/api/users/${id}`, { json: { role: "admin" }, headers: admin.bearer })).status).toBe(200)
      expect((yield* call("GET", "/api/users", { headers: rita.bearer })).status).toBe(200)

      // Her role's permissions change: same again.
      expect((yield* call("POST", "/api/roles", { json: { name: "ops", permissions: [] }, headers: admin.bearer })).status).toBe(201)
      expect((yield* call("PATCH", `/api/users/${id}`, { json: { role: "ops" }, headers: admin.bearer })).status).toBe(200)
      expect((yield* call("GET", "/api/users", { headers: rita.bearer })).status).toBe(403)
      expect((yield* call("PATCH", "/api/roles/ops", { json: { permissions: ["admin"] }, headers: admin.bearer })).status).toBe(200)
      expect((yield* call("GET", "/api/users", { headers: rita.bearer })).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a remembered caller is read again within CALLER_RECHECK_MS when another process changes the database", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const admin = yield* signInAdmin
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)
      // As `npm run reset-admin` does from its own process: nothing here is told.
      yield* sql`UPDATE accounts_sessions SET revoked_at = 1`
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)
      yield* TestClock.adjust(CALLER_RECHECK_MS)
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(401)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a remembered session still ends at its expiry, to the millisecond", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly issued_at: number; readonly expires_at: number }>`SELECT issued_at, expires_at FROM accounts_sessions`
      // Asked just before the end, so the caller is remembered with less than CALLER_RECHECK_MS to go.
      yield* TestClock.adjust(Number(row!.expires_at) - Number(row!.issued_at) - 100)
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)
      yield* TestClock.adjust(99)
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(200)
      yield* TestClock.adjust(1)
      expect((yield* call("GET", "/api/users", { headers: admin.bearer })).status).toBe(401)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("disabling a user ends their sessions (401), and re-enabling does not bring them back; deleting does too", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const id = yield* createUser(admin, { username: "dave", password: "harbour-walnut-cinema-71", role: "admin" })
      const dave = yield* signIn("dave", "harbour-walnut-cinema-71")
      expect((yield* call("GET", "/api/users", { headers: dave.bearer })).status).toBe(200)

      expect((yield* call("PATCH", `/api/users/${id}`, { json: { disabled: true }, headers: admin.bearer })).status).toBe(200)
      expect((yield* call("GET", "/api/users", { headers: dave.bearer })).status).toBe(401)
      expect((yield* call("GET", "/api/users", { headers: dave.browser })).status).toBe(401)
      expect((yield* login("dave", "harbour-walnut-cinema-71")).status).toBe(401)

      expect((yield* call("PATCH", `/api/users/${id}`, { json: { disabled: false }, headers: admin.bearer })).status).toBe(200)
      expect((yield* call("GET", "/api/users", { headers: dave.bearer })).status).toBe(401)

      const again = yield* signIn("dave", "harbour-walnut-cinema-71")
      expect((yield* call("GET", "/api/users", { headers: again.bearer })).status).toBe(200)
      expect((yield* call("DELETE", `/api/users/${id}`, { headers: admin.bearer })).status).toBe(204)
      expect((yield* call("GET", "/api/users", { headers: again.bearer })).status).toBe(401)
      expect((yield* login("dave", "harbour-walnut-cinema-71")).status).toBe(401)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("an admin setting a user's password ends that user's sessions", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const id = yield* createUser(admin, { username: "paul", password: "new-copper-kettle-08", role: "admin" })
      const paul = yield* signIn("paul", "new-copper-kettle-08")
      const reset = yield* call("PATCH", `/api/users/${id}`, { json: { password: "temporary-saffron-pylon-2" }, headers: admin.bearer })
      expect(reset.status).toBe(200)
      expect(reset.body).toMatchObject({ mustChangePassword: true })
      expect((yield* call("GET", "/api/users", { headers: paul.bearer })).status).toBe(401)
      expect((yield* login("paul", "new-copper-kettle-08")).status).toBe(401)
      expect((yield* login("paul", "temporary-saffron-pylon-2")).status).toBe(200)
    }).pipe(Effect.provide(accountsController())))

  it.scoped("no response carries a password hash, an MFA secret or a session token but login's", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      yield* createUser(admin, { username: "zoe", password: "lilac-bramble-tractor-66", role: "moderator" })
      for (const path of ["/api/users", "/api/roles", "/api/backup/users", "/api/backup/roles"]) {
        const reply = yield* call("GET", path, { headers: admin.bearer })
        expect(reply.status, `${path}: ${reply.text}`).toBe(200)
        expect(reply.text).not.toMatch(/argon2|password_?hash|passwordHash|mfa_?secret|mfaSecret/i)
        expect(reply.text).not.toContain(admin.token)
      }
    }).pipe(Effect.provide(accountsController())))

  it.scoped("a revoked token's row is kept until the token would have expired, then the cleanup job drops it", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = Effect.map(
        sql<{ readonly revoked: number; readonly n: number }>`
          SELECT CASE WHEN revoked_at IS NULL THEN 0 ELSE 1 END AS revoked, COUNT(*) AS n FROM accounts_sessions GROUP BY 1 ORDER BY 1`,
        (r) => r.map((x) => [Number(x.revoked), Number(x.n)])
      )
      const admin = yield* signInAdmin
      yield* signInAdmin
      yield* call("POST", "/api/auth/logout", { headers: admin.bearer })
      yield* TestClock.adjust("11 hours")
      expect(yield* rows).toEqual([[0, 1], [1, 1]])
      // The job runs every 10 minutes; both tokens expire at 12 h.
      yield* TestClock.adjust("70 minutes")
      expect(yield* rows).toEqual([])
    }).pipe(Effect.provide(accountsController())))

  it.scoped("the OpenAPI document states each endpoint's access", () =>
    Effect.gen(function* () {
      const spec = (yield* call("GET", "/api/openapi.json")).body as { paths: Record<string, Record<string, Record<string, unknown>>> }
      const access = (path: string, method: string) => spec.paths[path]?.[method]?.["x-garrison-access"]
      expect(access("/api/auth/login", "post")).toBe("None")
      expect(access("/api/auth/logout", "post")).toBe("Any auth")
      expect(access("/api/auth/mfa/setup", "post")).toBe("Any auth")
      expect(access("/api/setup/admin", "post")).toBe("None")
      expect(access("/api/users", "get")).toBe("admin")
      expect(access("/api/roles/{id}", "delete")).toBe("admin")
      expect(access("/api/restore/users", "post")).toBe("admin")
      expect(String(spec.paths["/api/restore/users"]?.["post"]?.["description"])).toContain("temporaryPasswords")
    }).pipe(Effect.provide(accountsController())))
})
