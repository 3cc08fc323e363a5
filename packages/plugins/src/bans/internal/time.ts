/** ISO-8601 times as the bans store keeps them: UTC `toISOString`, one width, so they compare as text. */
import * as Option from "effect/Option"

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/

/** Milliseconds of an ISO-8601 date or date-time (a date-time without a zone is UTC). */
export const parseIso = (input: string): Option.Option<number> => {
  const text = input.trim()
  if (!ISO.test(text)) return Option.none()
  const zoned = text.includes("T") && !/(Z|[+-]\d{2}:\d{2})$/.test(text) ? `${text}Z` : text
  const ms = Date.parse(zoned)
  return Number.isFinite(ms) && ms >= 0 && ms < 253402300800000 ? Option.some(ms) : Option.none()
}

export const iso = (ms: number): string => new Date(ms).toISOString()
