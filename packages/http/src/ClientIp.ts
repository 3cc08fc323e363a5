/**
 * The caller's IP. Behind `trustProxyHops` proxies, the address is taken from
 * `X-Forwarded-For`, counting that many entries from the right: those are the
 * ones our own proxies appended, so a client cannot forge them.
 */
export const socketClientIp = (
  socketAddress: string | undefined,
  forwardedFor: string | Array<string> | undefined,
  trustProxyHops: number
): string => {
  const socket = socketAddress ?? "unknown"
  if (trustProxyHops === 0 || forwardedFor === undefined) return socket
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor
  const hops = header.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
  return hops[hops.length - trustProxyHops] ?? hops[0] ?? socket
}
