/**
 * What an error body may say about the input that caused it. Schema issues
 * quote the value they refused (`..., actual "hunter2"`): for a field whose
 * path names a secret the quote is dropped and only the rule remains; any
 * other quoted string is cut to its start and its length, and an object or
 * array is never quoted (it may hold a secret under any name). Messages,
 * paths and the list of issues are bounded, so an error body stays a few
 * kilobytes whatever was sent.
 */
import { sliceWhole, truncateText } from "./text/truncate.js"

/** Longest quoted value, in UTF-16 units. */
export const MAX_ECHOED_VALUE = 64
/** Issues listed in `details`; the message says how many there were. */
export const MAX_LISTED_ISSUES = 20
const MAX_MESSAGE = 500
const MAX_RULE = 200
const MAX_SEGMENT = 64
const MAX_PATH = 256
const MAX_DETAIL_DEPTH = 4
const MAX_DETAIL_ITEMS = 20
const MAX_DETAIL_STRING = 200

/**
 * Words that make a field secret, matched against each word of each path
 * segment (`newPassword`, `api_key`, `X-Auth-Token`, `recoveryCodes`), so
 * `keyboard` or `zipcode` do not match but `mfaCode` does.
 */
const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "key",
  "apikey",
  "token",
  "code",
  "otp",
  "totp",
  "authorization",
  "cookie",
  "credential"
])

const wordsOf = (segment: string): ReadonlyArray<string> =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)

export const isSecretSegment = (segment: string): boolean =>
  wordsOf(segment).some((word) => SECRET_WORDS.has(word) || (word.endsWith("s") && SECRET_WORDS.has(word.slice(0, -1))))

export const isSecretPath = (segments: ReadonlyArray<string>): boolean => segments.some(isSecretSegment)

export interface SafeIssue {
  readonly path: string
  readonly message: string
}

/** One decode issue, from its raw path segments and the formatter's message. */
export const safeIssue = (segments: ReadonlyArray<string>, message: string): SafeIssue => ({
  path: renderPath(segments),
  message: safeIssueMessage(message, isSecretPath(segments))
})

const renderPath = (segments: ReadonlyArray<string>): string =>
  truncateText(segments.map((s) => (s.length > MAX_SEGMENT ? `${sliceWhole(s, MAX_SEGMENT)}…` : s)).join("."), MAX_PATH)

/** Effect's default issue text is `Expected <rule>, actual <value>`; the rule comes from the schema, the value from the caller. */
const ACTUAL = ", actual "

const safeIssueMessage = (message: string, secret: boolean): string => {
  const at = message.indexOf(ACTUAL)
  // A schema's own message (`passwords are 8 to 128 characters long`) quotes nothing by convention.
  if (at === -1) return truncateText(message, MAX_RULE)
  const rule = truncateText(message.slice(0, at), MAX_RULE)
  return secret ? `${rule} (value not shown)` : `${rule}${ACTUAL}${describeActual(message.slice(at + ACTUAL.length))}`
}

/** A formatted value (`formatUnknown`'s output): strings cut, containers named only. */
const describeActual = (formatted: string): string => {
  if (formatted.startsWith("{")) return "an object"
  if (formatted.startsWith("[")) return "an array"
  if (formatted.startsWith('"')) {
    const value = parseJsonString(formatted)
    if (value !== undefined) {
      return value.length <= MAX_ECHOED_VALUE
        ? formatted
        : `${JSON.stringify(`${sliceWhole(value, MAX_ECHOED_VALUE)}…`)} (${value.length} characters)`
    }
  }
  return truncateText(formatted, MAX_ECHOED_VALUE)
}

const parseJsonString = (text: string): string | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "string" ? value : undefined
  } catch {
    return undefined
  }
}

/** The platform's issues (`{path: [...], message}`), bounded in number and each made safe. */
export const safeIssues = (issues: ReadonlyArray<unknown>): ReadonlyArray<SafeIssue> =>
  issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown }
    const segments = Array.isArray(path) ? path.map(String) : typeof path === "string" && path.length > 0 ? path.split(".") : []
    return safeIssue(segments, typeof message === "string" ? message : "invalid")
  })

/** A top-level message: any error's, the controller's own included. */
export const safeMessage = (message: string): string => truncateText(message, MAX_MESSAGE)

/** `first issue (and N more)` for a list cut to `MAX_LISTED_ISSUES`. */
export const summarizeIssues = (first: SafeIssue, count: number): string => {
  const head = first.path.length > 0 ? `${first.path}: ${first.message}` : first.message
  return count > 1 ? `${head} (and ${count - 1} more ${count === 2 ? "issue" : "issues"})` : head
}

const isIssueList = (value: unknown): value is ReadonlyArray<unknown> =>
  Array.isArray(value) &&
  value.every((item) => typeof item === "object" && item !== null && "message" in item && "path" in item)

/**
 * A plugin's `details`, bounded: a list of `{path, message}` issues is
 * treated like the platform's; anything else is cut in depth, items and
 * string length, and strings under a secret-named key are not shown.
 */
export const safeDetails = (details: unknown): unknown =>
  isIssueList(details) ? safeIssues(details) : boundedValue(details, 0, false)

const boundedValue = (value: unknown, depth: number, secret: boolean): unknown => {
  if (typeof value === "string") return secret ? "(not shown)" : truncateText(value, MAX_DETAIL_STRING)
  if (typeof value !== "object" || value === null) return value
  if (depth >= MAX_DETAIL_DEPTH) return Array.isArray(value) ? "[…]" : "{…}"
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_DETAIL_ITEMS).map((item) => boundedValue(item, depth + 1, secret))
    return value.length > MAX_DETAIL_ITEMS ? [...items, `… ${value.length - MAX_DETAIL_ITEMS} more`] : items
  }
  const entries = Object.entries(value)
  const kept = entries
    .slice(0, MAX_DETAIL_ITEMS)
    .map(([key, item]) => [truncateText(key, MAX_SEGMENT), boundedValue(item, depth + 1, secret || isSecretSegment(key))] as const)
  return Object.fromEntries(entries.length > MAX_DETAIL_ITEMS ? [...kept, ["…", `${entries.length - MAX_DETAIL_ITEMS} more`]] : kept)
}
