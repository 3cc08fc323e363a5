/**
 * Per-IP sliding-window rate limits. Which scope a request counts against
 * is its route's own declaration (`RateLimit` on the endpoint, default
 * `api`); a request no route matches counts against `api`. An exact
 * sliding log: each key keeps the times of its accepted requests in a ring
 * buffer (at most `limit` of them), so a window of N requests costs at most
 * N numbers per active IP. Plain functions over numbers: this runs on every
 * request.
 */
import {
  EXEMPT_SCOPE,
  parseRateLimitSetting,
  type RateLimitDeclaration,
  type RateLimitRule,
  rateLimitSettingName,
  StartupError
} from "@garrison/runtime"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"

export type { RateLimitRule } from "@garrison/runtime"

/**
 * Each scope's rule, from the declared scopes (built-in and plugins') and
 * the `RATE_LIMIT_<SCOPE>` settings: `null` for an exempt scope. A setting
 * that cannot be read is a start-up error naming it.
 */
export const resolveRateLimits = (
  declared: ReadonlyArray<RateLimitDeclaration>,
  setting: (name: string) => string | undefined
): Either.Either<ReadonlyMap<string, RateLimitRule | null>, StartupError> => {
  const rules = new Map<string, RateLimitRule | null>([[EXEMPT_SCOPE, null]])
  for (const scope of declared) {
    const name = rateLimitSettingName(scope.scope)
    const value = setting(name)
    if (value === undefined) {
      rules.set(scope.scope, { scope: scope.scope, limit: scope.limit, windowMs: Duration.toMillis(scope.window) })
      continue
    }
    const parsed = parseRateLimitSetting(value)
    if (parsed === "exempt") rules.set(scope.scope, null)
    else if ("problem" in parsed) return Either.left(new StartupError({ reason: "config", message: `bad configuration: ${name}: ${parsed.problem}` }))
    else rules.set(scope.scope, { scope: scope.scope, ...parsed })
  }
  return Either.right(rules)
}

export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number }

const ALLOWED: RateDecision = { allowed: true }

class Window {
  times: Float64Array
  start = 0
  count = 0
  constructor(capacity: number) {
    this.times = new Float64Array(capacity)
  }
}

export class SlidingWindowLimiter {
  private readonly windows = new Map<string, Window>()

  /** `maxKeys` bounds memory: the least recently seen key is forgotten first. */
  constructor(private readonly maxKeys = 100_000) {}

  hit(rule: RateLimitRule, ip: string, now: number): RateDecision {
    const key = `${rule.scope}|${ip}`
    let window = this.windows.get(key)
    if (window === undefined) {
      if (this.windows.size >= this.maxKeys) this.evictOldest()
      window = new Window(Math.min(rule.limit, 16))
    } else {
      // Re-insert so Map order tracks recency for eviction.
      this.windows.delete(key)
    }
    this.windows.set(key, window)

    const cutoff = now - rule.windowMs
    while (window.count > 0 && window.times[window.start]! <= cutoff) {
      window.start = (window.start + 1) % window.times.length
      window.count--
    }
    if (window.count >= rule.limit) {
      const oldest = window.times[window.start]!
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + rule.windowMs - now) / 1000)) }
    }
    if (window.count === window.times.length) grow(window, rule.limit)
    window.times[(window.start + window.count) % window.times.length] = now
    window.count++
    return ALLOWED
  }

  get trackedKeys(): number {
    return this.windows.size
  }

  private evictOldest() {
    const first = this.windows.keys().next()
    if (!first.done) this.windows.delete(first.value)
  }
}

const grow = (window: Window, limit: number) => {
  const next = new Float64Array(Math.min(limit, window.times.length * 2))
  for (let i = 0; i < window.count; i++) next[i] = window.times[(window.start + i) % window.times.length]!
  window.times = next
  window.start = 0
}
