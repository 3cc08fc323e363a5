/**
 * The plain functions under the plugin: the password policy and Argon2id
 * parameters, reading credentials and the client's address off a request,
 * and the policy (CSRF, password change, rate limit) the routes declare.
 */
import { HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { planPlugins, Plugin } from "@garrison/runtime"
import { withAuditTrail } from "@garrison/testkit"
import { Effect, Either, Option } from "effect"
import { AccountsPlugin } from "../../src/accounts/index.js"
import { clientIp, credentialsOf, isHttps } from "../../src/accounts/http/request.js"
import { lockDurationMs } from "../../src/accounts/lockout/schedule.js"
import { checkPolicy, generatePassword, MIN_STRENGTH } from "../../src/accounts/passwords/Passwords.js"
import { lengthProblem } from "../../src/accounts/passwords/policy.js"
import { accountsController, call, signInAdmin } from "./support.js"

const request = (headers: Record<string, string>) => HttpServerRequest.fromWeb(new Request("http://controller/api/x", { headers }))

describe("passwords", () => {
  it("are 8 to 128 characters, counted as code points", () => {
    expect(lengthProblem("1234567")).toBe("passwords are 8 to 128 characters long")
    expect(lengthProblem("12345678")).toBeUndefined()
    expect(lengthProblem("x".repeat(128))).toBeUndefined()
    expect(lengthProblem("x".repeat(129))).toBeDefined()
    // Four emoji are four characters (eight UTF-16 units): too short.
    expect(lengthProblem("🔑🔑🔑🔑")).toBeDefined()
    expect(generatePassword()).toMatch(/^[A-Za-z2-9]{24}$/)
  })

  const refusal = (password: string, username = "alice", field = "newPassword") =>
    Effect.map(Effect.flip(checkPolicy(password, { username, field })), (e) => ({ field: e.field, message: e.message }))

  it.effect("refuse common passwords, ones zxcvbn scores below 3 and ones holding the username, saying why", () =>
    Effect.gen(function* () {
      expect(MIN_STRENGTH).toBe(3)
      for (const common of ["password", "Password1"]) {
        const refused = yield* refusal(common)
        expect(refused.field).toBe("newPassword")
        expect(refused.message).toMatch(/^this password is among the most common ones; .*\(strength [0-2] of 4, at least 3 needed\)$/)
      }
      // Short by one character, so refused for its length before anything else.
      expect((yield* refusal("passwor")).message).toBe("passwords are 8 to 128 characters long")
      const site = yield* refusal("garrison123")
      expect(site.message).toMatch(/^it contains your username or the name Garrison; add more words that are less common \(strength 1 of 4/)
      expect(yield* refusal("P@ssw0rd2026")).toMatchObject({ message: expect.stringMatching(/^this password is one of the most common ones with small changes; .*look-alikes/) })
      expect(yield* refusal("qwertyuiop")).toMatchObject({ message: expect.stringMatching(/^this password is among the most common ones/) })
      // Strong on its own (zxcvbn scores it 4), refused for the username alone, ignoring case.
      expect(yield* refusal("Alice-Garden-Tractor-77", "alice", "password")).toEqual({ field: "password", message: "it contains your username" })
      // A username shorter than 3 characters is not looked for: it sits inside too many good passwords.
      expect(yield* checkPolicy("bench-Password-2026!x", { username: "ch", field: "password" })).toBe("bench-Password-2026!x")
    }))

  it.effect("accept strong passwords, including the ones the tests use", () =>
    Effect.gen(function* () {
      for (const strong of ["correct horse battery staple", "bench-Password-2026!x", "a long moderator passphrase", "Tr0ub4dor&3-Sunflower", generatePassword()]) {
        expect(yield* checkPolicy(strong, { username: "alice", field: "password" })).toBe(strong)
      }
    }))

  it.scoped("are stored as Argon2id with m=19456 KiB, t=2, p=1", () =>
    Effect.gen(function* () {
      yield* signInAdmin
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly password_hash: string }>`SELECT password_hash FROM accounts_users`
      expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    }).pipe(Effect.provide(accountsController())))
})

describe("requests", () => {
  it("take the auth-token cookie before Authorization: Bearer, and only a JWT as a session bearer token", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
    expect(credentialsOf(request({ cookie: "auth-token=from-cookie", authorization: `Bearer ${jwt}` }))).toEqual(
      Option.some({ token: "from-cookie", via: "cookie" })
    )
    expect(credentialsOf(request({ authorization: `Bearer ${jwt}` }))).toEqual(Option.some({ token: jwt, via: "bearer" }))
    // Another scheme's bearer token (a chat bot's API key, a partner key) is not a bad session: it is not a session at all.
    expect(credentialsOf(request({ authorization: "Bearer 3f9a6c1d8e2b47a5b0c4d7e1f2a3b4c5" }))).toEqual(Option.none())
    expect(credentialsOf(request({ authorization: "Basic dXNlcjpwYXNz" }))).toEqual(Option.none())
    expect(credentialsOf(request({ cookie: "csrf-token=x" }))).toEqual(Option.none())
  })

  it("trust X-Forwarded-For and X-Forwarded-Proto only with TRUST_PROXY, counting hops from the right", () => {
    const proxied = request({ "x-forwarded-for": "6.6.6.6, 203.0.113.7", "x-forwarded-proto": "https" })
    expect(clientIp(proxied, 0)).toBe("unknown")
    expect(clientIp(proxied, 1)).toBe("203.0.113.7")
    expect(clientIp(proxied, 2)).toBe("6.6.6.6")
    expect(isHttps(proxied, 0)).toBe(false)
    expect(isHttps(proxied, 1)).toBe(true)
    expect(isHttps(request({ "x-forwarded-proto": "http" }), 1)).toBe(false)
  })
})

