/**
 * Sorting an import body into rows to insert, duplicates to skip and
 * entries that fail (with their index and why). Pure: the caller supplies
 * the players already stored, the time and the ids.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { readExpiryDate } from "@garrison/runtime"
import { playerNameOf, PriorityImportEntry, PriorityImportError } from "../contract/Api.js"
import { type EntryRow, iso } from "./rows.js"

const decodeEntry = Schema.decodeUnknownEither(PriorityImportEntry)

export interface ImportPlan {
  readonly rows: ReadonlyArray<EntryRow>
  readonly skipped: number
  readonly errors: ReadonlyArray<PriorityImportError>
}

/** The `platformId` as sent, when there is one to report. */
const rawPlatformId = (raw: unknown): string | undefined => {
  if (typeof raw !== "object" || raw === null || !("platformId" in raw)) return undefined
  const value: unknown = raw.platformId
  return typeof value === "string" ? value : undefined
}

const describe = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ")

export const planImport = (
  body: ReadonlyArray<unknown>,
  options: {
    readonly existing: ReadonlySet<string>
    readonly nowMs: number
    readonly caller: string
    readonly newId: () => string
    /** `seq` of the first row added; the rest follow in body order. */
    readonly firstSeq: number
  }
): ImportPlan => {
  const seen = new Set(options.existing)
  const rows: Array<EntryRow> = []
  const errors: Array<PriorityImportError> = []
  let skipped = 0
  const addedAt = iso(options.nowMs)
  body.forEach((raw, index) => {
    const fail = (error: string, platformId: string | undefined) =>
      errors.push(new PriorityImportError(platformId === undefined ? { index, error } : { index, platformId, error }))
    const decoded = decodeEntry(raw, { errors: "all" })
    if (Either.isLeft(decoded)) return fail(describe(decoded.left), rawPlatformId(raw))
    const entry = decoded.right
    const named = playerNameOf(entry, true)
    if ("field" in named) return fail(named.message, entry.platformId)
    // Read as a ban import reads it: an ISO-8601 date (midnight UTC) or date-time (UTC without a zone).
    const expires = entry.expiresAt === null ? Either.right(null) : readExpiryDate(entry.expiresAt)
    if (Either.isLeft(expires)) return fail(`expiresAt: ${expires.left}`, entry.platformId)
    if (expires.right !== null && expires.right <= options.nowMs) {
      return fail("expiresAt: already in the past", entry.platformId)
    }
    if (seen.has(entry.platformId)) {
      skipped++
      return
    }
    seen.add(entry.platformId)
    rows.push({
      id: options.newId(),
      seq: options.firstSeq + rows.length,
      platformId: entry.platformId,
      name: named.playerName ?? "",
      role: entry.role,
      expiresAt: expires.right === null ? null : iso(expires.right),
      addedBy: entry.addedBy ?? options.caller,
      addedAt,
      source: "import"
    })
  })
  return { rows, skipped, errors }
}
