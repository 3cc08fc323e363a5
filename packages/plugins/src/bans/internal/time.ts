/**
 * ISO-8601 times as the bans store keeps them: UTC `toISOString`, one width,
 * so they compare as text. Times from requests and import files are read by
 * the runtime's expiry reader (`readExpiry`, `readExpiryDate`: the strict
 * ISO-8601 reader, calendar-checked, so `2026-02-30` is refused, not
 * shifted to March; a date alone is midnight UTC, a date-time without a
 * zone is UTC, and the instant must lie between 1970 and the year 10000),
 * the same one the priority queue uses.
 */
import * as Either from "effect/Either"
import type * as Option from "effect/Option"
import { looksLikeDate, readExpiry, readExpiryDate } from "@garrison/runtime"

/** Milliseconds of an ISO-8601 date or date-time, or what is wrong with it (in words). */
export const readIso = readExpiryDate

export { looksLikeDate, readExpiry }

/** `readIso`, when only whether it is a time matters. */
export const parseIso = (input: string): Option.Option<number> => Either.getRight(readIso(input))

export const iso = (ms: number): string => new Date(ms).toISOString()
