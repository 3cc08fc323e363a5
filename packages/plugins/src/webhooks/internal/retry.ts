/**
 * What an attempt's outcome means for its delivery, and when the next
 * attempt comes:
 *
 * - a 2xx answer: delivered;
 * - a 5xx, 408 or 429 answer, no answer in time, or no connection: tried
 *   again, after 10 s, 20 s, 40 s, ... doubling up to 1 hour between
 *   attempts, each wait ±20 % at random (so targets that failed together
 *   are not hit together again); a 429 (or 503) waits what its
 *   `Retry-After` header or a chat platform's `retry_after` says instead;
 * - any other answer (a 3xx, whose redirect is not followed; a 4xx) and a
 *   refused address: final.
 *
 * Retries stop once the delivery is as old as the retry window
 * (`WEBHOOKS_DISABLE_AFTER`, 24 hours): the last attempt falls at its end,
 * and a failure then is final.
 */
import type { OutboundResult } from "./outbound.js"

export const BASE_DELAY_MS = 10_000
export const MAX_DELAY_MS = 60 * 60 * 1000
/** The wait a `Retry-After` may ask for, at most (the retry window ends sooner anyway). */
export const MAX_RETRY_AFTER_MS = 6 * 60 * 60 * 1000

/** The wait after failed attempt number `attempt` (1 for the first): `random` in [0, 1) spreads it ±20 %. */
export const backoffMs = (attempt: number, random: number): number => {
  const plain = Math.min(BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1), MAX_DELAY_MS)
  return Math.round(plain * (0.8 + 0.4 * random))
}

/** A `Retry-After` header (seconds, or an HTTP date) in milliseconds from `now`. */
export const retryAfterHeaderMs = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000)
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** A chat platform's 429 body, `{"retry_after": 1.5, ...}` (seconds), in milliseconds. */
export const retryAfterBodyMs = (body: Buffer): number | undefined => {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"))
    const seconds = typeof parsed === "object" && parsed !== null ? (parsed as { readonly retry_after?: unknown }).retry_after : undefined
    return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined
  } catch {
    return undefined
  }
}

export type Verdict =
  | { readonly _tag: "Delivered" }
  /** Try again; `waitMs` when the target said how long to wait. */
  | { readonly _tag: "Retry"; readonly reason: string; readonly waitMs: number | undefined }
  | { readonly _tag: "Final"; readonly reason: string }

const RETRIED_4XX = new Set([408, 429])

export const verdictOf = (result: OutboundResult | { readonly _tag: "TimedOut"; readonly afterMs: number }, now: number): Verdict => {
  switch (result._tag) {
    case "TimedOut":
      return { _tag: "Retry", reason: `no answer within ${Math.round(result.afterMs / 1000)} s`, waitMs: undefined }
    case "Refused":
      return { _tag: "Final", reason: `refused: ${result.reason} (set WEBHOOKS_ALLOW_PRIVATE=true to allow private addresses)` }
    case "Unreachable":
      return { _tag: "Retry", reason: result.reason, waitMs: undefined }
    case "Answered": {
      const status = result.status
      if (status >= 200 && status < 300) return { _tag: "Delivered" }
      if (status === 429 || status === 503) {
        const asked = retryAfterBodyMs(result.body) ?? retryAfterHeaderMs(result.retryAfter, now)
        const waitMs = asked === undefined ? undefined : Math.min(asked, MAX_RETRY_AFTER_MS)
        return { _tag: "Retry", reason: `answered ${status}`, waitMs }
      }
      if (status >= 500 || RETRIED_4XX.has(status)) return { _tag: "Retry", reason: `answered ${status}`, waitMs: undefined }
      if (status >= 300 && status < 400) return { _tag: "Final", reason: `answered ${status}: redirects are not followed` }
      return { _tag: "Final", reason: `answered ${status}` }
    }
  }
}
