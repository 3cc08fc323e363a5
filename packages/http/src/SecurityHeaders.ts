/**
 * Response headers that guard browsers, on every response the controller
 * sends: the gate writes them into its own answers, and sets them with
 * `setHeader` on requests it passes on, so a handler that sends the same
 * header wins (Node merges `setHeader` values into `writeHead`'s,
 * `writeHead`'s first).
 */
import type { ServerResponse } from "node:http"

const NOSNIFF = "nosniff"
const NO_REFERRER = "no-referrer"
const NO_FRAMING_POLICY = "frame-ancestors 'none'"
const NO_FRAMING = "DENY"

export const securityHeaders: Readonly<Record<string, string>> = {
  // No MIME sniffing: a JSON answer holding user text is never run as HTML or script.
  "x-content-type-options": NOSNIFF,
  // Paths and queries (ids, names) stay off other sites' logs.
  "referrer-policy": NO_REFERRER,
  // Nothing the controller serves may be framed (clickjacking); X-Frame-Options for older browsers.
  "content-security-policy": NO_FRAMING_POLICY,
  "x-frame-options": NO_FRAMING
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

/**
 * Every header of a JSON answer the gate writes itself, as one object
 * literal: one fixed shape, cheap to build and for Node to walk (spreading
 * `securityHeaders` into it cost more than the rest of the gate).
 */
export const gateAnswerHeaders = (requestId: string, contentLength: number): Record<string, string | number> => ({
  "x-content-type-options": NOSNIFF,
  "referrer-policy": NO_REFERRER,
  "content-security-policy": NO_FRAMING_POLICY,
  "x-frame-options": NO_FRAMING,
  "x-request-id": requestId,
  "cache-control": apiCacheControl,
  "content-type": "application/json",
  "content-length": contentLength
})