describe("route policy of the accounts routes", () => {
  const routes = Either.getOrThrow(planPlugins(withAuditTrail([AccountsPlugin]))).routes
  const route = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!

  it("CSRF: exactly the spec's exempt list among the plugin's writes (login, logout, setup)", () => {
    const exempt = routes.filter((r) => r.csrfExempt).map((r) => `${r.method} ${r.path}`).sort()
    expect(exempt).toEqual(["GET /api/setup/status", "POST /api/auth/login", "POST /api/auth/logout", "POST /api/setup/admin"])
    expect(route("POST", "/api/auth/mfa/setup").csrfExempt).toBe(false)
    expect(route("POST", "/api/users").csrfExempt).toBe(false)
  })

  it("while a password must change: only the change itself and logout", () => {
    const allowed = routes.filter((r) => r.duringPasswordChange).map((r) => `${r.method} ${r.path}`).sort()
    expect(allowed).toEqual(["POST /api/auth/change-password-forced", "POST /api/auth/logout"])
  })

  it("/api/auth/* counts against the auth scope (15 in 15 minutes); the rest against api", () => {
    for (const r of routes) expect(r.rateLimit, `${r.method} ${r.path}`).toBe(r.path.startsWith("/api/auth/") ? "auth" : "api")
  })

  it("lock durations: 60 s, 5 min, then 1 h", () => {
    expect([1, 2, 3, 4, 10].map(lockDurationMs)).toEqual([60_000, 300_000, 3_600_000, 3_600_000, 3_600_000])
  })
})

describe("permission catalog", () => {
  const MotdLike = Plugin.make({ id: "motd-like", permissions: [{ name: "motd.manage", description: "Post messages" }] })

  it.scoped("roles accept permissions other plugins declared", () =>
    Effect.gen(function* () {
      const admin = yield* signInAdmin
      const reply = yield* call("POST", "/api/roles", { json: { name: "editors", permissions: ["motd.manage"] }, headers: admin.bearer })
      expect(reply.status).toBe(201)
      expect(reply.body).toMatchObject({ permissions: ["motd.manage"] })
    }).pipe(Effect.provide(accountsController({ plugins: [MotdLike] }))))
})
