/**
 * One POST /api/auth/login sent through every spelling of its path that
 * Node's HTTP parser lets through, over raw sockets (HTTP clients normalise
 * URLs), from one IP: there is exactly one limit. Each spelling either
 * reaches the login route and shares the auth budget, or is refused with a
 * 400 in the one error shape, or matches no route (a 404 that still counts
 * against the scope of its path). Nothing is a 5xx, and nothing refused
 * reaches the handler.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { rawRequest, type RawResponse } from "@garrison/testkit"
import { serverPort, stubLogins, hostController } from "./fixtures.js"

type Expected = "login" | "refused" | "no-route" | "dashboard"

/** Each spelling with what it is; `note` says why where it is not obvious. */
const spellings: ReadonlyArray<readonly [target: string, expected: Expected, note?: string]> = [
  ["/api/auth/login", "login"],
  // case
  ["/API/AUTH/LOGIN", "login"],
  ["/Api/Auth/Login", "login"],
  ["/api/auth/lOgIn", "login"],
  // escaped unreserved characters, lower- and upper-case hex
  ["/%61pi/auth/login", "login"],
  ["/%41PI/auth/login", "login"],
  ["/api/%61%75%74%68/%6c%6F%67%69%6E", "login"],
  ["/api/auth/logi%6E", "login"],
  // slashes
  ["//api/auth/login", "login"],
  ["/api//auth/login", "login"],
  ["/api/auth//login", "login"],
  ["/api/auth/login/", "login"],
  ["/api/auth/login//", "login"],
  ["///api///auth///login///", "login"],
  // absolute-form: schemes, case, hosts, ports, userinfo
  ["http://x/api/auth/login", "login"],
  ["https://x/api/auth/login", "login"],
  ["HTTP://X/api/auth/login", "login"],
  ["hTtPs://example.com:8443/API/auth/login/", "login"],
  ["http://127.0.0.1:1//api//auth//login", "login"],
  ["http://[::1]:80/api/auth/%6Cogin", "login"],
  ["http://user:pw@x/api/auth/login", "login"],
  // queries are kept, the route is the same
  ["/api/auth/login?", "login"],
  ["/api/auth/login?x=1&y=%C3%A4", "login"],
  ["/api/auth/login/?next=/api/auth/login", "login"],
  ["http://x/api/auth/login?a=%2F..%2F", "login"],
  // escapes of reserved characters are kept: another path, under the auth scope
  // No route has these paths: they count against the api scope, whatever they look like (a scope belongs to a route).
  ["/api/auth/login%3F", "no-route", "%3F is a '?' inside the segment, not a query"],
  ["/api/auth/login%20", "no-route"],
  ["/api/auth/log%25in", "no-route"],
  ["/api/auth/login~", "no-route"],
  ["/api/auth", "no-route"],
  ["/API/AUTH/", "no-route"],
  // ";" and "#" (routers cut the path there)
  ["/api/auth/login;jsessionid=1", "refused"],
  ["/api;x/auth/login", "refused"],
  ["/api/auth/login#frag", "refused"],
  ["/api/auth/login?x=1#frag", "refused"],
  // dot segments, plain and escaped
  ["/api/auth/../auth/login", "refused"],
  ["/api/./auth/login", "refused"],
  ["/x/../api/auth/login", "refused"],
  ["/api/auth/login/.", "refused"],
  ["/api/auth/login/..", "refused"],
  ["/api/%2e/auth/login", "refused"],
  ["/api/x/%2E%2E/auth/login", "refused"],
  ["/api/x/.%2e/auth/login", "refused"],
  ["http://x/api/x/../auth/login", "refused"],
  // escaped slash and backslash
  ["/api%2Fauth%2Flogin", "refused"],
  ["/api/auth%2flogin", "refused"],
  ["/api\\auth\\login", "refused"],
  ["/api/auth/%5Clogin", "refused"],
  // malformed escapes
  ["/api/auth/login%", "refused"],
  ["/api/auth/login%4", "refused"],
  ["/api/auth/log%G9in", "refused"],
  ["/api/auth/login?x=%zz", "refused"],
  // escapes that are not UTF-8: overlong, surrogate, stray, truncated, past U+10FFFF
  ["/api/auth/%C0%AFlogin", "refused"],
  ["/api/auth/login%C0%80", "refused"],
  ["/api/auth/login%E0%80%AF", "refused"],
  ["/api/auth/login%ED%A0%80", "refused"],
  ["/api/auth/login%F4%90%80%80", "refused"],
  ["/api/auth/login%FF", "refused"],
  ["/api/auth/login%80", "refused"],
  ["/api/auth/login%C3", "refused"],
  ["/api/auth/login?x=%E2%82", "refused"],
  ["/api/auth/login?x=%C0%AF", "refused"],
  // NUL and other control characters, escaped (Node's parser refuses them raw)
  ["/api/auth/login%00", "refused"],
  ["/api/auth/%00/login", "refused"],
  ["/api/auth/login?x=%00", "refused"],
  ["/api/auth/login%09", "refused"],
  ["/api/auth/login%0A", "refused"],
  ["/api/auth/login%0d%0aX-Injected:%201", "refused"],
  ["/api/auth/login%7F", "refused"],
  ["/api/auth/login%C2%85", "refused", "U+0085, a C1 control"],
  // not origin-form, not absolute http(s)
  ["*", "refused"],
  ["ftp://x/api/auth/login", "refused"],
  ["http:///api/auth/login", "refused"],
  // outside /api: the web dashboard's, which takes GET and HEAD only (405)
  ["http://x", "dashboard"],
  ["/auth/login", "dashboard"]
]

const AUTH_LIMIT = 15
const IP = "10.20.30.40"

