/**
 * An expiry as a person types it where the API asks "until when" (a ban, a
 * priority entry): an ISO-8601 date or date-time read by the strict reader
 * (`readIsoDateTime`: a date alone is midnight UTC, a date-time without a
 * zone is UTC, impossible dates refused), or a duration from now
 * (`readUserDuration`: `30m`, `12h`, `7d`, `2w`, `1d12h`). Stored times keep
 * one width (`toISOString`), so the instant must lie between 1970 and the
 * year 10000. Whether it lies ahead is the caller's rule.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { readIsoDateTime } from "./IsoDateTime.js"
import { DURATION_EXAMPLES, readUserDuration } from "./UserDuration.js"

const READ = { dateOnly: true, zoneRequired: false } as const
/** 10000-01-01T00:00:00Z: `toISOString` widens the year past this, and stored times must keep one width. */
const END_MS = 253402300800000

/** Milliseconds of an ISO-8601 date or date-time (1970 to 9999), or what is wrong with it (in words). */
export const readExpiryDate = (input: string): Either.Either<number, string> =>
  Either.flatMap(readIsoDateTime(input.trim(), READ), (ms) =>
    ms < 0 ? Either.left("must be 1970 or later") : ms >= END_MS ? Either.left("must be before the year 10000") : Either.right(ms)
  )

/** Text shaped like a date (`2026-2-30`, `2026-02-30T...`): it gets the strict reader's reason, not the list of forms. */
export const looksLikeDate = (text: string): boolean => /^\s*\d{1,4}-\d/.test(text)

/** What an expiry may be, for "expected ..." messages. */
export const EXPIRY_FORMS = `an ISO-8601 date-time (2026-05-01T12:00:00Z) or ${DURATION_EXAMPLES}`

/**
 * An expiry: a date or date-time (`readExpiryDate`), or a duration from
 * `now`; the instant, or what is wrong with it. `what` names the thing
 * that expires, in the hint for a zero duration (`leave the field out for
 * a permanent ban`).
 */
export const readExpiry = (input: string, now: number, what = "ban"): Either.Either<number, string> =>
  Option.match(readUserDuration(input), {
    onSome: (ms) =>
      ms <= 0
        ? Either.left(`a duration must be longer than 0 (leave the field out for a permanent ${what})`)
        : now + ms >= END_MS
          ? Either.left("must be before the year 10000")
          : Either.right(now + ms),
    onNone: () => Either.mapLeft(readExpiryDate(input), (problem) => (looksLikeDate(input) ? problem : `expected ${EXPIRY_FORMS}`))
  })
