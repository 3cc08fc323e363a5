/**
 * Response headers that guard browsers, on every response the controller
 * sends (the gate's own answers included). They are set with `setHeader`
 * before anything else, so a handler that sends the same header wins: Node
 * merges `setHeader` values into `writeHead`'s, `writeHead`'s first.
 */
import type { ServerResponse } from "node:http"

export const securityHeaders: ReadonlyArray<readonly [name: string, value: string]> = [
  // No MIME sniffing: a JSON answer holding user text is never run as HTML or script.
  ["x-content-type-options", "nosniff"],
  // Paths and queries (ids, names) stay off other sites' logs.
  ["referrer-policy", "no-referrer"],
  // Nothing the controller serves may be framed (clickjacking); X-Frame-Options for older browsers.
  ["content-security-policy", "frame-ancestors 'none'"],
  ["x-frame-options", "DENY"]
]

/**
 * API answers carry tokens, TOTP secrets, recovery codes and personal data:
 * no cache (browser, proxy) may keep them unless a handler says otherwise.
 */
export const apiCacheControl = "no-store"

export const setSecurityHeaders = (response: ServerResponse): void => {
  for (let i = 0; i < securityHeaders.length; i++) {
    const [name, value] = securityHeaders[i]!
    response.setHeader(name, value)
  }
}
