/**
 * Response headers that guard browsers, on every response the controller
 * sends: the gate writes them into its own answers, and sets them with
 * `setHeader` on requests it passes on, so a handler that sends the same
 * header wins (Node merges `setHeader` values into `writeHead`'s,
 * `writeHead`'s first).
 */
import type { ServerResponse } from "node:http"

export const securityHeaders: Readonly<Record<string, string>> = {
  // No MIME sniffing: a JSON answer holding user text is never run as HTML or script.
  "x-content-type-options": "nosniff",
  // Paths and queries (ids, names) stay off other sites' logs.
  "referrer-policy": "no-referrer",
  // Nothing the controller serves may be framed (clickjacking); X-Frame-Options for older browsers.
  "content-security-policy": "frame-ancestors 'none'",
  "x-frame-options": "DENY"
}

const entries = Object.entries(securityHeaders)

/**
 * API answers carry tokens, TOTP secrets, recovery codes and personal data:
 * no cache (browser, proxy) may keep them unless a handler says otherwise.
 */
export const apiCacheControl = "no-store"

/** For responses someone else writes: `setHeader` values give way to `writeHead`'s. */
export const setSecurityHeaders = (response: ServerResponse): void => {
  for (let i = 0; i < entries.length; i++) {
    const [name, value] = entries[i]!
    response.setHeader(name, value)
  }
}
