/**
 * Turning an entry into the one text per field that is stored and hashed.
 * Every string (fields, details keys and values) is made well-formed first
 * (see text.ts), so what is hashed is exactly what reads back. `details`
 * becomes JSON with keys sorted at every level and no whitespace, so the
 * same details always hash the same. Total over odd input (cycles, bigint,
 * functions), because recording must never fail on what a caller passed.
 */
import { clampText, wellFormed } from "./text.js"

/** Longest stored details text; beyond it only the size is kept. */
export const MAX_DETAILS_LENGTH = 16_384
/** Longest stored actor, ip, action or target, in UTF-16 code units (never splitting a character). */
export const MAX_FIELD_LENGTH = 2_048
const MAX_DEPTH = 16

/** Keys whose values are replaced: callers must not log secrets, and a slip should not become permanent. */
const SECRET_KEY = /pass(word)?|secret|token|authorization|cookie|api[-_]?key|private[-_]?key|recovery[-_]?code/i

/** A stored text field: well-formed, cut at `MAX_FIELD_LENGTH`. */
export const clampField = (value: string | null): string | null =>
  value === null ? null : clampText(wellFormed(value), MAX_FIELD_LENGTH)

export const canonicalDetails = (details: Readonly<Record<string, unknown>> | undefined): string | null => {
  if (details === undefined) return null
  const text = encode(details, new Set(), 0)
  return text.length <= MAX_DETAILS_LENGTH ? text : encode({ truncated: true, length: text.length }, new Set(), 0)
}

const encode = (value: unknown, seen: Set<object>, depth: number): string => {
  switch (typeof value) {
    case "string":
      return JSON.stringify(wellFormed(value))
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null"
    case "boolean":
      return value ? "true" : "false"
    case "bigint":
      return JSON.stringify(value.toString())
    case "object":
      return value === null ? "null" : encodeObject(value, seen, depth)
    default:
      // undefined, functions and symbols have no JSON form.
      return "null"
  }
}

const encodeObject = (value: object, seen: Set<object>, depth: number): string => {
  if (seen.has(value)) return JSON.stringify("[circular]")
  if (depth >= MAX_DEPTH) return JSON.stringify("[too deep]")
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "null" : JSON.stringify(value.toISOString())
  seen.add(value)
  let text: string
  if (Array.isArray(value)) {
    text = `[${value.map((item) => encode(item, seen, depth + 1)).join(",")}]`
  } else {
    const record = value as Record<string, unknown>
    const parts: Array<string> = []
    const written = new Set<string>()
    // Sorted by the stored form of each key, so the text reads back sorted (a NUL or a lone
    // surrogate sorts elsewhere once it is U+FFFD); the sort is stable, so keys that become
    // one key stay in their own order, and the first is kept.
    const keys = Object.keys(record).sort().map((key) => [wellFormed(key), key] as const)
    keys.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    for (const [name, key] of keys) {
      const item = record[key]
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue
      if (written.has(name)) continue
      written.add(name)
      parts.push(`${JSON.stringify(name)}:${SECRET_KEY.test(name) ? JSON.stringify("[redacted]") : encode(item, seen, depth + 1)}`)
    }
    text = `{${parts.join(",")}}`
  }
  seen.delete(value)
  return text
}
