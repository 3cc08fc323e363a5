/**
 * ISO-8601 times as the bans store keeps them: UTC `toISOString`, one width,
 * so they compare as text. Times from requests and import files are read by
 * the runtime's strict reader (calendar-checked: `2026-02-30` is refused,
 * not shifted to March): a date alone is midnight UTC, a date-time without
 * a zone is UTC, and the instant must lie between 1970 and the year 10000.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { DURATION_EXAMPLES, readIsoDateTime, readUserDuration } from "@garrison/runtime"

const READ = { dateOnly: true, zoneRequired: false } as const
/** 10000-01-01T00:00:00Z: `toISOString` widens the year past this, and stored times must keep one width. */
const END_MS = 253402300800000

/** Milliseconds of an ISO-8601 date or date-time, or what is wrong with it (in words). */
export const readIso = (input: string): Either.Either<number, string> =>
  Either.flatMap(readIsoDateTime(input.trim(), READ), (ms) =>
    ms < 0 ? Either.left("must be 1970 or later") : ms >= END_MS ? Either.left("must be before the year 10000") : Either.right(ms)
  )

/** Text shaped like a date (`2026-2-30`, `2026-02-30T...`): it gets the strict reader's reason, not the list of forms. */
export const looksLikeDate = (text: string): boolean => /^\s*\d{1,4}-\d/.test(text)

/**
 * An expiry as a person types it: an ISO-8601 date or date-time, or a
 * duration from `now` (`30m`, `12h`, `7d`, `2w`); the instant, or what is
 * wrong with it. Whether it lies ahead is the caller's rule.
 */
export const readExpiry = (input: string, now: number): Either.Either<number, string> =>
  Option.match(readUserDuration(input), {
    onSome: (ms) =>
      ms <= 0
        ? Either.left("a duration must be longer than 0 (leave the field out for a permanent ban)")
        : now + ms >= END_MS
          ? Either.left("must be before the year 10000")
          : Either.right(now + ms),
    onNone: () =>
      Either.mapLeft(readIso(input), (problem) =>
        looksLikeDate(input) ? problem : `expected an ISO-8601 date-time (2026-05-01T12:00:00Z) or ${DURATION_EXAMPLES}`
      )
  })

/** `readIso`, when only whether it is a time matters. */
export const parseIso = (input: string): Option.Option<number> => Either.getRight(readIso(input))

export const iso = (ms: number): string => new Date(ms).toISOString()
