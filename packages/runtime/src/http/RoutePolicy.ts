/**
 * What an endpoint declares about itself besides its `Access` rule, read by
 * the host from the plugin plan (never from path tables):
 *
 * - `RateLimit`: the rate-limit scope it counts against, per client IP.
 *   Built in: `api` (the default: 600 a minute), `auth` (15 in 15 minutes),
 *   `chat` (60 a minute) and `exempt`; a plugin adds its own with
 *   `Plugin.make({ rateLimits })` (see `RateLimits`).
 * - `CsrfExempt`: its writes need no CSRF token even with a session cookie
 *   (sign-in, sign-out, first-run setup, requests a third party signs).
 * - `AuthSchemes`: the authentication schemes it accepts (default
 *   `session`). A request that carries credentials of another scheme, and
 *   none the endpoint accepts, is 401.
 * - `DuringPasswordChange`: a signed-in user who must change their password
 *   may still call it (the change itself, sign-out).
 * - `LicensedFeature`: the licensed feature it belongs to (lower-case
 *   words joined by dots or dashes, `fleet-sync`). After the caller passed
 *   its `Access`, the host asks the `LicenseGate` (the license plugin, when
 *   loaded and a license server is configured) and answers 402
 *   `SUBSCRIPTION_INACTIVE` or `FEATURE_NOT_ENTITLED` instead of running
 *   the handler when the license does not allow it. Without a license
 *   plugin, or without a license server, nothing is gated.
 *
 * Each goes on an endpoint, or on its group as the default for its
 * endpoints (the endpoint's own wins):
 *
 *   HttpApiEndpoint.post("action", "/api/chat/action")
 *     .annotate(RateLimit, "chat")
 *     .annotate(CsrfExempt, true)
 *     .annotate(AuthSchemes, ["chat-signature"])
 */
import * as Context from "effect/Context"

export class RateLimit extends Context.Tag("@garrison/runtime/RateLimit")<RateLimit, string>() {}

export class CsrfExempt extends Context.Tag("@garrison/runtime/CsrfExempt")<CsrfExempt, boolean>() {}

export class AuthSchemes extends Context.Tag("@garrison/runtime/AuthSchemes")<AuthSchemes, ReadonlyArray<string>>() {}

export class DuringPasswordChange extends Context.Tag("@garrison/runtime/DuringPasswordChange")<DuringPasswordChange, boolean>() {}

export class LicensedFeature extends Context.Tag("@garrison/runtime/LicensedFeature")<LicensedFeature, string>() {}

/** How a licensed feature is named: lower-case words joined by dots or dashes (`fleet-sync`, `reports.export`). */
export const LICENSED_FEATURE_NAME = /^[a-z][a-z0-9]*([.-][a-z0-9]+)*$/

/** The scheme of the accounts plugin's sign-in (cookie or bearer token): what endpoints accept unless they say otherwise. */
export const SESSION_SCHEME = "session"

/** The scope endpoints count against unless they say otherwise. */
export const DEFAULT_RATE_LIMIT = "api"
