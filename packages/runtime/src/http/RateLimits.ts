/**
 * Rate-limit scopes: per client IP, a number of requests in a sliding
 * window. The spec's Limits are built in; a plugin declares more
 * (`Plugin.make({ rateLimits: [{ scope: "trust", limit: 120, window: "1 minute" }] })`),
 * and a setting changes any scope's numbers:
 * `RATE_LIMIT_<SCOPE>=<count>/<window>` (`RATE_LIMIT_CHAT=60/1m`,
 * `RATE_LIMIT_AUTH=30/15m`; windows in s, m or h), or `off` to exempt it.
 */
import * as Duration from "effect/Duration"

export interface RateLimitDeclaration {
  /** Lower-case letters, digits and dashes; `RATE_LIMIT_<SCOPE>` (dashes as `_`) overrides it. */
  readonly scope: string
  readonly limit: number
  readonly window: Duration.DurationInput
  /** What the scope covers, for the OpenAPI document and logs. */
  readonly description?: string
}

/** A scope's numbers as the gate applies them; `null` limit: exempt. */
export interface RateLimitRule {
  readonly scope: string
  readonly limit: number
  readonly windowMs: number
}

export const EXEMPT_SCOPE = "exempt"

export const builtInRateLimits: ReadonlyArray<RateLimitDeclaration> = [
  { scope: "api", limit: 600, window: Duration.minutes(1), description: "every /api route unless it says otherwise" },
  { scope: "auth", limit: 15, window: Duration.minutes(15), description: "sign-in, MFA and password changes" },
  { scope: "chat", limit: 60, window: Duration.minutes(1), description: "the chat bot's endpoints" }
]

export const SCOPE_NAME = /^[a-z][a-z0-9-]{0,31}$/

/** The setting that overrides a scope: `RATE_LIMIT_CHAT`, `RATE_LIMIT_TRUST_LOOKUP`. */
export const settingName = (scope: string): string => `RATE_LIMIT_${scope.toUpperCase().replace(/-/g, "_")}`

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000 }
const SETTING = /^\s*(\d{1,7})\s*\/\s*(\d{1,5})?\s*([smh])\s*$/i

/**
 * A setting's value: `{limit, windowMs}`, `"exempt"` for `off`, or a
 * message saying what is wrong with it.
 */
export const parseRateLimitSetting = (
  value: string
): { readonly limit: number; readonly windowMs: number } | "exempt" | { readonly problem: string } => {
  if (/^\s*(off|exempt|none)\s*$/i.test(value)) return "exempt"
  const match = SETTING.exec(value)
  if (match === null) return { problem: `"${value}" is not <count>/<window> such as 60/1m (windows in s, m or h), nor off` }
  const limit = Number(match[1])
  const windowMs = Number(match[2] ?? "1") * UNIT_MS[match[3]!.toLowerCase()]!
  if (limit < 1) return { problem: `"${value}": the count must be at least 1 (use off to exempt the scope)` }
  if (windowMs < 1_000 || windowMs > 86_400_000) return { problem: `"${value}": the window must be from 1s to 24h` }
  return { limit, windowMs }
}

/** "60 per 1m", as the OpenAPI document and logs say a rule. */
export const describeRule = (rule: RateLimitRule | null): string =>
  rule === null ? "exempt" : `${rule.limit} per ${Duration.format(Duration.millis(rule.windowMs))}`
