/**
 * What SteamCMD's output lines mean. SteamCMD's exit codes are unreliable
 * (a workshop failure can exit 0, a success can exit 1), so a run is judged
 * by what it printed, line by line, with the exit code as a fallback. Lines
 * are read tolerantly: ANSI colours, carriage returns and leading spaces are
 * dropped, and words are matched, not whole lines.
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
  if (r.includes("file not found") || r.includes("invalid platform")) return "not-found"
  if (r.includes("timeout") || r.includes("0x6 ") || r.endsWith("0x6")) return "timeout"
  if (r.includes("disk write failure") || r.includes("disk space") || r.includes("0x202")) return "disk-full"
  if (r.includes("rate limit")) return "rate-limited"
  return "failed"
}

const PROGRESS = /^Update state \((0x[0-9a-f]+)\) ([a-z ]+?), progress: ([0-9.]+) \((\d+) \/ (\d+)\)/i
const APP_INSTALLED = /^Success! App '(\d+)' fully installed/i
const APP_UP_TO_DATE = /^Success! App '(\d+)' already up to date/i
const APP_FAILED = /^Error! App '(\d+)' state is (0x[0-9a-f]+) after update job/i
const APP_INSTALL_FAILED = /^ERROR! Failed to install app '(\d+)' \((.+)\)/i
const ITEM_DOWNLOADING = /^Downloading item (\d+)/i
const ITEM_DOWNLOADED = /^Success\. Downloaded item (\d+) to "(.*)" \((\d+) bytes\)/i
const ITEM_FAILED = /^ERROR! Download item (\d+) failed \((.+?)\)\.?$/i
const ITEM_TIMEOUT = /^ERROR! Timeout downloading item (\d+)/i
const LOGIN_FAILED = /(?:^Login Failure: (.+)$)|(?:FAILED \((.+)\)$)/i

/** What one line says (see the module comment); `Other` for everything else. */
export const parseSteamCmdLine = (raw: string): SteamCmdLine => {
  const text = cleanLine(raw)
  let m: RegExpExecArray | null
  if ((m = PROGRESS.exec(text))) {
    return { _tag: "Progress", stage: m[2]!.trim(), percent: Number(m[3]), done: Number(m[4]), total: Number(m[5]) }
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
  if (/^(Logging in user .*|Connecting anonymously .*|Waiting for user info)\.\.\.OK$/i.test(text)) return { _tag: "LoggedIn" }
  if (/^Logging in user|^Login Failure|^FAILED \(/i.test(text) && (m = LOGIN_FAILED.exec(text))) {
    const reason = (m[1] ?? m[2] ?? "").trim()
    return { _tag: "LoginFailed", kind: failureKindOf(reason), reason }
  }
  return { _tag: "Other", text }
}
