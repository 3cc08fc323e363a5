/**
 * What SteamCMD's output lines mean. SteamCMD's exit codes are unreliable
 * (a workshop failure can exit 0, a success can exit 1), so a run is judged
 * by what it printed, line by line, with the exit code as a fallback. Lines
 * are read tolerantly: ANSI colours, carriage returns and leading spaces are
 * dropped, and words are matched, not whole lines.
 *
 * Real SteamCMD writes to a pipe without always ending its lines: a login's
 * `...OK` lines, progress lines and results can arrive run together on one
 * line. `splitSteamCmdLine` cuts such a line before each phrase that starts
 * one of SteamCMD's lines, and each piece is read on its own.
 */

/** Why a step (or the whole run) failed, as callers branch on it. */
export type SteamCmdFailureKind =
  | "bad-credentials"
  | "guard-code-needed"
  | "no-subscription"
  | "not-found"
  | "timeout"
  | "disk-full"
  | "rate-limited"
  /** Steam could not be reached (an outage, a login that timed out): a passing state, not bad credentials. */
  | "no-connection"
  | "failed"

export type SteamCmdLine =
  | { readonly _tag: "Progress"; readonly stage: string; readonly percent: number; readonly done: number; readonly total: number }
  | { readonly _tag: "LoggedIn" }
  | { readonly _tag: "LoginFailed"; readonly kind: SteamCmdFailureKind; readonly reason: string }
  | { readonly _tag: "GuardCodeNeeded" }
  | { readonly _tag: "NotLoggedOn" }
  | { readonly _tag: "AppInstalled"; readonly appId: string }
  | { readonly _tag: "AppUpToDate"; readonly appId: string }
  | { readonly _tag: "AppFailed"; readonly appId: string; readonly kind: SteamCmdFailureKind; readonly reason: string }
  | { readonly _tag: "ItemDownloading"; readonly itemId: string }
  | { readonly _tag: "ItemDownloaded"; readonly itemId: string; readonly path: string; readonly bytes: number }
  | { readonly _tag: "ItemFailed"; readonly itemId: string; readonly kind: SteamCmdFailureKind; readonly reason: string }
  | { readonly _tag: "Other"; readonly text: string }

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

/** The line as a person reads it: no colour codes, no carriage returns, trimmed. */
export const cleanLine = (raw: string): string => {
  const withoutAnsi = raw.replace(ANSI, "")
  // A progress bar rewrites its line with `\r`: the last rewrite is the current one.
  const parts = withoutAnsi.split("\r").filter((part) => part.trim() !== "")
  return (parts[parts.length - 1] ?? "").trim()
}

/** What a failure's reason (Steam's words) means. */
export const failureKindOf = (reason: string): SteamCmdFailureKind => {
  const r = reason.toLowerCase()
  if (r.includes("invalid password") || r.includes("invalid login auth code") || r.includes("two-factor code mismatch")) {
    return "bad-credentials"
  }
  if (r.includes("account logon denied") || r.includes("steam guard") || r.includes("two-factor")) return "guard-code-needed"
  if (r.includes("no subscription")) return "no-subscription"
  if (r.includes("file not found") || r.includes("invalid platform") || r.includes("no match")) return "not-found"
  if (r.includes("no connection") || r.includes("service unavailable") || r.includes("try another cm")) return "no-connection"
  if (r.includes("timeout") || r.includes("timed out") || r.includes("0x6 ") || r.endsWith("0x6")) return "timeout"
  if (r.includes("disk write failure") || r.includes("disk space") || r.includes("0x202")) return "disk-full"
  if (r.includes("rate limit")) return "rate-limited"
  return "failed"
}

/** A login that timed out is Steam out of reach, as much as `No Connection` is. */
const loginFailureKindOf = (reason: string): SteamCmdFailureKind => {
  const kind = failureKindOf(reason)
  return kind === "timeout" ? "no-connection" : kind
}

/** Steam's EResult numbers, as `FAILED with result code <n>` gives them, in the words newer SteamCMDs print. */
const RESULT_CODES: Readonly<Record<string, string>> = {
  "2": "Failure",
  "3": "No Connection",
  "5": "Invalid Password",
  "16": "Timeout",
  "20": "Service Unavailable",
  "63": "Account Logon Denied",
  "65": "Invalid Login Auth Code",
  "84": "Rate Limit Exceeded",
  "88": "Two-factor Code Mismatch"
}

/** Phrases that start a SteamCMD line; found after other text, they start a line that ran on (case matters: `failed (` inside an item error is not one). */
const LINE_STARTS = [
  "Loading Steam API",
  "Unloading Steam API",
  "Logging in user ",
  "Logging in using ",
  "Connecting anonymously",
  "Waiting for ",
  "Login Failure:",
  "FAILED",
  "Update state (",
  "Success!",
  "Success.",
  "ERROR!",
  "Error!",
  "Warning:",
  "WARNING:",
  "Downloading item ",
  "Steam Guard code:",
  "Two-factor code:"
]
const LINE_START = new RegExp(`(?=${LINE_STARTS.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`)

