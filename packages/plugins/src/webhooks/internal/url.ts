/**
 * A webhook's URL: the rules it must meet, and how it is shown. Chat
 * platforms put the token in the path (`/api/webhooks/<id>/<token>`), so
 * a URL is a secret: it is stored sealed and shown masked everywhere (the
 * list, logs, audit rows, notifications, backups unless asked otherwise).
 * Pure functions: the contract (and the dashboard) use them too.
 */

export const MAX_URL_LENGTH = 2048

/** What stands for the hidden part of a URL. */
export const URL_MASK = "••••"

const hasSpaceOrControl = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}

/** Why `text` is not a URL a webhook may use, or undefined when it is one. Never quotes the URL. */
export const urlProblem = (text: string): string | undefined => {
  if (text.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`
  // Raw spaces and control characters (NUL included) would be percent-encoded silently: refuse them instead.
  if (hasSpaceOrControl(text)) return "must not contain spaces or control characters"
  if (text.includes(URL_MASK)) return "is masked: send the full URL"
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return "must be an absolute http or https URL"
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must use http or https"
  if (url.username !== "" || url.password !== "") return "must not hold credentials (user:password@)"
  if (url.hostname === "") return "must name a host"
  return undefined
}

/** The URL as stored and sent: the parser's form (`new URL(text).href`), without a fragment (never sent anyway). */
export const normalizeUrl = (text: string): string => {
  const url = new URL(text)
  url.hash = ""
  return url.href
}

/** A path segment that may be shown: short, and not the last one (where chat platforms keep their tokens). */
const SHOWN_SEGMENT = /^[A-Za-z0-9._~-]{1,32}$/

/**
 * The URL as shown: scheme, host and port, the path's segments but the
 * last (and any long or odd one) replaced by `••••`, and any query too:
 * `https://discord.com/api/webhooks/123/••••`.
 */
export const maskUrl = (text: string): string => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return URL_MASK
  }
  const segments = url.pathname.split("/").slice(1)
  const shown = segments.map((segment, i) =>
    segment === "" ? "" : i === segments.length - 1 || !SHOWN_SEGMENT.test(segment) ? URL_MASK : segment
  )
  const path = segments.length === 0 || (segments.length === 1 && segments[0] === "") ? "/" : `/${shown.join("/")}`
  return `${url.protocol}//${url.host}${path}${url.search === "" ? "" : `?${URL_MASK}`}`
}

/** Whether a URL from a backup is masked (it cannot be used as it is). */
export const isMaskedUrl = (text: string): boolean => text.includes(URL_MASK)

/** Chat-platform (Discord-style) webhook URLs, for the default `kind`. */
export const looksLikeChatWebhook = (text: string): boolean => {
  try {
    const url = new URL(text)
    return /(^|\.)(discord\.com|discordapp\.com)$/i.test(url.hostname) && url.pathname.startsWith("/api/webhooks/")
  } catch {
    return false
  }
}
