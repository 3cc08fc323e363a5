/**
 * ISO-8601 times as the bans store keeps them: UTC `toISOString`, one width,
 * so they compare as text. Times from requests and import files are read by
 * the runtime's strict reader (calendar-checked: `2026-02-30` is refused,
 * not shifted to March): a date alone is midnight UTC, a date-time without
 * a zone is UTC, and the instant must lie between 1970 and the year 10000.
 */
import * as Either from "effect/Either"
import type * as Option from "effect/Option"
import { readIsoDateTime } from "@garrison/runtime"

const READ = { dateOnly: true, zoneRequired: false } as const
/** 10000-01-01T00:00:00Z: `toISOString` widens the year past this, and stored times must keep one width. */
const END_MS = 253402300800000

/** Milliseconds of an ISO-8601 date or date-time, or what is wrong with it (in words). */
export const readIso = (input: string): Either.Either<number, string> =>
  Either.flatMap(readIsoDateTime(input.trim(), READ), (ms) =>
    ms < 0 ? Either.left("must be 1970 or later") : ms >= END_MS ? Either.left("must be before the year 10000") : Either.right(ms)
  )

/** `readIso`, when only whether it is a time matters. */
export const parseIso = (input: string): Option.Option<number> => Either.getRight(readIso(input))

export const iso = (ms: number): string => new Date(ms).toISOString()
