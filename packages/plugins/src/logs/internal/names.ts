/**
 * Which names a request may read: a plain file name (no separators, no
 * `.`/`..`, no NUL) with a log extension. Plain functions, so the rules are
 * tested without a file system.
 */
import type { LogKind } from "../contract/Api.js"

/** The kind of a log file by its extension, or undefined for anything else. */
export const logKind = (name: string): LogKind | undefined => {
  const lower = name.toLowerCase()
  if (lower.endsWith(".rpt")) return "rpt"
  if (lower.endsWith(".adm")) return "adm"
  if (lower.endsWith(".log")) return "log"
  return undefined
}

/** Why `name` may not be read, or undefined when it is a plain log file name. */
export const nameProblem = (name: string): string | undefined => {
  if (name.length === 0 || name.length > 255) return "must be 1 to 255 characters"
  if (/[/\\\0]/.test(name)) return "must be a plain file name, without folders"
  if (name === "." || name === ".." || name.startsWith("..")) return "must be a plain file name, without folders"
  if (/^[A-Za-z]:/.test(name)) return "must be a plain file name, without folders"
  if (logKind(name) === undefined) return "must name an .RPT, .ADM or .log file"
  return undefined
}
