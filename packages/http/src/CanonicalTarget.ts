/**
 * One canonical form of a request target, so the rate limiter, both
 * routers, the audit trail and the request log all see the same path.
 *
 * The routers (find-my-way) match case-insensitively, collapse duplicate
 * slashes, ignore a trailing slash, strip an `http(s)://host` prefix,
 * decode percent-escapes and cut the path at `?`, `;` or `#`. Left to them,
 * `/API/auth/login`, `/%61pi/auth/login`, `/api//auth/login/` and
 * `http://x/api/auth/login` are one route behind many spellings. Here:
 *
 * - absolute-form (`http(s)://authority/path`) becomes origin-form;
 * - escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) are decoded,
 *   other escapes kept with upper-case hex; characters that may not appear
 *   raw in a path (`" < > ^ \` { | } [ ]`) are escaped;
 * - duplicate slashes are collapsed and a trailing slash removed;
 * - the query is kept as sent, only validated.
 *
 * Refused (`TargetRefused`, a 400): malformed escapes, escapes that are not
 * well-formed UTF-8 (overlong forms, surrogates, stray or missing
 * continuation bytes), control characters raw or escaped (NUL included),
 * raw non-ASCII, dot segments (`.`, `..`, escaped too), `;`, a backslash or
 * an escaped slash in the path, `#` anywhere, and targets that are neither
 * origin-form nor absolute http(s) (`*`, `ftp://...`). Case is kept: route
 * parameters are case-sensitive, and the routers ignore case themselves.
 *
 * A plain function over char codes: it runs on every request. A target that
 * is already canonical (the usual case) is returned as the same string.
 */

/** Why a target was refused; the message names what is wrong. */
export class TargetRefused {
  constructor(readonly reason: string) {}
}

/** The canonical target (path and query), or why it was refused. */
export const canonicalTarget = (target: string): string | TargetRefused => {
  if (target.charCodeAt(0) === SLASH) return canonicalOriginForm(target, 0)
  const pathAt = absoluteFormPathStart(target)
  if (typeof pathAt !== "number") return pathAt
  if (pathAt === target.length) return "/"
  if (target.charCodeAt(pathAt) === QUESTION) {
    const problem = queryProblem(target, pathAt + 1)
    return problem ?? "/" + target.slice(pathAt)
  }
  return canonicalOriginForm(target, pathAt)
}

/** The path of a canonical target (without its query). */
export const pathOf = (canonical: string): string => {
  const queryAt = canonical.indexOf("?")
  return queryAt === -1 ? canonical : canonical.slice(0, queryAt)
}

const SLASH = 0x2f
const QUESTION = 0x3f
const PERCENT = 0x25
const DOT = 0x2e
const HASH = 0x23
const SEMICOLON = 0x3b
const BACKSLASH = 0x5c

/** Bytes that stand for themselves in a canonical path: unreserved, sub-delims but `;`, `:` and `@`. */
const PLAIN = new Uint8Array(128)
/** Unreserved characters: their escapes are decoded. */
const UNRESERVED = new Uint8Array(128)
/** Printable ASCII that may not appear raw in a path: escaped. */
const ESCAPED_RAW = new Uint8Array(128)
/** Characters allowed in the authority of an absolute-form target. */
const AUTHORITY = new Uint8Array(128)
{
  const set = (table: Uint8Array, chars: string) => {
    for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1
  }
  const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
  set(UNRESERVED, alnum + "-._~")
  set(PLAIN, alnum + "-._~" + "!$&'()*+,=" + ":@")
  set(ESCAPED_RAW, "\"<>^`{|}[]")
  set(AUTHORITY, alnum + "-._~" + "!$&'()*+,;=" + ":@[]%")
}

const HEX = "0123456789ABCDEF"

const hexValue = (code: number): number => {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  const lower = code | 0x20
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10
  return -1
}

const escapeOf = (byte: number) => "%" + HEX[byte >> 4]! + HEX[byte & 15]!

const isControl = (code: number) => code < 0x20 || code === 0x7f

const describeControl = (byte: number, where: string) =>
  byte === 0 ? `NUL (%00) in the ${where}` : `control character ${escapeOf(byte)} in the ${where}`

/**
 * Where the path of an absolute-form target starts (its length when it has
 * no path), or why it is refused. Only http and https, in any case, with a
 * non-empty authority of URI characters.
 */
