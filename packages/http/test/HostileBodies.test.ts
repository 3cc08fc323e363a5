/**
 * Hostile request bodies against the fixture's routes with a body: one
 * behind a permission, two open to anyone (one with a payload schema, one
 * without). Whatever arrives, the answer is below 500, in the one error
 * shape, small, and never quotes the body; the door's own refusals name
 * the byte offset or the JSON path.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { hostController } from "./fixtures.js"

const ENDPOINTS = [
  { path: "/api/echo", note: "permission echo.use" },
  { path: "/api/echo/sign-in", note: "Access.none, payload" },
  { path: "/api/auth/login", note: "Access.none, no payload" }
] as const

let clients = 0
/** Each request from its own address, clear of the per-IP rate limits. */
const nextIp = () => {
  clients += 1
  return `10.9.${(clients >> 8) & 255}.${clients & 255}`
}

interface Reply {
  readonly status: number
  readonly text: string
  readonly body: Record<string, unknown>
}

const send = (path: string, body: Uint8Array | string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body
    const request = HttpClientRequest.post(path).pipe(
      HttpClientRequest.bodyUint8Array(bytes, "application/json"),
      HttpClientRequest.setHeaders({ authorization: "Bearer test:alice:echo.use", "x-forwarded-for": nextIp(), ...headers })
    )
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return { status: response.status, text, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {} } satisfies Reply
  }).pipe(Effect.scoped, Effect.orDie)

/** What every error answer must be: the one shape, a few KB at most. */
const expectOneErrorShape = (reply: Reply, context: string) => {
  expect(reply.status, context).toBeGreaterThanOrEqual(400)
  expect(reply.status, context).toBeLessThan(500)
  const { error, message, details, ...rest } = reply.body
  expect(typeof error, context).toBe("string")
  expect(typeof message, context).toBe("string")
  expect(rest, context).toEqual({})
  expect(details === undefined || typeof details === "object", context).toBe(true)
  expect(reply.text.length, context).toBeLessThan(4096)
}

/** The body's own bytes with `inner` spliced between `{"text":"ab` and `cd"}`. */
const withBytes = (...inner: ReadonlyArray<number>) =>
  Buffer.concat([Buffer.from('{"text":"ab'), Buffer.from(inner), Buffer.from('cd"}')])

const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)

