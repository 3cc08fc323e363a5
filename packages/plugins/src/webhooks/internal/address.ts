/**
 * Which IP addresses a webhook may not reach unless an admin allows it
 * (`WEBHOOKS_ALLOW_PRIVATE`): anything that is not a public unicast
 * address. The controller usually sits next to things a webhook must never
 * be pointed at: itself, the game servers' agents and RCON, the host's
 * other services, a cloud's metadata service (169.254.169.254).
 *
 * IPv4-mapped (`::ffff:127.0.0.1`), IPv4-compatible, NAT64 (`64:ff9b::/96`)
 * and 6to4 (`2002::/16`) IPv6 addresses are judged by the IPv4 address they
 * carry. Pure functions over the text of an address.
 */

interface Range4 {
  readonly base: number
  readonly bits: number
  readonly what: string
}

const v4 = (text: string): number | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  let value = 0
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined
    const n = Number(part)
    if (n > 255) return undefined
    value = value * 256 + n
  }
  return value
}

const range4 = (cidr: string, what: string): Range4 => {
  const [base, bits] = cidr.split("/")
  return { base: v4(base!)!, bits: Number(bits), what }
}

const BLOCKED_V4: ReadonlyArray<Range4> = [
  range4("0.0.0.0/8", "an unspecified (this-network) address"),
  range4("10.0.0.0/8", "a private address"),
  range4("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
  range4("127.0.0.0/8", "a loopback address"),
  range4("169.254.0.0/16", "a link-local address (cloud metadata services live here)"),
  range4("172.16.0.0/12", "a private address"),
  range4("192.0.0.0/24", "an IETF protocol address"),
  range4("192.0.2.0/24", "a documentation address"),
  range4("192.168.0.0/16", "a private address"),
  range4("198.18.0.0/15", "a benchmarking address"),
  range4("198.51.100.0/24", "a documentation address"),
  range4("203.0.113.0/24", "a documentation address"),
  range4("224.0.0.0/4", "a multicast address"),
  range4("240.0.0.0/4", "a reserved or broadcast address")
]

const inRange4 = (address: number, range: Range4) => {
  const size = 2 ** (32 - range.bits)
  return Math.floor(address / size) === Math.floor(range.base / size)
}

const blocked4 = (address: number): string | undefined => BLOCKED_V4.find((range) => inRange4(address, range))?.what

/** The eight 16-bit groups of an IPv6 address (an embedded dotted quad and a zone allowed), or undefined. */
const v6 = (input: string): ReadonlyArray<number> | undefined => {
  let text = input.toLowerCase()
  const zone = text.indexOf("%")
  if (zone >= 0) text = text.slice(0, zone)
  const lastColon = text.lastIndexOf(":")
  if (lastColon < 0) return undefined
  const tail = text.slice(lastColon + 1)
  if (tail.includes(".")) {
    const quad = v4(tail)
    if (quad === undefined) return undefined
    text = `${text.slice(0, lastColon + 1)}${Math.floor(quad / 65536).toString(16)}:${(quad % 65536).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groups = (part: string) => (part === "" ? [] : part.split(":"))
  const head = groups(halves[0]!)
  const rest = halves.length === 2 ? groups(halves[1]!) : []
  const missing = 8 - head.length - rest.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const all = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...rest]
  const out: Array<number> = []
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined
    out.push(parseInt(group, 16))
  }
  return out.length === 8 ? out : undefined
}

const embedded4 = (groups: ReadonlyArray<number>, at: number) => groups[at]! * 65536 + groups[at + 1]!

const blocked6 = (g: ReadonlyArray<number>): string | undefined => {
  const zeroes = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  if (zeroes(0, 8)) return "the unspecified address (::)"
  if (zeroes(0, 7) && g[7] === 1) return "a loopback address (::1)"
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 address decides, and a compatible one is refused anyway.
  if (zeroes(0, 5) && g[5] === 0xffff) {
    const inner = blocked4(embedded4(g, 6))
    return inner === undefined ? undefined : `${inner} (IPv4-mapped)`
  }
  if (zeroes(0, 6)) return "an IPv4-compatible address (deprecated)"
  // NAT64 (64:ff9b::/96) translates to the IPv4 address it carries; the local-use prefix 64:ff9b:1::/48 is refused.
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (zeroes(2, 6)) {
      const inner = blocked4(embedded4(g, 6))
      return inner === undefined ? undefined : `${inner} (through NAT64)`
    }
    if (g[2] === 1) return "a local-use NAT64 address"
  }
  if (g[0] === 0x2002) {
    const inner = blocked4(embedded4(g, 1))
    return inner === undefined ? undefined : `${inner} (through 6to4)`
  }
  if (g[0] === 0x2001 && g[1] === 0) return "a Teredo address"
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "a documentation address"
  if (g[0] === 0x100 && zeroes(1, 4)) return "a discard address"
  if ((g[0]! & 0xfe00) === 0xfc00) return "a unique local (private) address"
  if ((g[0]! & 0xffc0) === 0xfe80) return "a link-local address"
  if ((g[0]! & 0xffc0) === 0xfec0) return "a site-local address"
  if ((g[0]! & 0xff00) === 0xff00) return "a multicast address"
  return undefined
}

/**
 * Why a webhook may not connect to `address` (an IPv4 or IPv6 address as
 * text, brackets allowed), or undefined for a public unicast address. Text
 * that is no IP address at all is refused too.
 */
export const blockedAddress = (address: string): string | undefined => {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const four = v4(text)
  if (four !== undefined) return blocked4(four)
  const six = v6(text)
  if (six !== undefined) return blocked6(six)
  return "not an IP address"
}

/** Whether a URL's host is an IP address written out (which no DNS lookup resolves, so it is checked as it is). */
export const isIpLiteral = (host: string): boolean => {
  const text = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  return v4(text) !== undefined || v6(text) !== undefined
}