const absoluteFormPathStart = (target: string): number | TargetRefused => {
  const schemeEnd = target.indexOf("://")
  const scheme = schemeEnd === -1 ? "" : target.slice(0, schemeEnd).toLowerCase()
  if (scheme !== "http" && scheme !== "https") {
    return new TargetRefused('the request target must be a path ("/...") or an absolute http(s) URL')
  }
  const authorityAt = schemeEnd + 3
  let i = authorityAt
  for (; i < target.length; i++) {
    const code = target.charCodeAt(i)
    if (code === SLASH || code === QUESTION) break
    if (code === HASH) return fragmentRefused
    if (code >= 128 || AUTHORITY[code] === 0) {
      return new TargetRefused("the host of an absolute-form request target has a character a host cannot have")
    }
  }
  if (i === authorityAt) return new TargetRefused("the absolute-form request target has no host")
  return i
}

const fragmentRefused = new TargetRefused('"#" in the request target: a fragment is never sent to a server')

/** The canonical path and query of `target` from `start` (a "/"). */
const canonicalOriginForm = (target: string, start: number): string | TargetRefused => {
  // Fast path: plain characters only, no empty or dot segment, no trailing slash.
  const end = target.length
  let segmentAt = start + 1
  let i = start + 1
  let canonical = true
  for (; i < end; i++) {
    const code = target.charCodeAt(i)
    if (code === SLASH) {
      if (i === segmentAt || isDotSegment(target, segmentAt, i)) {
        canonical = false
        break
      }
      segmentAt = i + 1
    } else if (code === QUESTION) {
      break
    } else if (code >= 128 || PLAIN[code] === 0) {
      canonical = false
      break
    }
  }
  if (canonical) {
    // `i` is at the query or the end: the last segment must not be empty (trailing slash) or dots.
    if ((i === segmentAt && i !== start + 1) || isDotSegment(target, segmentAt, i)) canonical = false
  }
  if (!canonical) return rebuild(target, start)
  if (i < end) {
    const problem = queryProblem(target, i + 1)
    if (problem !== undefined) return problem
  }
  return start === 0 ? target : target.slice(start)
}

const isDotSegment = (text: string, from: number, to: number) =>
  (to - from === 1 && text.charCodeAt(from) === DOT) ||
  (to - from === 2 && text.charCodeAt(from) === DOT && text.charCodeAt(from + 1) === DOT)

/** The slow path: the path rebuilt segment by segment, every rule checked. */
const rebuild = (target: string, start: number): string | TargetRefused => {
  const end = target.length
  const utf8 = new Utf8Check()
  let path = ""
  let segment = ""
  let i = start + 1
  for (; i < end; i++) {
    const code = target.charCodeAt(i)
    if (code === PERCENT) {
      const byte = escapedByte(target, i)
      if (byte < 0) return malformedEscape(target, i, "path")
      i += 2
      if (utf8.pending > 0 || byte >= 0x80) {
        const problem = utf8.push(byte, "path")
        if (problem !== undefined) return problem
        segment += escapeOf(byte)
      } else if (isControl(byte)) {
        return new TargetRefused(describeControl(byte, "path"))
      } else if (UNRESERVED[byte] === 1) {
        segment += String.fromCharCode(byte)
      } else if (byte === SLASH) {
        return new TargetRefused("escaped slash (%2F) in the path: a path segment cannot contain a separator")
      } else if (byte === BACKSLASH) {
        return backslashRefused
      } else {
        segment += escapeOf(byte)
      }
      continue
    }
    if (utf8.pending > 0) return utf8.truncated("path")
    if (code === QUESTION) break
    if (code === SLASH) {
      if (segment === "." || segment === "..") return dotSegmentRefused(segment)
      if (segment.length > 0) path += "/" + segment
      segment = ""
    } else if (code >= 128) {
      return nonAsciiRefused
    } else if (isControl(code)) {
      return new TargetRefused(`raw control character ${escapeOf(code)} in the request target`)
    } else if (code === SEMICOLON) {
      return new TargetRefused('";" in the path: path parameters are not supported')
    } else if (code === HASH) {
      return fragmentRefused
    } else if (code === BACKSLASH) {
      return backslashRefused
    } else if (ESCAPED_RAW[code] === 1) {
      segment += escapeOf(code)
    } else {
      segment += target[i]!
    }
  }
  if (utf8.pending > 0) return utf8.truncated("path")
  if (segment === "." || segment === "..") return dotSegmentRefused(segment)
  if (segment.length > 0) path += "/" + segment
  if (path.length === 0) path = "/"
  if (i === end) return path
  const problem = queryProblem(target, i + 1)
  return problem ?? path + target.slice(i)
}

