/**
 * What the accounts plugin reads off a request: the caller's IP (the same
 * rule as the host's gate, which does not hand its verdict to handlers),
 * whether it came over HTTPS, and the session token.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Option from "effect/Option"
import { CSRF_COOKIE, CSRF_HEADER } from "../sessions/Csrf.js"

export const AUTH_COOKIE = "auth-token"

/** Behind `trustProxyHops` proxies, the entry that many from the right of `X-Forwarded-For`. */
export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxyHops: number): string => {
  const socket = Option.getOrElse(request.remoteAddress, () => "unknown")
  const forwarded = request.headers["x-forwarded-for"]
  if (trustProxyHops === 0 || forwarded === undefined) return socket
  const hops = forwarded.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  return hops[hops.length - trustProxyHops] ?? hops[0] ?? socket
}

const encryptedSocket = (source: unknown): boolean => {
  if (typeof source !== "object" || source === null || !("socket" in source)) return false
  const socket = source.socket
  return typeof socket === "object" && socket !== null && "encrypted" in socket && socket.encrypted === true
}

/** HTTPS to us, or (only when proxies are trusted) `X-Forwarded-Proto: https` from the nearest one. */
export const isHttps = (request: HttpServerRequest.HttpServerRequest, trustProxyHops: number): boolean => {
  if (encryptedSocket(request.source)) return true
  const proto = request.headers["x-forwarded-proto"]
  if (trustProxyHops === 0 || proto === undefined) return false
  const hops = proto.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0)
  return (hops[hops.length - trustProxyHops] ?? hops[0]) === "https"
}

export interface Credentials {
  readonly token: string
  readonly via: "cookie" | "bearer"
}

/**
 * A session token as a bearer token is a JWT (three base64url parts); other
 * bearer tokens (a chat bot's API key, a partner key) belong to other
 * schemes, so they are not read as a bad session.
 */
const JWT = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/i

/** The `auth-token` cookie first, then `Authorization: Bearer <JWT>`. */
export const credentialsOf = (request: HttpServerRequest.HttpServerRequest): Option.Option<Credentials> => {
  const cookie = request.cookies[AUTH_COOKIE]
  if (cookie !== undefined && cookie.length > 0) return Option.some({ token: cookie, via: "cookie" })
  const header = request.headers["authorization"]
  const match = header === undefined ? null : JWT.exec(header)
  return match?.[1] !== undefined ? Option.some({ token: match[1], via: "bearer" }) : Option.none()
}

export const csrfHeaderOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => request.headers[CSRF_HEADER]

export const csrfCookieOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => request.cookies[CSRF_COOKIE]
