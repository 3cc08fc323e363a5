/**
 * Per-IP sliding-window rate limits, as the spec's Limits table sets them.
 * An exact sliding log: each key keeps the times of its accepted requests
 * in a ring buffer (at most `limit` of them), so a window of N requests
 * costs at most N numbers per active IP. Plain functions over numbers: this
 * runs on every request.
 */

export interface RateLimitRule {
  readonly scope: string
  readonly limit: number
  readonly windowMs: number
}

/** Most specific first; `null` means exempt. */
export const defaultRules = {
  tiles: null,
  auth: { scope: "auth", limit: 15, windowMs: 15 * 60_000 },
  chat: { scope: "chat", limit: 60, windowMs: 60_000 },
  api: { scope: "api", limit: 600, windowMs: 60_000 }
} as const

/** Whether `path` is `prefix` itself or below it (`/api` and `/api/...`, not `/apix`). */
export const isUnder = (path: string, prefix: string): boolean =>
  path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 0x2f)

/**
 * Which rule applies to a (lower-case) path: `undefined` outside `/api`,
 * `null` where exempt.
 */
export const ruleFor = (path: string): RateLimitRule | null | undefined => {
  if (!isUnder(path, "/api")) return undefined
  if (isUnder(path, "/api/maps/tiles")) return defaultRules.tiles
  if (isUnder(path, "/api/auth")) return defaultRules.auth
  if (isUnder(path, "/api/chat")) return defaultRules.chat
  return defaultRules.api
}

/**
 * The rule of a route, from its declared path template, so a request counts
 * against the route the router matched however its path was spelled. The
 * one place to read an endpoint's own declared scope, once endpoints can
 * declare one.
 */
export const scopeOf = (route: { readonly path: string }): RateLimitRule | null | undefined => ruleFor(route.path.toLowerCase())

/**
 * The rule for a request no route matched, from its canonical path
 * (lower-cased, as the routers match): 404 probing counts too. Nothing is
 * exempt without a route.
 */
export const unroutedRuleFor = (canonicalPath: string): RateLimitRule | undefined => {
  const rule = ruleFor(canonicalPath.toLowerCase())
  return rule === null ? defaultRules.api : rule
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
