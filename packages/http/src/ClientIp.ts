import type { HttpServerRequest } from "@effect/platform"

/**
 * The caller's IP. Behind `trustProxyHops` proxies, the address is taken from
 * `X-Forwarded-For`, counting that many entries from the right: those are the
 * ones our own proxies appended, so a client cannot forge them.
 */
export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxyHops: number): string => {
  const socket = request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown"
  if (trustProxyHops === 0) return socket
  const header = request.headers["x-forwarded-for"]
  if (header === undefined) return socket
  const hops = header.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  return hops[hops.length - trustProxyHops] ?? hops[0] ?? socket
}
