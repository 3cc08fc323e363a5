import { describe, expect, it } from "vitest"
import { socketClientIp } from "../src/ClientIp.js"
import { defaultRules, ruleFor, scopeOf, SlidingWindowLimiter, unroutedRuleFor } from "../src/RateLimiter.js"

const minute = { scope: "api", limit: 3, windowMs: 60_000 }

describe("SlidingWindowLimiter", () => {
  it("slides: a slot frees exactly when the oldest request leaves the window", () => {
    const limiter = new SlidingWindowLimiter()
    expect(limiter.hit(minute, "a", 0).allowed).toBe(true)
    expect(limiter.hit(minute, "a", 20_000).allowed).toBe(true)
    expect(limiter.hit(minute, "a", 40_000).allowed).toBe(true)
    expect(limiter.hit(minute, "a", 59_999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.hit(minute, "a", 60_000).allowed).toBe(true)
    expect(limiter.hit(minute, "a", 60_001)).toEqual({ allowed: false, retryAfterSeconds: 20 })
  })

  it("keeps scopes and IPs apart", () => {
    const limiter = new SlidingWindowLimiter()
    for (let i = 0; i < 3; i++) limiter.hit(minute, "a", 0)
    expect(limiter.hit(minute, "a", 1).allowed).toBe(false)
    expect(limiter.hit(minute, "b", 1).allowed).toBe(true)
    expect(limiter.hit({ ...minute, scope: "chat" }, "a", 1).allowed).toBe(true)
  })

  it("bounds memory by forgetting the least recently seen IP", () => {
    const limiter = new SlidingWindowLimiter(100)
    for (let i = 0; i < 1000; i++) limiter.hit(minute, `10.0.${i >> 8}.${i & 255}`, i)
    expect(limiter.trackedKeys).toBe(100)
  })

  it("picks the most specific scope for a path", () => {
    expect(ruleFor("/api/auth/login")?.limit).toBe(15)
    expect(ruleFor("/api/chat/action")?.limit).toBe(60)
    expect(ruleFor("/api/maps/tiles/chernarus/sat/3/1/2.webp")).toBeNull()
    expect(ruleFor("/api/servers")?.limit).toBe(600)
    expect(ruleFor("/.well-known/service-trust.json")).toBeUndefined()
    // Whole segments: "/api" is under /api, "/apix" is not; "/api/auth" is the auth scope.
    expect(ruleFor("/api")?.limit).toBe(600)
    expect(ruleFor("/apix/auth/login")).toBeUndefined()
    expect(ruleFor("/api/auth")?.limit).toBe(15)
    expect(ruleFor("/api/authx")?.limit).toBe(600)
  })

  it("takes a route's scope from its declared template, parameters and case included", () => {
    expect(scopeOf({ path: "/api/auth/login" })).toBe(defaultRules.auth)
    expect(scopeOf({ path: "/api/Auth/MFA/setup" })).toBe(defaultRules.auth)
    expect(scopeOf({ path: "/api/maps/tiles/:z" })).toBeNull()
    expect(scopeOf({ path: "/api/chat/*" })).toBe(defaultRules.chat)
    expect(scopeOf({ path: "/api/servers/:id/logs" })).toBe(defaultRules.api)
    expect(scopeOf({ path: "/.well-known/service-trust.json" })).toBeUndefined()
  })

  it("counts a request no route matched by its canonical path, lower-cased, never exempt", () => {
    expect(unroutedRuleFor("/API/AUTH/nothing")).toBe(defaultRules.auth)
    expect(unroutedRuleFor("/Api/maps/tiles/a/b/c")).toBe(defaultRules.api)
    expect(unroutedRuleFor("/API")).toBe(defaultRules.api)
    expect(unroutedRuleFor("/favicon.ico")).toBeUndefined()
  })
})

describe("socketClientIp", () => {
  it("ignores X-Forwarded-For unless proxies are trusted", () => {
    expect(socketClientIp("127.0.0.1", "1.2.3.4", 0)).toBe("127.0.0.1")
  })
  it("counts trusted hops from the right, so a client cannot forge its address", () => {
    expect(socketClientIp("127.0.0.1", "6.6.6.6, 1.2.3.4", 1)).toBe("1.2.3.4")
    expect(socketClientIp("127.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.1", 2)).toBe("1.2.3.4")
    expect(socketClientIp("127.0.0.1", undefined, 1)).toBe("127.0.0.1")
  })
})
