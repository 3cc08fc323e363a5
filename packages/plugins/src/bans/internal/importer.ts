/**
 * Checking an import file entry by entry: each entry becomes a row to add,
 * a skip (the player already has a ban, stored or earlier in the file) or
 * an error naming its index. Pure, so one bad entry never costs the others.
 * Written for 100,000 entries: rows are plain tuples in INSERT column order.
 */
import { parsePlatformId } from "@garrison/runtime"
import { Either, Option } from "effect"
import { randomUUID } from "node:crypto"
import { ImportError, MAX_NAME_LENGTH, MAX_REASON_LENGTH } from "../contract/Api.js"
import { iso, parseIso } from "./time.js"

export interface Existing {
  /** Players with a ban in force now. */
  readonly activePlayers: ReadonlySet<string>
  /** Every stored ban id. */
  readonly ids: ReadonlySet<string>
}

/** id, platform_id, player_name, reason, banned_by, banned_at, expires_at, source. */
export type ImportRow = readonly [string, string, string, string, string, string, string | null, string]

export interface Plan {
  readonly rows: ReadonlyArray<ImportRow>
  readonly skipped: number
  readonly errors: ReadonlyArray<ImportError>
}

export const IMPORT_SOURCE = "import"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Already in stored form: kept as is once it parses. */
const CANONICAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

interface Failure {
  readonly platformId?: string
  readonly error: string
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A trimmed single line of 1 to `max` characters, or why not. */
const text = (value: unknown, field: string, max: number): string | Failure => {
  if (typeof value !== "string") return { error: `${field}: required, a string` }
  const trimmed = value.trim()
  if (trimmed.length === 0) return { error: `${field}: must not be empty` }
  if (trimmed.length > max) return { error: `${field}: must be at most ${max} characters` }
  if (trimmed.includes("\n") || trimmed.includes("\r")) return { error: `${field}: must be a single line` }
  return trimmed
}

/** `[ms, stored text]`, null when absent, or why not. */
const time = (value: unknown, field: string): readonly [number, string] | null | Failure => {
  if (value === undefined || value === null) return null
  const bad = { error: `${field}: an ISO-8601 date-time, e.g. 2025-01-31T12:00:00Z` }
  if (typeof value !== "string") return bad
  if (CANONICAL_TIME.test(value)) {
    // Stored as sent: already the width and zone every stored time has (no costly re-formatting).
    const ms = Date.parse(value)
    return Number.isFinite(ms) ? [ms, value] : bad
  }
  return Option.match(parseIso(value), { onNone: () => bad, onSome: (ms) => [ms, iso(ms)] as const })
}

const isFailure = (value: unknown): value is Failure => typeof value === "object" && value !== null && "error" in value

const checkEntry = (entry: unknown): ImportRow | Failure => {
  if (!isRecord(entry)) return { error: "expected an object" }
  const rawId = entry["platformId"]
  if (typeof rawId !== "string") return { error: "platformId: required, a string" }
  const parsed = parsePlatformId(rawId)
  if (Either.isLeft(parsed)) return { platformId: rawId, error: `platformId: ${parsed.left.message}` }
  const platformId: string = parsed.right
  const named = (failure: Failure): Failure => ({ platformId, error: failure.error })
  const playerName = text(entry["playerName"], "playerName", MAX_NAME_LENGTH)
  if (isFailure(playerName)) return named(playerName)
  const reason = text(entry["reason"], "reason", MAX_REASON_LENGTH)
  if (isFailure(reason)) return named(reason)
  const bannedBy = text(entry["bannedBy"], "bannedBy", MAX_NAME_LENGTH)
  if (isFailure(bannedBy)) return named(bannedBy)
  const bannedAt = time(entry["bannedAt"], "bannedAt")
  if (isFailure(bannedAt)) return named(bannedAt)
  if (bannedAt === null) return { platformId, error: "bannedAt: required, an ISO-8601 date-time" }
  const expiresAt = time(entry["expiresAt"], "expiresAt")
  if (isFailure(expiresAt)) return named(expiresAt)
  if (expiresAt !== null && expiresAt[0] <= bannedAt[0]) return { platformId, error: "expiresAt: must be after bannedAt" }
  const id = entry["id"]
  const banId = typeof id === "string" && UUID.test(id) ? id.toLowerCase() : randomUUID()
  return [banId, platformId, playerName, reason, bannedBy, bannedAt[1], expiresAt === null ? null : expiresAt[1], IMPORT_SOURCE]
}

/**
 * De-duplication by player: an entry is skipped when the player has a ban
 * in force already, or an earlier entry of the file named the same player,
 * or its ban id is stored already (a file imported twice). A ban id from
 * the file is kept when it is a UUID not used yet; otherwise a new one.
 */
export const planImport = (entries: ReadonlyArray<unknown>, existing: Existing): Plan => {
  const rows: Array<ImportRow> = []
  const errors: Array<ImportError> = []
  const seen = new Set<string>()
  const ids = new Set<string>()
  let skipped = 0
  for (let index = 0; index < entries.length; index++) {
    const row = checkEntry(entries[index])
    if (isFailure(row)) {
      errors.push(new ImportError({ index, ...row }, { disableValidation: true }))
      continue
    }
    const [id, platformId] = row
    if (existing.activePlayers.has(platformId) || seen.has(platformId) || existing.ids.has(id)) {
      skipped++
      continue
    }
    seen.add(platformId)
    const unique: ImportRow = ids.has(id) ? [randomUUID(), row[1], row[2], row[3], row[4], row[5], row[6], row[7]] : row
    ids.add(unique[0])
    rows.push(unique)
  }
  return { rows, skipped, errors }
}
