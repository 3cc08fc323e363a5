import { FastCheck } from "effect"
import * as FindMyWay from "find-my-way-ts"
import { describe, expect, it } from "vitest"
import { canonicalTarget, pathOf, TargetRefused } from "../src/CanonicalTarget.js"

const canonical = (target: string) => {
  const result = canonicalTarget(target)
  return result instanceof TargetRefused ? `REFUSED: ${result.reason}` : result
}

const refusal = (target: string) => {
  const result = canonicalTarget(target)
  return result instanceof TargetRefused ? result.reason : undefined
}

describe("canonicalTarget", () => {
  it("returns a canonical target unchanged (the same string)", () => {
    for (const target of ["/", "/api/health/ping", "/api/servers/7/players?limit=5&x=a+b", "/api/bans?q=%C3%A4%2F", "/a-b._~!$&'()*+,=:@/c"]) {
      expect(canonicalTarget(target)).toBe(target)
    }
  })

  it("turns absolute-form into origin-form, any scheme case, host and port", () => {
    expect(canonical("http://x/api/auth/login")).toBe("/api/auth/login")
    expect(canonical("HTTPS://Example.COM:8443/api/auth/login?x=1")).toBe("/api/auth/login?x=1")
    expect(canonical("hTtP://[::1]:80//api//auth/")).toBe("/api/auth")
    expect(canonical("http://user@host/a")).toBe("/a")
    expect(canonical("http://x")).toBe("/")
    expect(canonical("http://x?q=1")).toBe("/?q=1")
  })

  it("decodes escapes of unreserved characters, keeps the others with upper-case hex", () => {
    expect(canonical("/%61pi/%41uth/%6c%6F%67%69%6E")).toBe("/api/Auth/login")
    expect(canonical("/a%2d%2E%5f%7e%30")).toBe("/a-._~0")
    expect(canonical("/a%3b%3a%40%25%20%c3%a4%E2%82%AC%F0%9F%98%80")).toBe("/a%3B%3A%40%25%20%C3%A4%E2%82%AC%F0%9F%98%80")
    expect(canonical("/a%21%2a")).toBe("/a%21%2A")
  })

  it("escapes characters that may not appear raw in a path", () => {
    expect(canonical('/a|b/"c"/<d>/^/`/{e}/[f]')).toBe("/a%7Cb/%22c%22/%3Cd%3E/%5E/%60/%7Be%7D/%5Bf%5D")
  })

  it("collapses duplicate slashes and removes a trailing slash", () => {
    expect(canonical("//api///auth//login//")).toBe("/api/auth/login")
    expect(canonical("/api/auth/login/")).toBe("/api/auth/login")
    expect(canonical("/api/auth/login/?x=/")).toBe("/api/auth/login?x=/")
    expect(canonical("//")).toBe("/")
    expect(canonical("///?a")).toBe("/?a")
  })

  it("keeps the case of the path and the query as sent", () => {
    expect(canonical("/API/Auth/LOGIN?A=%c3%a4&b=|")).toBe("/API/Auth/LOGIN?A=%c3%a4&b=|")
  })

  it("refuses malformed escapes, in the path and in the query", () => {
    for (const target of ["/a%", "/a%4", "/a%zz", "/a%4g/b", "/a%%41", "/a?x=%", "/a?x=%e", "/a?x=%G0"]) {
      expect(refusal(target), target).toMatch(/^malformed percent-escape ".*" in the (path|query)/)
    }
  })

  it("refuses escapes that are not well-formed UTF-8", () => {
    const bad = [
      "%C0%AF", // overlong "/"
      "%C1%81", // overlong "A"
      "%E0%80%AF", // overlong, three bytes
      "%F0%80%80%AF", // overlong, four bytes
      "%ED%A0%80", // UTF-16 surrogate
      "%ED%BF%BF",
      "%F4%90%80%80", // past U+10FFFF
      "%F5%80%80%80",
      "%FF",
      "%80", // stray continuation byte
      "%C3", // truncated
      "%E2%82", // truncated
      "%C3a", // lead byte then a plain character
      "%C3%C3%A4" // lead byte then another lead byte
    ]
    for (const escapes of bad) {
      expect(refusal(`/a/${escapes}/b`), escapes).toMatch(/^percent-escapes in the path are not valid UTF-8/)
      expect(refusal(`/a?x=${escapes}&y`), escapes).toMatch(/^percent-escapes in the query are not valid UTF-8/)
    }
    expect(refusal("/a%C3")).toMatch(/not valid UTF-8 \(%C3\)/)
    expect(refusal("/a%C3?x")).toMatch(/not valid UTF-8/)
  })

  it("refuses NUL and other control characters, raw or escaped, in the path or the query", () => {
    expect(refusal("/a%00")).toBe("NUL (%00) in the path")
    expect(refusal("/a?x=%00")).toBe("NUL (%00) in the query")
    for (const escape of ["%01", "%09", "%0a", "%0D", "%1F", "%7F"]) {
      expect(refusal(`/a${escape}b`), escape).toMatch(/^control character %[0-9A-F]{2} in the path/)
      expect(refusal(`/a?q=${escape}`), escape).toMatch(/^control character %[0-9A-F]{2} in the query/)
    }
    // C1 controls, escaped as UTF-8
    expect(refusal("/a%C2%85")).toMatch(/^control character U\+0085 \(%C2%85\) in the path/)
    expect(refusal("/a?q=%c2%9f")).toMatch(/^control character U\+009F/)
    for (const raw of ["\0", "\t", "\n", "\r", "\x7f", "\x1b"]) {
      expect(refusal(`/a${raw}b`), JSON.stringify(raw)).toMatch(/^raw control character/)
      expect(refusal(`/a?q=${raw}`), JSON.stringify(raw)).toMatch(/^raw control character/)
    }
  })

  it("refuses raw non-ASCII", () => {
    expect(refusal("/caf\u00e9")).toMatch(/^raw non-ASCII character/)
    expect(refusal("/a?q=\u00e9")).toMatch(/^raw non-ASCII character/)
    expect(refusal("/\u{1F600}")).toMatch(/^raw non-ASCII character/)
  })

  it("refuses dot segments, plain or escaped, anywhere in the path", () => {
    for (const target of [
      "/.",
      "/..",
      "/api/./auth/login",
      "/api/x/../auth/login",
      "/api/auth/login/.",
      "/api/auth/login/..",
      "/api/auth/login/../",
      "/api/%2e/auth",
      "/api/%2E%2e/auth",
      "/api/.%2E/auth",
      "/api//..//auth",
      "http://x/../api"
    ]) {
      expect(refusal(target), target).toMatch(/^dot segment "\.\.?" in the path/)
    }
    // Dots inside a segment are names, not dot segments.
    expect(canonical("/a/.b/..c/d./e..")).toBe("/a/.b/..c/d./e..")
    expect(canonical("/a/%2e%2e%2e")).toBe("/a/...")
  })

  it('refuses ";", "#", a backslash and an escaped slash in the path', () => {
    expect(refusal("/api/auth/login;jsessionid=1")).toMatch(/^";" in the path/)
    expect(refusal("/api;/auth/login")).toMatch(/^";" in the path/)
    expect(canonical("/a?x=1;y=2")).toBe("/a?x=1;y=2")
    for (const target of ["/a#b", "/a?b#c", "/a/%41#", "http://x#/a"]) expect(refusal(target), target).toMatch(/^"#" in the request target/)
    expect(canonical("/a%23b")).toBe("/a%23b")
    expect(refusal("/a\\b")).toMatch(/^backslash in the path/)
    expect(refusal("/a%5cb")).toMatch(/^backslash in the path/)
    expect(refusal("/api%2Fauth%2Flogin")).toMatch(/^escaped slash \(%2F\) in the path/)
    expect(refusal("/a/..%2f..%2fetc")).toMatch(/^escaped slash/)
    expect(canonical("/a?path=..%2f..%2fetc")).toBe("/a?path=..%2f..%2fetc")
  })

  it("refuses targets that are neither origin-form nor absolute http(s)", () => {
    for (const target of ["*", "", "api/auth/login", "ftp://x/api", "http:/api", "http:x/api", "https//x/api", "x://y/z", "hxxp://x/a"]) {
      expect(refusal(target), target).toBe('the request target must be a path ("/...") or an absolute http(s) URL')
    }
    expect(refusal("http:///api")).toBe("the absolute-form request target has no host")
    expect(refusal("http://a b/api")).toMatch(/^the host of an absolute-form request target/)
    expect(refusal("http://x\\y/api")).toMatch(/^the host of an absolute-form request target/)
  })

  it("pathOf drops the query", () => {
    expect(pathOf("/a/b?c=d?e")).toBe("/a/b")
    expect(pathOf("/a")).toBe("/a")
  })

  // Targets for the property tests: route-shaped paths with every segment spelled in many ways
  // (case, escapes, separators, absolute-form, trailing slash, query), and pieces that break rules.
  const piece = FastCheck.constantFrom(
    "x", "7", ".", "..", "%2e", "%2E", "%61", "%41", "%7e", "%7E", "%2f", "%2F", "%25", "%20", "%c3%a4", "%C3%A4", "%E2%82%AC",
    "%C3", "%80", "%C0%AF", "%00", "%0a", "%7F", "%3b", "%3A", "%23", "|", "^", "{", "}", "[", "]", "\"", "<", ">", "`", "\\",
    ";", "#", "=", "&", "+", "~", "-", "_", "!", "'", "(", "*", ":", "@", "%", "%G1", "\t", "\u00e9"
  )
  const hex = (c: string) => c.charCodeAt(0).toString(16)
  const spelledChar = (c: string) =>
    FastCheck.constantFrom(c, c.toUpperCase(), `%${hex(c)}`, `%${hex(c).toUpperCase()}`, `%${hex(c.toUpperCase())}`)
  const word = (w: string) => FastCheck.tuple(...[...w].map(spelledChar)).map((cs) => cs.join(""))
  const words = (...ws: Array<string>) => FastCheck.tuple(...ws.map(word))
  const param = FastCheck.array(piece, { minLength: 1, maxLength: 3 }).map((ps) => ps.join(""))
  const segments = FastCheck.oneof(
    words("api", "auth", "login"),
    FastCheck.tuple(words("api", "servers"), param).map(([ws, p]) => [...ws, p]),
    FastCheck.tuple(words("api", "servers"), param, word("players")).map(([ws, p, w]) => [...ws, p, w]),
    FastCheck.tuple(words("api", "maps", "tiles"), FastCheck.array(param, { minLength: 1, maxLength: 3 })).map(([ws, ps]) => [...ws, ...ps]),
    FastCheck.array(FastCheck.oneof(word("api"), word("x"), piece), { maxLength: 5 })
  )
  const target = FastCheck.tuple(
    FastCheck.constantFrom("", "", "", "http://h", "HTTPS://h:8443", "hTtP://[::1]:1"),
    segments,
    FastCheck.array(FastCheck.constantFrom("/", "/", "/", "//", "///"), { minLength: 6, maxLength: 6 }),
    FastCheck.constantFrom("", "", "/", "//", "/.", "/%2e%2e", ";x", "#f"),
    FastCheck.constantFrom("", "", "?", "?a=1&b=%C3%A4", "?q=%c3%a4+x", "?x=%00", "?x=%C3", "?x=/..%2f", "?x=|")
  ).map(([origin, segs, seps, tail, query]) => origin + (segs.map((s, i) => seps[i] + s).join("") || "/") + tail + query)
  const fixedRuns = { numRuns: 4000, seed: 20_260_110 }

  it("is idempotent, and its output has no empty, trailing or dot segment", () => {
    FastCheck.assert(
      FastCheck.property(target, (raw) => {
        const first = canonicalTarget(raw)
        if (first instanceof TargetRefused) return
        expect(canonicalTarget(first)).toBe(first)
        const path = pathOf(first)
        expect(path.startsWith("/")).toBe(true)
        if (path !== "/") {
          const segments = path.slice(1).split("/")
          for (const segment of segments) {
            expect(segment.length).toBeGreaterThan(0)
            expect(segment === "." || segment === "..").toBe(false)
          }
        }
        expect(path).not.toMatch(/%[0-9A-F]?[a-f]|%(2[DdEe]|3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|5[Ff]|6[1-9A-Fa-f]|7[0-9Aa]|7[Ee])/)
        expect(path).not.toMatch(/[;#\\\s"<>^`{|}[\]]/)
      }),
      fixedRuns
    )
  })

  it("routes exactly as the router routes the raw target, wherever the router matches it", () => {
    const router = FindMyWay.make<string>({ ignoreTrailingSlash: true })
    for (const path of ["/api/auth/login", "/api/servers/:id", "/api/servers/:id/players", "/api/maps/tiles/*", "/api/x"]) {
      router.on("GET", path as FindMyWay.PathInput, path)
    }
    let compared = 0
    FastCheck.assert(
      FastCheck.property(target, (raw) => {
        const result = canonicalTarget(raw)
        if (result instanceof TargetRefused) return
        const viaRaw = router.find("GET", raw)
        const viaCanonical = router.find("GET", result)
        if (viaRaw !== undefined) {
          compared++
          expect({ handler: viaCanonical?.handler, params: viaCanonical?.params }, `${raw} -> ${result}`).toEqual({
            handler: viaRaw.handler,
            params: viaRaw.params
          })
        }
      }),
      fixedRuns
    )
    // The property must have been exercised, not vacuously true.
    expect(compared).toBeGreaterThan(300)
  })
})
