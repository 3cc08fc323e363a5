/**
 * The routes that skip a check, matched exactly (after dropping a trailing
 * slash) so nothing else can borrow an exemption. A path the host would
 * route elsewhere through odd encodings simply gets the stricter treatment.
 */
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"])

const normalize = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, "") : path)

/** The spec's CSRF-exempt list, exactly. */
const CSRF_EXEMPT_POSTS = new Set(["/api/auth/login", "/api/auth/logout", "/api/store/webhook", "/api/chat/action"])
const SETUP_PATH = /^\/api\/setup\/[A-Za-z0-9_-]+$/

export const needsCsrf = (method: string, path: string): boolean => {
  if (!MUTATING.has(method)) return false
  const p = normalize(path)
  if (method === "POST" && CSRF_EXEMPT_POSTS.has(p)) return false
  return !SETUP_PATH.test(p)
}

/** What a user who must change their password may still call. */
const WHILE_MUST_CHANGE = new Set([
  "POST /api/auth/change-password-forced",
  "POST /api/auth/logout",
  "GET /api/health",
  "GET /api/health/ping",
  "HEAD /api/health",
  "HEAD /api/health/ping"
])

export const allowedWhileMustChange = (method: string, path: string): boolean =>
  WHILE_MUST_CHANGE.has(`${method} ${normalize(path)}`)