/** One output line cut into SteamCMD's lines where several ran together (see the module comment); cleaned, never empty pieces. */
export const splitSteamCmdLine = (raw: string): ReadonlyArray<string> =>
  cleanLine(raw)
    .split(LINE_START)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== "")

// Progress counts may be printed with the locale's decimal comma (`0,00`).
const PROGRESS = /^Update state \((0x[0-9a-f]+)\) ([a-z ]+?), progress: (\d+(?:[.,]\d+)?) \((\d+) \/ (\d+)\)/i
const APP_INSTALLED = /^Success! App '(\d+)' fully installed/i
const APP_UP_TO_DATE = /^Success! App '(\d+)' already up to date/i
const APP_FAILED = /^Error! App '(\d+)' state is (0x[0-9a-f]+) after update job/i
const APP_INSTALL_FAILED = /^ERROR! Failed to install app '(\d+)' \(([^)]+)\)/i
const ITEM_DOWNLOADING = /^Downloading item (\d+)/i
const ITEM_DOWNLOADED = /^Success\. Downloaded item (\d+) to "(.*)" \((\d+) bytes\)/i
// Trailing text after the reason's bracket is not part of it.
const ITEM_FAILED = /^ERROR! Download item (\d+) failed \(([^)]+)\)/i
const ITEM_TIMEOUT = /^ERROR! Timeout downloading item (\d+)/i
const LOGIN_FAILED = /^(?:Login Failure: (.+?)\s*$|FAILED \(([^)]+)\)|FAILED (?:login )?with result code (\w+))/i

/** What each of SteamCMD's lines in one output line says (several when they ran together). */
export const parseSteamCmdOutput = (raw: string): ReadonlyArray<{ readonly line: SteamCmdLine; readonly text: string }> =>
  splitSteamCmdLine(raw).map((text) => ({ line: parseSteamCmdLine(text), text }))

/** What one line says (see the module comment); `Other` for everything else. */
export const parseSteamCmdLine = (raw: string): SteamCmdLine => {
  const text = cleanLine(raw)
  let m: RegExpExecArray | null
  if ((m = PROGRESS.exec(text))) {
    return { _tag: "Progress", stage: m[2]!.trim(), percent: Number(m[3]!.replace(",", ".")), done: Number(m[4]), total: Number(m[5]) }
  }
  if ((m = APP_INSTALLED.exec(text))) return { _tag: "AppInstalled", appId: m[1]! }
  if ((m = APP_UP_TO_DATE.exec(text))) return { _tag: "AppUpToDate", appId: m[1]! }
  if ((m = APP_FAILED.exec(text))) {
    const reason = `state ${m[2]!} after update job`
    return { _tag: "AppFailed", appId: m[1]!, kind: failureKindOf(`${m[2]!} `), reason }
  }
  if ((m = APP_INSTALL_FAILED.exec(text))) return { _tag: "AppFailed", appId: m[1]!, kind: failureKindOf(m[2]!), reason: m[2]! }
  if ((m = ITEM_DOWNLOADED.exec(text))) return { _tag: "ItemDownloaded", itemId: m[1]!, path: m[2]!, bytes: Number(m[3]) }
  if ((m = ITEM_TIMEOUT.exec(text))) return { _tag: "ItemFailed", itemId: m[1]!, kind: "timeout", reason: "Timeout" }
  if ((m = ITEM_FAILED.exec(text))) return { _tag: "ItemFailed", itemId: m[1]!, kind: failureKindOf(m[2]!), reason: m[2]! }
  if ((m = ITEM_DOWNLOADING.exec(text))) return { _tag: "ItemDownloading", itemId: m[1]! }
  if (/^Steam Guard code:|^Two-factor code:/i.test(text)) return { _tag: "GuardCodeNeeded" }
  if (/^ERROR! Not logged on/i.test(text)) return { _tag: "NotLoggedOn" }
  if (/^(Logging in user .*|Connecting anonymously .*|Waiting for user info)\.\.\.OK\b/i.test(text)) return { _tag: "LoggedIn" }
  // `Logging in user '<user>' to Steam Public...FAILED (...)`, `Waiting for user info...FAILED (Timed out)`: the failure is the part from FAILED.
  const failure = /^(?:Logging in user |Connecting anonymously|Waiting for ).*?\.\.\.(FAILED.*)$/i.exec(text)?.[1] ?? text
  if ((m = LOGIN_FAILED.exec(failure))) {
    const code = m[3]
    const reason = code === undefined ? (m[1] ?? m[2] ?? "").trim() : `result code ${code}${RESULT_CODES[code] ? ` (${RESULT_CODES[code]})` : ""}`
    return { _tag: "LoginFailed", kind: loginFailureKindOf(code === undefined ? reason : (RESULT_CODES[code] ?? reason)), reason }
  }
  return { _tag: "Other", text }
}
