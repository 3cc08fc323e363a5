/**
 * The `expiration` of the in-game ban route: minutes from now (a positive
 * number or a string of digits), a duration from now (`30m`, `12h`, `7d`,
 * `2w`) or an ISO-8601 date-time in the future; absent, null, `0`, `"perm"`
 * or `"permanent"`: permanent.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { DURATION_EXAMPLES, readUserDuration } from "@garrison/runtime"
import { InvalidBan } from "../errors.js"
import { iso, looksLikeDate, readExpiry } from "./time.js"

/** Ten years: longer is as good as permanent, and keeps dates in range. */
export const MAX_MINUTES = 10 * 365 * 24 * 60

const invalid = (message: string) => Either.left(new InvalidBan({ field: "expiration", message: `expiration: ${message}` }))

export const expirationToIso = (
  expiration: number | string | null | undefined,
  now: number
): Either.Either<string | null, InvalidBan> => {
  if (expiration === undefined || expiration === null) return Either.right(null)
  const text = typeof expiration === "string" ? expiration.trim().toLowerCase() : undefined
  if (text === "perm" || text === "permanent") return Either.right(null)
  const minutes = typeof expiration === "number" ? expiration : text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined
  if (minutes !== undefined) {
    if (!Number.isFinite(minutes) || minutes < 0) return invalid("minutes must be a positive number")
    if (minutes === 0) return Either.right(null)
    if (minutes > MAX_MINUTES) return invalid(`at most ${MAX_MINUTES} minutes (use "perm" for a permanent ban)`)
    return Either.right(iso(now + Math.round(minutes * 60_000)))
  }
  const written = String(expiration)
  const isDuration = Option.isSome(readUserDuration(written))
  return Either.match(readExpiry(written, now), {
    // A date or a duration gets the reader's reason (2026-02-30 does not exist); anything else the choices.
    onLeft: (problem) =>
      invalid(
        looksLikeDate(written) || isDuration
          ? problem
          : `expected minutes from now (a number), ${DURATION_EXAMPLES}, an ISO-8601 date-time, or "perm"`
      ),
    onRight: (at) =>
      isDuration && at - now > MAX_MINUTES * 60_000
        ? invalid(`at most ten years (${MAX_MINUTES} minutes); use "perm" for a permanent ban`)
        : at > now
          ? Either.right(iso(at))
          : invalid("must be in the future")
  })
}
