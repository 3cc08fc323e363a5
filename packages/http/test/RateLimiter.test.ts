import { describe, expect, it } from "vitest"
import { socketClientIp } from "../src/ClientIp.js"
import { builtInRateLimits, parseRateLimitSetting, rateLimitSettingName } from "@garrison/runtime"
import { Duration, Either, Option } from "effect"
import { resolveRateLimits, SlidingWindowLimiter } from "../src/RateLimiter.js"

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

})

describe("rate-limit scopes and their settings", () => {
  const declared = [
    ...builtInRateLimits,
    { scope: "trust-lookup", limit: 120, window: Duration.minutes(1) }
  ]
  const resolve = (settings: Record<string, string>) => resolveRateLimits(declared, (name) => settings[name])

  it("gives each declared scope its numbers, and exempt none", () => {
    const rules = Either.getOrThrow(resolve({}))
    expect(rules.get("api")).toEqual({ scope: "api", limit: 600, windowMs: 60_000 })
    expect(rules.get("auth")).toEqual({ scope: "auth", limit: 15, windowMs: 900_000 })
    expect(rules.get("chat")).toEqual({ scope: "chat", limit: 60, windowMs: 60_000 })
    expect(rules.get("trust-lookup")).toEqual({ scope: "trust-lookup", limit: 120, windowMs: 60_000 })
    expect(rules.get("exempt")).toBeNull()
    expect(rules.has("tiles")).toBe(false)
  })

  it("RATE_LIMIT_<SCOPE> changes a scope's numbers, or exempts it with off", () => {
    const rules = Either.getOrThrow(
      resolve({ RATE_LIMIT_CHAT: "30/1m", RATE_LIMIT_AUTH: "100 / 2h", RATE_LIMIT_TRUST_LOOKUP: "off", RATE_LIMIT_API: "5/10s" })
    )
    expect(rules.get("chat")).toEqual({ scope: "chat", limit: 30, windowMs: 60_000 })
    expect(rules.get("auth")).toEqual({ scope: "auth", limit: 100, windowMs: 7_200_000 })
    expect(rules.get("trust-lookup")).toBeNull()
    expect(rules.get("api")).toEqual({ scope: "api", limit: 5, windowMs: 10_000 })
    // A window without a number is one of that unit.
    expect(Either.getOrThrow(resolve({ RATE_LIMIT_CHAT: "60/m" })).get("chat")).toEqual({ scope: "chat", limit: 60, windowMs: 60_000 })
  })

  it("a setting that cannot be read is a start-up error naming it and saying the form", () => {
    for (const [value, says] of [
      ["sixty", "is not <count>/<window> such as 60/1m"],
      ["60/1d", "is not <count>/<window>"],
      ["0/1m", "the count must be at least 1"],
      ["10/48h", "the window must be from 1s to 24h"]
    ] as const) {
      const error = Either.getLeft(resolve({ RATE_LIMIT_CHAT: value }))
      expect(Option.isSome(error), value).toBe(true)
      const message = Option.getOrThrow(error).message
      expect(message).toContain("RATE_LIMIT_CHAT")
      expect(message).toContain(says)
    }
  })

  it("names settings after their scope: upper case, dashes as underscores", () => {
    expect(rateLimitSettingName("trust-lookup")).toBe("RATE_LIMIT_TRUST_LOOKUP")
    expect(parseRateLimitSetting("exempt")).toBe("exempt")
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
