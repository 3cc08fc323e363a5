/**
 * What SQLite holds (any type in any column) against what the PostgreSQL
 * column takes. Checked here, value by value, so a refusal can name the
 * table, row and column and say what is wrong, where PostgreSQL would fail
 * the whole batch with less to go on, or, worse, take a value and change it.
 */
import type { TargetColumn } from "./target.js"

const INTEGER_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n]
}
const FLOAT_TYPES = new Set(["real", "double precision", "numeric"])

export const shown = (value: unknown): string =>
  value === null
    ? "NULL"
    : Buffer.isBuffer(value)
      ? `a ${value.length}-byte BLOB`
      : typeof value === "string"
        ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)
        : String(value)

const kindOf = (value: unknown): string =>
  Buffer.isBuffer(value) ? "a BLOB" : typeof value === "string" ? "text" : typeof value === "bigint" ? "an integer" : "a real number"

/**
 * `value` as it is bound for `column`, or why it cannot go there. `rawText`
 * reads the cell's bytes, for text SQLite gave back with U+FFFD in it: bytes
 * that are not UTF-8 read that way, and PostgreSQL text holds UTF-8 only.
 */
export const bindable = (value: unknown, column: TargetColumn, rawText: () => Buffer | undefined): { readonly value: unknown } | { readonly problem: string } => {
  if (value === null) return { value }
  const type = column.type
  const misfit = { problem: `holds ${kindOf(value)} (${shown(value)}), which a PostgreSQL ${type} column cannot take` }
  const range = INTEGER_RANGES[type]
  if (range !== undefined) {
    const integer = typeof value === "bigint" ? value : typeof value === "number" && Number.isInteger(value) ? BigInt(value) : undefined
    if (integer === undefined) return misfit
    return integer >= range[0] && integer <= range[1] ? { value } : { problem: `holds ${integer}, beyond the range of PostgreSQL ${type}` }
  }
  if (FLOAT_TYPES.has(type)) return typeof value === "bigint" || typeof value === "number" ? { value } : misfit
  if (type === "boolean") return value === 0n || value === 1n ? { value: value === 1n } : misfit
  if (type === "bytea") return Buffer.isBuffer(value) ? { value } : misfit
  // A BLOB would be bound as the binary form of the column's type: never what it meant.
  if (Buffer.isBuffer(value)) return misfit
  if (typeof value === "string") {
    if (value.includes("\u0000")) return { problem: "holds text with a NUL character, which PostgreSQL text cannot store" }
    if (value.includes("\uFFFD")) {
      const bytes = rawText()
      if (bytes !== undefined && !bytes.equals(Buffer.from(value, "utf8"))) {
        return { problem: "holds text that is not valid UTF-8 (PostgreSQL text is UTF-8 only)" }
      }
    }
  }
  // Text, and numbers in a text column: PostgreSQL parses the text for its type, and a value it refuses is named by row.
  return { value }
}
