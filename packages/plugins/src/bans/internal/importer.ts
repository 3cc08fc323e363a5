/**
 * Checking an import file entry by entry: each entry becomes a row to add,
 * a skip (the player already has a ban, stored or earlier in the file) or
 * an error naming its index. Pure, so one bad entry never costs the others.
 *
 * Written for 100,000 entries in one synchronous pass: each entry is checked
 * exactly once (the route does not decode the entries beforehand), by plain
 * tests rather than a Schema decoder, and the accepted rows go straight into
 * one flat parameter array in INSERT column order, ready to be cut into
 * multi-row INSERTs.
 */
import { hasNul, NUL_RULE, parsePlatformId } from "@garrison/runtime"
import * as Either from "effect/Either"
import { randomUUID } from "node:crypto"
import { ImportError, MAX_NAME_LENGTH, MAX_REASON_LENGTH } from "../contract/Api.js"
import { iso, readIso } from "./time.js"

export interface Existing {
  /** Players with a ban in force now. */
  readonly activePlayers: ReadonlySet<string>
  /** Every stored ban id. */
  readonly ids: ReadonlySet<string>
}

/** The INSERT columns, in the order of `Plan.params`. */
export const IMPORT_COLUMNS = ["id", "platform_id", "player_name", "reason", "banned_by", "banned_at", "expires_at", "source"] as const
export const IMPORT_WIDTH = IMPORT_COLUMNS.length

export interface Plan {
  /** The rows to add, flat: `IMPORT_WIDTH` values per row, in `IMPORT_COLUMNS` order. */
  readonly params: ReadonlyArray<string | null>
  /** Rows to add (`params.length / IMPORT_WIDTH`). */
  readonly added: number
  readonly skipped: number
  readonly errors: ReadonlyArray<ImportError>
}

export const IMPORT_SOURCE = "import"

const STEAM64_DIGITS = /^\d{17}$/
/** `76561197960265728 + n` with `0 < n < 2^32`, as 17-digit text: between these (exclusive), compared as strings. */
const STEAM64_ABOVE = "76561197960265728"
const STEAM64_BELOW = "76561202255233024"
const LINE_BREAK = /[\r\n]/

/** Why an entry cannot be imported (only made for bad entries). */
class Failure {
  constructor(readonly error: string) {}
}

/**
 * Steam64, Steam2 or Steam3 to Steam64, as `parsePlatformId`; the common
 * case (a Steam64 already, as every export holds) without its BigInt work.
 */
const platformIdOf = (raw: string): string | Failure => {
  if (raw.length === 17 && STEAM64_DIGITS.test(raw) && raw > STEAM64_ABOVE && raw < STEAM64_BELOW) return raw
  const parsed = parsePlatformId(raw)
  return Either.isRight(parsed) ? parsed.right : new Failure(`platformId: ${parsed.left.message}`)
}

/** A trimmed single line of 1 to `max` characters, or why not. */
const text = (value: unknown, field: string, max: number): string | Failure => {
  if (typeof value !== "string") return new Failure(`${field}: required, a string`)
  const trimmed = value.trim()
  if (trimmed.length === 0) return new Failure(`${field}: must not be empty`)
  if (trimmed.length > max) return new Failure(`${field}: must be at most ${max} characters`)
  if (LINE_BREAK.test(trimmed)) return new Failure(`${field}: must be a single line`)
  if (hasNul(trimmed)) return new Failure(`${field}: ${NUL_RULE}`)
  return trimmed
}

/** A UUID (any case) in lower case, as ban ids are kept; undefined when `s` is not one. */
const uuidOf = (s: string): string | undefined => {
  if (s.length !== 36) return undefined
  let upper = false
  for (let i = 0; i < 36; i++) {
    const code = s.charCodeAt(i)
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 45) return undefined
    } else if (code >= 65 && code <= 70) upper = true
    else if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return undefined
  }
  return upper ? s.toLowerCase() : s
}

const isDigit = (code: number) => code >= 48 && code <= 57
const digits = (s: string, from: number, to: number): number => {
  let n = 0
  for (let i = from; i < to; i++) {
    const code = s.charCodeAt(i)
    if (!isDigit(code)) return -1
    n = n * 10 + code - 48
  }
  return n
}
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * True when `s` is already a stored time: `YYYY-MM-DDTHH:MM:SS.mmmZ` (what
 * `toISOString` writes, as every export holds) naming a real instant from
 * 1970 on. Those are kept as sent, with no Date work; anything else goes
 * through the strict reader (`readIso`) and is stored re-formatted.
 */
