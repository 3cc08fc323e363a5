/**
 * The words every part of the move shares. A refusal is one line (the entry
 * prints it as it is), so lists in it are cut short; a migration reads the
 * same whichever engine it came from, so the two sides compare as text; and
 * PostgreSQL's failures keep the driver's own words but never the URL.
 */
import { errorMessage, StartupError } from "@garrison/runtime"

/** Lists in messages name this many items, then say how many more. */
const LIST_LIMIT = 5

export const refuse = (reason: "config" | "data-dir" | "database", message: string) => new StartupError({ reason, message })

export const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`

export const listed = (items: ReadonlyArray<string>): string =>
  items.length <= LIST_LIMIT ? items.join(", ") : `${items.slice(0, LIST_LIMIT).join(", ")} and ${items.length - LIST_LIMIT} more`

export const migrationKey = (pluginId: string, version: number | string) => `${pluginId} v${Number(version)}`

/** The PostgreSQL driver's own words for a failure, with its SQLSTATE and detail, never the URL. */
export const sqlProblem = (error: unknown): string => {
  const cause = (error as { readonly cause?: unknown }).cause
  if (typeof cause !== "object" || cause === null) return errorMessage(error)
  const { message, code, detail } = cause as { readonly message?: unknown; readonly code?: unknown; readonly detail?: unknown }
  const text = typeof message === "string" && message !== "" ? message : errorMessage(error)
  return `${text}${typeof detail === "string" && detail !== "" ? ` (${detail})` : ""}${typeof code === "string" ? ` [${code}]` : ""}`
}
