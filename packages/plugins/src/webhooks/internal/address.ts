/**
 * Which IP addresses a webhook may not reach unless an admin allows it
 * (`WEBHOOKS_ALLOW_PRIVATE`): anything that is not a public unicast
 * address. The controller usually sits next to things a webhook must never
 * be pointed at: itself, the game servers' agents and RCON, the host's
 * other services, a cloud's metadata service (169.254.169.254).
 *
 * The special ranges are ipaddr.js's (the IANA special-purpose registries,
 * kept up to date there; Express's proxy-addr uses it). IPv4-mapped
 * (`::ffff:127.0.0.1`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`) IPv6
 * addresses are judged by the IPv4 address they carry, so a public-looking
 * IPv6 form cannot smuggle a private IPv4 address through a gateway.
 * Pure functions over the text of an address.
 */
import ipaddr from "ipaddr.js"

const WHY: Readonly<Record<string, string>> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address (cloud metadata services live here)",
  loopback: "a loopback address",
  carrierGradeNat: "a shared (carrier-grade NAT) address",
  private: "a private address",
  uniqueLocal: "a unique local (private) address",
  deprecatedSiteLocal: "a site-local address",
  teredo: "a Teredo address",
  discard: "a discard address",
  rfc6052: "a local-use NAT64 address",
  rfc6145: "an IPv4-translated address",
  reserved: "a reserved or documentation address"
}

/** Brackets and a zone (`fe80::1%eth0`) off; what ipaddr.js parses. */
const bare = (address: string): string => {
  const unbracketed = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const zone = unbracketed.indexOf("%")
  return zone >= 0 ? unbracketed.slice(0, zone) : unbracketed
}

/**
 * Canonical forms only: four decimal parts, or IPv6. ipaddr.js also reads
 * `1.2.3`, hex and octal; addresses from a DNS answer or a parsed URL host
 * are never spelled so, and anything else is refused as no address.
 */
const isAddress = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text)

/** The IPv4 address in 32 bits of an IPv6 one, from 16-bit group `at`. */
const carried = (address: ipaddr.IPv6, at: number): ipaddr.IPv4 => {
  const bytes = address.toByteArray().slice(at * 2, at * 2 + 4)
  return new ipaddr.IPv4(bytes)
}

/** An IPv6 address that stands for an IPv4 one (mapped, NAT64's well-known prefix, 6to4): that address and how. */
const viaIpv4 = (address: ipaddr.IPv6): { readonly inner: ipaddr.IPv4; readonly how: string } | undefined => {
  const groups = address.parts
  if (address.isIPv4MappedAddress()) return { inner: address.toIPv4Address(), how: "IPv4-mapped" }
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return { inner: carried(address, 6), how: "through NAT64" }
  if (groups[0] === 0x2002) return { inner: carried(address, 1), how: "through 6to4" }
  return undefined
}

const refusal = (range: string): string | undefined => (range === "unicast" ? undefined : (WHY[range] ?? `a special-purpose address (${range})`))

/**
 * Why a webhook may not connect to `address` (an IPv4 or IPv6 address as
 * text, brackets and a zone allowed), or undefined for a public unicast
 * address. Text that is no IP address at all is refused too.
 */
export const blockedAddress = (address: string): string | undefined => {
  const text = bare(address)
  if (!isAddress(text)) return "not an IP address"
  const parsed = ipaddr.parse(text)
  if (parsed.kind() === "ipv4") return refusal(parsed.range())
  const six = parsed as ipaddr.IPv6
  const via = viaIpv4(six)
  if (via !== undefined) {
    const inner = refusal(via.inner.range())
    return inner === undefined ? undefined : `${inner} (${via.how})`
  }
  // ::a.b.c.d (IPv4-compatible, deprecated): ipaddr.js calls it unicast; nothing public answers there.
  if (six.parts.slice(0, 6).every((g) => g === 0)) return "an IPv4-compatible address (deprecated)"
  return refusal(six.range())
}

/** Whether a URL's host is an IP address written out (which no DNS lookup resolves, so it is checked as it is). */
export const isIpLiteral = (host: string): boolean => isAddress(bare(host))