const post = (port: number, target: string): Effect.Effect<RawResponse> =>
  Effect.promise(() => rawRequest({ port, method: "POST", target, headers: { "x-forwarded-for": IP } }))

const parsed = (response: RawResponse): Record<string, unknown> => JSON.parse(response.body) as Record<string, unknown>

/** The one error shape: `error` and `message` strings, maybe `details`, nothing else. */
const expectErrorShape = (response: RawResponse, code: string, target: string) => {
  expect(response.headers["content-type"] ?? `none; status ${response.status}: ${response.body}`, target).toMatch(/^application\/json/)
  const body = parsed(response)
  expect(Object.keys(body).filter((k) => k !== "details").sort(), target).toEqual(["error", "message"])
  expect(body.error, target).toBe(code)
  expect(typeof body.message, target).toBe("string")
  return body
}

describe("hostile spellings of the login path", () => {
  it.scoped("share one rate limit; refused spellings get 400 and never reach the handler", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      stubLogins.count = 0

      // Round 1: every spelling once. Every spelling of the login route spends its one auth budget.
      const first: Array<{ readonly target: string; readonly expected: Expected; readonly response: RawResponse }> = []
      for (const [target, expected] of spellings) first.push({ target, expected, response: yield* post(port, target) })

      for (const { target, expected, response } of first) {
        expect(response.status, target).toBeLessThan(500)
        if (expected === "refused") {
          expect(response.status, target).toBe(400)
          const body = expectErrorShape(response, "invalid-request", target)
          expect(body.message, target).toMatch(/^invalid request target: /)
        } else if (expected === "login") {
          expect([200, 429], target).toContain(response.status)
        } else if (expected === "dashboard") {
          expect(response.status, target).toBe(405)
          expectErrorShape(response, "method-not-allowed", target)
          expect(response.headers["allow"], target).toBe("GET, HEAD")
        } else {
          expect(response.status, target).toBe(404)
        }
        if (response.status === 429) {
          expectErrorShape(response, "rate-limited", target)
          expect(Number(response.headers["retry-after"]), target).toBeGreaterThan(0)
        }
        if (response.status === 404) expectErrorShape(response, "not-found", target)
      }

      // Exactly one budget of 15 was spent across every spelling of the login route, and only logins reached the handler.
      const authScoped = first.filter((r) => r.expected === "login")
      expect(authScoped.length).toBeGreaterThan(AUTH_LIMIT)
      expect(authScoped.filter((r) => r.response.status !== 429)).toHaveLength(AUTH_LIMIT)
      const served = first.filter((r) => r.response.status === 200)
      expect(served.every((r) => r.expected === "login")).toBe(true)
      expect(stubLogins.count).toBe(served.length)
      expect(stubLogins.count).toBeLessThanOrEqual(AUTH_LIMIT)

      // Round 2: every spelling that routes is now limited; refused ones are still refused, before any limit.
      for (const [target, expected] of spellings) {
        const response = yield* post(port, target)
        if (expected === "login") {
          expect(response.status, target).toBe(429)
          expect(response.headers["retry-after"], target).toBe("900")
        } else if (expected === "refused") {
          expect(response.status, target).toBe(400)
        } else if (expected === "dashboard") {
          expect(response.status, target).toBe(405)
        } else {
          expect(response.status, target).toBe(404)
        }
      }
      expect(stubLogins.count).toBeLessThanOrEqual(AUTH_LIMIT)

      // It is the auth limit, not a block of the IP: another scope still answers.
      const ping = yield* Effect.promise(() => rawRequest({ port, method: "GET", target: "/API//health/ping/", headers: { "x-forwarded-for": IP } }))
      expect(ping.status).toBe(200)

      // The window slides: 15 minutes on, the budget is back, for every spelling.
      yield* TestClock.adjust("15 minutes")
      expect((yield* post(port, "HTTP://X//API/%61uth/login/")).status).toBe(200)
    }).pipe(Effect.provide(hostController()))
  , 60_000)

  it.scoped("404 probing under /api counts against the api scope", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const probe = (i: number) =>
        Effect.promise(() => rawRequest({ port, method: "GET", target: `/API//no-such-${i}/`, headers: { "x-forwarded-for": IP } }))
      for (let i = 0; i < 600; i++) expect((yield* probe(i)).status).toBe(404)
      const limited = yield* probe(600)
      expect(limited.status).toBe(429)
      // Paths that only look exempt are not: the tiles exemption belongs to the tiles route.
      expect((yield* Effect.promise(() => rawRequest({ port, method: "GET", target: "/api/maps/tiles/1/2", headers: { "x-forwarded-for": IP } }))).status).toBe(429)
      // The real tiles route stays exempt.
      expect((yield* Effect.promise(() => rawRequest({ port, method: "GET", target: "/API/maps//tiles/3/", headers: { "x-forwarded-for": IP } }))).status).toBe(200)
    }).pipe(Effect.provide(hostController()))
  , 60_000)

  it.scoped("the handler, the router and the request log see the canonical target", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const seen = yield* Effect.promise(() => rawRequest({ port, method: "GET", target: "hTTp://x//API/seen/%41b%7c%25%c3%a4/?q=%c3%a4&r=|" }))
      expect(seen.status).toBe(200)
      expect(parsed(seen)).toEqual({ url: "/API/seen/Ab%7C%25%C3%A4?q=%c3%a4&r=|", id: "Ab|%ä" })
      const missing = yield* Effect.promise(() => rawRequest({ port, method: "GET", target: "http://x/api//nothing/%7e/" }))
      expect(parsed(missing)).toEqual({ error: "not-found", message: "no route for GET /api/nothing/~" })
    }).pipe(Effect.provide(hostController()))
  )
})
