/**
 * The plain functions under the plugin: the password policy and Argon2id
 * parameters, reading credentials and the client's address off a request,
 * and the exemption lists.
 */
import { HttpServerRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Plugin } from "@garrison/runtime"
import { Effect, Either, Option } from "effect"
import { allowedWhileMustChange, needsCsrf } from "../../src/accounts/authenticator/exemptions.js"
import { clientIp, credentialsOf, isHttps } from "../../src/accounts/http/request.js"
import { lockDurationMs } from "../../src/accounts/lockout/schedule.js"
import { checkPolicy, generatePassword } from "../../src/accounts/passwords/Passwords.js"
import { accountsController, call, signInAdmin } from "./support.js"

const request = (headers: Record<string, string>) => HttpServerRequest.fromWeb(new Request("http://controller/api/x", { headers }))

describe("passwords", () => {
  it("are 8 to 128 characters, counted as code points", () => {
    expect(Either.isLeft(checkPolicy("1234567"))).toBe(true)
    expect(Either.isRight(checkPolicy("12345678"))).toBe(true)
    expect(Either.isRight(checkPolicy("x".repeat(128)))).toBe(true)
    expect(Either.isLeft(checkPolicy("x".repeat(129)))).toBe(true)
    // Four emoji are four characters (eight UTF-16 units): too short.
    expect(Either.isLeft(checkPolicy("🔑🔑🔑🔑"))).toBe(true)
    expect(generatePassword()).toMatch(/^[A-Za-z2-9]{24}$/)
  })

  it.scoped("are stored as Argon2id with m=19456 KiB, t=2, p=1", () =>
    Effect.gen(function* () {
      yield* signInAdmin
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly password_hash: string }>`SELECT password_hash FROM accounts_users`
      expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    }).pipe(Effect.provide(accountsController())))
})

describe("requests", () => {
  it("take the auth-token cookie before Authorization: Bearer", () => {
    expect(credentialsOf(request({ cookie: "auth-token=from-cookie", authorization: "Bearer from-header" }))).toEqual(
      Option.some({ token: "from-cookie", via: "cookie" })
    )
    expect(credentialsOf(request({ authorization: "Bearer from-header" }))).toEqual(Option.some({ token: "from-header", via: "bearer" }))
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

describe("exemptions", () => {
  it("CSRF: only writes, and never the spec's exempt list", () => {
    expect(needsCsrf("GET", "/api/users")).toBe(false)
    expect(needsCsrf("POST", "/api/users")).toBe(true)
    expect(needsCsrf("PUT", "/api/servers/1/backup-config")).toBe(true)
    for (const path of ["/api/auth/login", "/api/auth/logout", "/api/auth/logout/", "/api/store/webhook", "/api/chat/action", "/api/setup/admin"]) {
      expect(needsCsrf("POST", path), path).toBe(false)
    }
    for (const path of ["/api/auth/mfa/setup", "/api/setup/../users", "/api/auth/logout/x", "/api/chat/actions"]) {
      expect(needsCsrf("POST", path), path).toBe(true)
    }
    expect(needsCsrf("DELETE", "/api/auth/logout")).toBe(true)
  })

  it("must-change: only the change itself, logout and health", () => {
    expect(allowedWhileMustChange("POST", "/api/auth/change-password-forced")).toBe(true)
    expect(allowedWhileMustChange("POST", "/api/auth/logout")).toBe(true)
    expect(allowedWhileMustChange("GET", "/api/health")).toBe(true)
    expect(allowedWhileMustChange("GET", "/api/health/ping")).toBe(true)
    expect(allowedWhileMustChange("GET", "/api/auth/logout")).toBe(false)
    expect(allowedWhileMustChange("POST", "/api/auth/mfa/setup")).toBe(false)
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
