/**
 * What an error body may say about the input that caused it. Schema issues
 * (put in words by `IssueMessages`) keep the value they refused apart from
 * the rule: for a field whose path names a secret the value is dropped and
 * only the rule remains (`(value not shown)`); any other quoted string is
 * cut to its start and its length (`(got "abc…" (900 characters))`), and
 * an object or array is never quoted (it may hold a secret under any name).
 * Messages, paths and the list of issues are bounded, so an error body
 * stays a few kilobytes whatever was sent.
 */
import { type PlainIssue, plainIssues } from "./IssueMessages.js"
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

/** One issue in words, made safe to show. */
export const safeIssue = (issue: PlainIssue): SafeIssue => ({
  path: renderPath(issue.segments),
  message: safeIssueMessage(issue, isSecretPath(issue.segments))
})

const renderPath = (segments: ReadonlyArray<string>): string =>
  truncateText(segments.map((s) => (s.length > MAX_SEGMENT ? `${sliceWhole(s, MAX_SEGMENT)}…` : s)).join("."), MAX_PATH)

/** The rule comes from the schema, the value from the caller: a secret's value is never shown, others are cut. */
const safeIssueMessage = ({ rule, actual, whole }: PlainIssue, secret: boolean): string => {
  // A list of what the schema allows (a body's fields) comes from the schema, never the caller: cutting it would hide the one the caller meant.
  const shownRule = whole === true ? rule : truncateText(rule, MAX_RULE)
  // A schema's own message (`passwords are 8 to 128 characters long`) quotes nothing by convention.
  if (actual === undefined) return shownRule
  return secret ? `${shownRule} (value not shown)` : `${shownRule} (got ${describeActual(actual)})`
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

/** The platform's issues (`{path: [...], message}`) in words, bounded in number and each made safe; `count` is how many there were. */
export const safeIssueList = (issues: ReadonlyArray<unknown>): { readonly listed: ReadonlyArray<SafeIssue>; readonly count: number } => {
  const plain = plainIssues(
    issues.map((issue) => {
      const { path, message } = (issue ?? {}) as { path?: unknown; message?: unknown }
      const segments = Array.isArray(path) ? path.map(String) : typeof path === "string" && path.length > 0 ? path.split(".") : []
      return { segments, message: typeof message === "string" ? message : "invalid" }
    })
  )
  return { listed: plain.slice(0, MAX_LISTED_ISSUES).map(safeIssue), count: plain.length }
}

export const safeIssues = (issues: ReadonlyArray<unknown>): ReadonlyArray<SafeIssue> => safeIssueList(issues).listed

/** A top-level message: any error's, the controller's own included. */
export const safeMessage = (message: string): string => truncateText(message, MAX_MESSAGE)

/**
 * `first issue (and N more)` for a list cut to `MAX_LISTED_ISSUES`. A rule
 * in words follows its field (`role must be one of VIP, Supporter`);
 * a schema's own message comes after a colon.
 */
export const summarizeIssues = (first: SafeIssue, count: number): string => {
  const head =
    first.path.length === 0 ? first.message : /^(must|is) /.test(first.message) ? `${first.path} ${first.message}` : `${first.path}: ${first.message}`
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
