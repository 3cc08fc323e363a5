/**
 * Responses the routes build themselves: the login response with its
 * cookies, logout's cleared cookies, and errors whose codes the host's
 * tag table does not know (`mfa-required`) or that carry `Retry-After`.
 * They are written in the host's one error shape.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Duration from "effect/Duration"
import type { LockedOut } from "../errors.js"
import { CSRF_COOKIE } from "../sessions/Csrf.js"
import type { IssuedSession } from "../sessions/Sessions.js"
import { AUTH_COOKIE } from "./request.js"

export const errorJson = (
  status: number,
  error: string,
  message: string,
  headers?: Record<string, string>
): HttpServerResponse.HttpServerResponse => HttpServerResponse.unsafeJson({ error, message }, { status, headers })

export const lockedOut = ({ reason, retryAfterSeconds }: LockedOut) =>
  errorJson(
    429,
    "rate-limited",
    reason === "attempts-at-limit"
      ? `too many sign-in attempts under way for this username from this address; retry in ${retryAfterSeconds} s`
      : reason === "address-at-limit"
        ? `too many failed sign-ins from this address; retry in ${retryAfterSeconds} s`
        : `too many failed sign-ins for this username from this address; retry in ${retryAfterSeconds} s`,
    { "retry-after": String(retryAfterSeconds) }
  )

/** `auth-token` (HttpOnly) and `csrf-token` (readable by scripts), both SameSite=Lax, Secure over HTTPS. */
export const withSessionCookies = (
  response: HttpServerResponse.HttpServerResponse,
  session: IssuedSession,
  secure: boolean
): HttpServerResponse.HttpServerResponse => {
  const common = { path: "/", sameSite: "lax", secure, maxAge: Duration.seconds(session.maxAgeSeconds) } as const
  return response.pipe(
    HttpServerResponse.unsafeSetCookie(AUTH_COOKIE, session.token, { ...common, httpOnly: true }),
    HttpServerResponse.unsafeSetCookie(CSRF_COOKIE, session.csrfToken, { ...common, httpOnly: false })
  )
}

export const withoutSessionCookies = (
  response: HttpServerResponse.HttpServerResponse,
  secure: boolean
): HttpServerResponse.HttpServerResponse =>
  response.pipe(
    HttpServerResponse.expireCookie(AUTH_COOKIE, { path: "/", sameSite: "lax", secure, httpOnly: true }),
    HttpServerResponse.expireCookie(CSRF_COOKIE, { path: "/", sameSite: "lax", secure })
  )
