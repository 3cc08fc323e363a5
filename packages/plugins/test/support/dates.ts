/**
 * The dates every route that reads a date from a request is tested with:
 * impossible or malformed ones (each with a fragment of the reason the 400
 * must give) and a real leap day. `dateTime` forms suit every date field;
 * the plain `2026-1-5` is for fields that take a date alone.
 */

/** A date-time the calendar refuses, and part of the reason. */
export const refusedDateTimes: ReadonlyArray<readonly [value: string, reason: string]> = [
  ["2026-02-30T12:00:00Z", "2026-02-30 does not exist: February 2026 has 28 days"],
  ["2025-02-29T12:00:00Z", "2025-02-29 does not exist: February 2025 has 28 days (2025 is not a leap year)"],
  ["2026-13-01T12:00:00Z", "month 13 does not exist"],
  ["2026-01-05T24:00:00Z", "hour 24 is out of range"],
  ["2026-1-5T12:00:00Z", "the month and the day two"],
  ["2026-01-05T12:00:00+25:00", "offset +25:00 is out of range"]
]

/** The same for fields that also take a date alone. */
export const refusedDates: ReadonlyArray<readonly [value: string, reason: string]> = [
  ...refusedDateTimes,
  ["2026-02-30", "2026-02-30 does not exist"],
  ["2025-02-29", "2025 is not a leap year"],
  ["2026-13-01", "month 13 does not exist"],
  ["2026-1-5", "the month and the day two"]
]

/** A real leap day, in the past (for filters) and in the future (for expiries). */
export const PAST_LEAP_DAY = "2024-02-29T12:00:00Z"
export const FUTURE_LEAP_DAY = "2096-02-29T12:00:00Z"