const backslashRefused = new TargetRefused("backslash in the path: use / between segments")
const nonAsciiRefused = new TargetRefused("raw non-ASCII character in the request target: percent-encode it as UTF-8")
const dotSegmentRefused = (segment: string) =>
  new TargetRefused(`dot segment "${segment}" in the path (also when escaped): name the resource directly`)

/** The byte an escape at `at` stands for, or -1 when it is not `%` and two hex digits. */
const escapedByte = (text: string, at: number): number => {
  if (at + 2 >= text.length) return -1
  const high = hexValue(text.charCodeAt(at + 1))
  const low = hexValue(text.charCodeAt(at + 2))
  return high < 0 || low < 0 ? -1 : (high << 4) | low
}

const malformedEscape = (text: string, at: number, where: string) =>
  new TargetRefused(
    `malformed percent-escape "${text.slice(at, Math.min(at + 3, text.length))}" in the ${where}: "%" must be followed by two hex digits`
  )

/** Validates the query from `from` to the end: escapes well-formed and UTF-8, no controls, no raw non-ASCII, no "#". */
const queryProblem = (target: string, from: number): TargetRefused | undefined => {
  let utf8: Utf8Check | undefined
  for (let i = from; i < target.length; i++) {
    const code = target.charCodeAt(i)
    if (code === PERCENT) {
      const byte = escapedByte(target, i)
      if (byte < 0) return malformedEscape(target, i, "query")
      i += 2
      if (byte >= 0x80 || (utf8 !== undefined && utf8.pending > 0)) {
        utf8 ??= new Utf8Check()
        const problem = utf8.push(byte, "query")
        if (problem !== undefined) return problem
      } else if (isControl(byte)) {
        return new TargetRefused(describeControl(byte, "query"))
      }
      continue
    }
    if (utf8 !== undefined && utf8.pending > 0) return utf8.truncated("query")
    if (code >= 128) return nonAsciiRefused
    if (isControl(code)) return new TargetRefused(`raw control character ${escapeOf(code)} in the request target`)
    if (code === HASH) return fragmentRefused
  }
  return utf8 !== undefined && utf8.pending > 0 ? utf8.truncated("query") : undefined
}

/**
 * Checks escaped bytes as UTF-8 (RFC 3629): no overlong forms, no
 * surrogates, nothing past U+10FFFF, no stray or missing continuation
 * bytes; C1 controls (U+0080-U+009F) are refused like the ASCII ones.
 */
class Utf8Check {
  pending = 0
  private low = 0x80
  private high = 0xbf
  private codePoint = 0
  private sequence = ""

  push(byte: number, where: string): TargetRefused | undefined {
    this.sequence += escapeOf(byte)
    if (this.pending > 0) {
      if (byte < this.low || byte > this.high) return this.invalid(where)
      this.codePoint = (this.codePoint << 6) | (byte & 0x3f)
      this.low = 0x80
      this.high = 0xbf
      this.pending--
      if (this.pending === 0) {
        if (this.codePoint >= 0x80 && this.codePoint <= 0x9f) {
          return new TargetRefused(`control character U+00${HEX[this.codePoint >> 4]}${HEX[this.codePoint & 15]} (${this.sequence}) in the ${where}`)
        }
        this.sequence = ""
      }
      return undefined
    }
    if (byte >= 0xc2 && byte <= 0xdf) this.begin(1, byte & 0x1f, 0x80, 0xbf)
    else if (byte === 0xe0) this.begin(2, byte & 0x0f, 0xa0, 0xbf)
    else if (byte === 0xed) this.begin(2, byte & 0x0f, 0x80, 0x9f)
    else if (byte >= 0xe1 && byte <= 0xef) this.begin(2, byte & 0x0f, 0x80, 0xbf)
    else if (byte === 0xf0) this.begin(3, byte & 0x07, 0x90, 0xbf)
    else if (byte >= 0xf1 && byte <= 0xf3) this.begin(3, byte & 0x07, 0x80, 0xbf)
    else if (byte === 0xf4) this.begin(3, byte & 0x07, 0x80, 0x8f)
    else return this.invalid(where)
    return undefined
  }

  truncated(where: string): TargetRefused {
    return this.invalid(where)
  }

  private begin(pending: number, bits: number, low: number, high: number) {
    this.pending = pending
    this.codePoint = bits
    this.low = low
    this.high = high
  }

  private invalid(where: string) {
    return new TargetRefused(
      `percent-escapes in the ${where} are not valid UTF-8 (${this.sequence}): overlong, surrogate, stray or incomplete byte sequence`
    )
  }
}