const isStoredTime = (s: string): boolean => {
  if (s.length !== 24 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return false
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90) return false
  const year = digits(s, 0, 4)
  const month = digits(s, 5, 7)
  const day = digits(s, 8, 10)
  if (year < 1970 || month < 1 || month > 12 || day < 1) return false
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  if (day > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return false
  const hour = digits(s, 11, 13)
  const minute = digits(s, 14, 16)
  const second = digits(s, 17, 19)
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && digits(s, 20, 23) >= 0
}

/** The stored text of a present (not null or undefined) time. */
const time = (value: unknown, field: string): string | Failure => {
  if (typeof value !== "string") return new Failure(`${field}: an ISO-8601 date-time, e.g. 2025-01-31T12:00:00Z`)
  if (isStoredTime(value)) return value
  const ms = readIso(value)
  return Either.isRight(ms) ? iso(ms.right) : new Failure(`${field}: ${ms.left}`)
}

const failed = (index: number, platformId: string | undefined, error: string) =>
  new ImportError(platformId === undefined ? { index, error } : { index, platformId, error }, { disableValidation: true })

/**
 * De-duplication by player: an entry is skipped when the player has a ban
 * in force already, or an earlier entry of the file named the same player,
 * or its ban id is stored already (a file imported twice). A ban id from
 * the file is kept when it is a UUID not used yet; otherwise a new one.
 */
export const planImport = (entries: ReadonlyArray<unknown>, existing: Existing): Plan => {
  // Sized for every entry (and cut to the rows kept at the end) rather than grown 800,000 pushes long.
  const params = new Array<string | null>(entries.length * IMPORT_WIDTH)
  let n = 0
  const errors: Array<ImportError> = []
  const seen = new Set<string>()
  const ids = new Set<string>()
  let skipped = 0
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      errors.push(failed(index, undefined, "expected an object"))
      continue
    }
    const fields = entry as Readonly<Record<string, unknown>>
    const rawId = fields["platformId"]
    if (typeof rawId !== "string") {
      errors.push(failed(index, undefined, "platformId: required, a string"))
      continue
    }
    const platformId = platformIdOf(rawId)
    if (platformId instanceof Failure) {
      errors.push(failed(index, rawId, platformId.error))
      continue
    }
    const playerName = text(fields["playerName"], "playerName", MAX_NAME_LENGTH)
    if (playerName instanceof Failure) {
      errors.push(failed(index, platformId, playerName.error))
      continue
    }
    const reason = text(fields["reason"], "reason", MAX_REASON_LENGTH)
    if (reason instanceof Failure) {
      errors.push(failed(index, platformId, reason.error))
      continue
    }
    const bannedBy = text(fields["bannedBy"], "bannedBy", MAX_NAME_LENGTH)
    if (bannedBy instanceof Failure) {
      errors.push(failed(index, platformId, bannedBy.error))
      continue
    }
    const rawBannedAt = fields["bannedAt"]
    if (rawBannedAt === undefined || rawBannedAt === null) {
      errors.push(failed(index, platformId, "bannedAt: required, an ISO-8601 date-time"))
      continue
    }
    const bannedAt = time(rawBannedAt, "bannedAt")
    if (bannedAt instanceof Failure) {
      errors.push(failed(index, platformId, bannedAt.error))
      continue
    }
    const rawExpiresAt = fields["expiresAt"]
    let expiresAt: string | null = null
    if (rawExpiresAt !== undefined && rawExpiresAt !== null) {
      const expires = time(rawExpiresAt, "expiresAt")
      if (expires instanceof Failure) {
        errors.push(failed(index, platformId, expires.error))
        continue
      }
      // Stored times are of one width and zone, so they compare as text.
      if (expires <= bannedAt) {
        errors.push(failed(index, platformId, "expiresAt: must be after bannedAt"))
        continue
      }
      expiresAt = expires
    }
    const rawBanId = fields["id"]
    let id = typeof rawBanId === "string" ? uuidOf(rawBanId) : undefined
    if (existing.activePlayers.has(platformId) || seen.has(platformId) || (id !== undefined && existing.ids.has(id))) {
      skipped++
      continue
    }
    seen.add(platformId)
    if (id === undefined || ids.has(id)) id = randomUUID()
    ids.add(id)
    params[n++] = id
    params[n++] = platformId
    params[n++] = playerName
    params[n++] = reason
    params[n++] = bannedBy
    params[n++] = bannedAt
    params[n++] = expiresAt
    params[n++] = IMPORT_SOURCE
  }
  params.length = n
  return { params, added: n / IMPORT_WIDTH, skipped, errors }
}