describe("hostile request bodies", () => {
  it.scoped("text that is not well-formed Unicode is a 400 naming where, on every route with a body", () =>
    Effect.gen(function* () {
      const loneSurrogates: ReadonlyArray<readonly [string, string, string]> = [
        // [raw JSON body, the path named, what is named]
        ['{"text":"a\\ud800b"}', "text", "a string"],
        ['{"text":"a\\udc00b"}', "text", "a string"],
        ['{"text":"\\udc00\\ud800"}', "text", "a string"],
        ['{"text":"ends high \\udbff"}', "text", "a string"],
        ['{"text":"ok","list":["fine",{"deeper":"x\\udfff"}]}', "list.1.deeper", "a string"],
        ['{"\\ud800":"x"}', "\\uD800", "a property name"],
        ['{"text":"ok","nested":{"deep":[{"a\\udc00b":1}]}}', "nested.deep.0.a\\uDC00b", "a property name"],
        ['"\\ud800"', "", "a string"]
      ]
      for (const { path } of ENDPOINTS) {
        for (const [body, named, what] of loneSurrogates) {
          const reply = yield* send(path, body)
          const context = `${path} ${body}`
          expectOneErrorShape(reply, context)
          expect(reply.status, context).toBe(400)
          expect(reply.body.error, context).toBe("invalid-json")
          expect(reply.body.details, context).toEqual([{ path: named, message: expect.stringContaining(`${what} is not well-formed Unicode`) }])
        }
      }

      const illFormedBytes: ReadonlyArray<readonly [ReadonlyArray<number>, string]> = [
        [[0xc0, 0xaf], "an overlong encoding"],
        [[0xe0, 0x80, 0xaf], "an overlong encoding"],
        [[0xf0, 0x80, 0x80, 0xaf], "an overlong encoding"],
        [[0xed, 0xa0, 0x80], "an encoded UTF-16 surrogate"],
        [[0xed, 0xbf, 0xbf], "an encoded UTF-16 surrogate"],
        [[0xf8, 0x88, 0x80, 0x80, 0x80], "a byte that never appears in UTF-8"],
        [[0xff], "a byte that never appears in UTF-8"],
        [[0xf4, 0x90, 0x80, 0x80], "a code point above U+10FFFF"],
        [[0x80], "a continuation byte without a lead byte"],
        [[0xe2, 0x82], "a truncated sequence"],
        [[0xf0, 0x9f, 0x98], "a truncated sequence"]
      ]
      for (const { path } of ENDPOINTS) {
        for (const [bytes, reason] of illFormedBytes) {
          const reply = yield* send(path, withBytes(...bytes))
          const context = `${path} ${Buffer.from(bytes).toString("hex")}`
          expectOneErrorShape(reply, context)
          expect(reply.body, context).toEqual({
            error: "invalid-json",
            message: `the request body is not valid UTF-8: ${reason} at byte 11`
          })
        }
        // Truncated at the very end of the body, too.
        const cut = yield* send(path, Buffer.concat([Buffer.from('{"text":"ab'), Buffer.from([0xe2, 0x82])]))
        expect(cut.body.message).toBe("the request body is not valid UTF-8: a truncated sequence at byte 11")
      }
    }).pipe(Effect.provide(hostController())), 60_000)

  it.scoped("well-formed text passes: escaped pairs, NUL, a leading byte order mark, non-ASCII", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [Uint8Array | string, string]> = [
        ['{"text":"\\ud83d\\ude00 paired escapes"}', "\u{1F600} paired escapes"],
        ['{"text":"a\\u0000b"}', "a\u0000b"],
        [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"after a BOM"}')]), "after a BOM"],
        ['{"text":"Grüße, 世界, \u{1F600}"}', "Grüße, 世界, \u{1F600}"]
      ]
      for (const [body, text] of cases) {
        const reply = yield* send("/api/echo", body)
        expect(reply.status, String(body)).toBe(200)
        expect(reply.body).toEqual({ text, by: "alice" })
      }
      // A raw control character (here NUL) inside a string is not JSON, as RFC 8259 says.
      const raw = yield* send("/api/echo", Buffer.from('{"text":"a\u0000b"}'))
      expect(raw.body).toEqual({
        error: "invalid-json",
        message: "the request body is not valid JSON: a control character inside a string (escape it) at byte 10 (line 1, column 11)"
      })
    }).pipe(Effect.provide(hostController())), 60_000)

  it.scoped("nesting 3,000 and 100,000 deep, arrays and objects, is a 400 on every route, signed in or not", () =>
    Effect.gen(function* () {
      const bodies = [
        nestedArrays(3_000),
        nestedObjects(3_000),
        nestedArrays(100_000),
        nestedObjects(100_000),
        `{"text":${nestedArrays(3_000)}}`,
        `{"text":"x","extra":${nestedObjects(3_000)}}`
      ]
      // Signed in as alice, and anonymous.
      const callers: ReadonlyArray<Record<string, string>> = [{}, { authorization: "" }]
      for (const { path } of ENDPOINTS) {
        for (const body of bodies) {
          for (const headers of callers) {
            const reply = yield* send(path, body, headers)
            const context = `${path} ${body.slice(0, 30)} (${body.length} chars)`
            expectOneErrorShape(reply, context)
            expect(reply.body.error, context).toBe("invalid-json")
            expect(reply.body.message, context).toBe("the request body nests deeper than 64 levels")
          }
        }
      }
      // The bound's edge: 64 levels pass the door, and the payload schema then refuses the field it does not name.
      const deepest = yield* send("/api/echo", `{"text":"x","extra":${nestedArrays(63)}}`)
      expect([deepest.status, deepest.body.error, deepest.body.message]).toEqual([
        400,
        "invalid-request",
        "extra is not a field of this body; its fields are text"
      ])
      const oneMore = yield* send("/api/echo", `{"text":"x","extra":${nestedArrays(64)}}`)
      expect(oneMore.body).toEqual({
        error: "invalid-json",
        message: "the request body nests deeper than 64 levels",
        details: [{ path: `extra${".0".repeat(63)}`, message: "nested deeper than 64 levels" }]
      })
    }).pipe(Effect.provide(hostController())), 60_000)

  it.scoped("a 100 KB string: taken where allowed, else a small 400 that does not carry it", () =>
    Effect.gen(function* () {
      const long = "x".repeat(100 * 1024)
      const echoed = yield* send("/api/echo", JSON.stringify({ text: long }))
      expect(echoed.status).toBe(200)
      for (const field of ["username", "password", "code"]) {
        const reply = yield* send("/api/echo/sign-in", JSON.stringify({ username: "u", password: "p", [field]: long }))
        expectOneErrorShape(reply, field)
        expect(reply.body.error).toBe("invalid-request")
        expect(reply.text).not.toContain("x".repeat(65))
      }
      // As a key named in an error, too.
      const key = yield* send("/api/echo", `{"text":"t","${long}\\ud800":1}`)
      expectOneErrorShape(key, "long key")
      expect(key.body.details).toEqual([{ path: `${"x".repeat(64)}…`, message: expect.stringContaining("a property name") }])
    }).pipe(Effect.provide(hostController())), 60_000)

  it.scoped("malformed JSON names the byte, line and column, never a piece of the body", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [string, string]> = [
        ['{"password": hunter2}', "a value expected at byte 13 (line 1, column 14)"],
        ['{"password":"hunter2" "x"}', "',' or '}' expected after a property value at byte 22 (line 1, column 23)"],
        ['{"a":1,}', "a double-quoted property name expected at byte 7 (line 1, column 8)"],
        ['{\n  "é": tru\n}', "an invalid literal (true, false or null expected) at byte 13 (line 2, column 11)"],
        ['{"text":"unterminated', "unexpected end of input at byte 21 (line 1, column 22)"],
        ['{"text":"x"} trailing', "unexpected data after the value at byte 13 (line 1, column 14)"],
        ['{"n": 01}', "',' or '}' expected after a property value at byte 7 (line 1, column 8)"],
        ['{"s": "\\x"}', "an invalid escape in a string at byte 8 (line 1, column 9)"],
        [" ", "unexpected end of input at byte 1 (line 1, column 2)"]
      ]
      for (const [body, where] of cases) {
        const reply = yield* send("/api/echo/sign-in", body)
        expectOneErrorShape(reply, body)
        expect(reply.body, body).toEqual({ error: "invalid-json", message: `the request body is not valid JSON: ${where}` })
        expect(reply.text).not.toContain("hunter2")
      }
    }).pipe(Effect.provide(hostController())), 60_000)

  it.scoped("a chunked body over the limit is a 413, and the connection closes", () =>
    Effect.gen(function* () {
      const body = Buffer.from(JSON.stringify({ text: "y".repeat(4096) }))
      const request = HttpClientRequest.post("/api/echo").pipe(
        // A stream body has no Content-Length: it goes chunked, so only reading it tells its size.
        HttpClientRequest.bodyStream(Stream.make(body), { contentType: "application/json" }),
        HttpClientRequest.setHeaders({ authorization: "Bearer test:alice:echo.use" })
      )
      const response = yield* HttpClient.execute(request)
      expect(response.status).toBe(413)
      expect(response.headers["connection"]).toBe("close")
      expect(yield* response.json).toEqual({ error: "payload-too-large", message: "request bodies are limited to 1024 bytes" })
    }).pipe(Effect.scoped, Effect.provide(hostController({ bodyLimitBytes: 1024 }))), 60_000)
})
