/**
 * The `expiration` of the in-game ban route: minutes from now (a positive
 * number or a string of digits) or an ISO-8601 date-time in the future;
 * absent, null, `0`, `"perm"` or `"permanent"`: permanent.
 */
import * as Either from "effect/Either"
import { InvalidBan } from "../errors.js"
import { iso, readIso } from "./time.js"

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
  return Either.match(readIso(written), {
    // Something shaped like a date gets the reader's reason (2026-02-30 does not exist); anything else the choices.
    onLeft: (problem) => invalid(/^\s*\d{1,4}-\d/.test(written) ? problem : "minutes from now, an ISO-8601 date-time, or \"perm\""),
    onRight: (at) => (at > now ? Either.right(iso(at)) : invalid("must be in the future"))
  })
}
