/**
 * Errors never echo input: a secret-named field's issue says which rule
 * failed without the value, other values are cut to 64 characters and
 * their length, an error body lists at most 20 issues and stays small.
 */
import { HttpClient, HttpClientRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { isSecretSegment, MAX_LISTED_ISSUES } from "../src/ErrorRedaction.js"
import { errorResponse, normalizeErrorBody } from "../src/ErrorResponses.js"
import { hostController } from "./fixtures.js"

const signIn = (body: unknown) =>
  Effect.gen(function* () {
    const response = yield* HttpClient.execute(HttpClientRequest.post("/api/echo/sign-in").pipe(HttpClientRequest.bodyUnsafeJson(body)))
    const text = yield* response.text
    return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> }
  }).pipe(Effect.scoped, Effect.orDie)

/** What the front door makes of a platform error body. */
const normalized = (body: unknown, status = 400) => {
  const response = normalizeErrorBody(HttpServerResponse.unsafeJson(body, { status }))
  if (response.body._tag !== "Uint8Array") throw new Error("expected a JSON body")
  return JSON.parse(new TextDecoder().decode(response.body.body)) as Record<string, unknown>
}

const decodeError = (issues: ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string }>) => ({
  _tag: "HttpApiDecodeError",
  issues: issues.map((issue) => ({ _tag: "Type", ...issue })),
  message: issues.map((issue) => issue.message).join("\n")
})

describe("error bodies over HTTP", () => {
  it.scoped("a 900 KB password gives a small 400 that does not carry it", () =>
    Effect.gen(function* () {
      const password = "p".repeat(900 * 1024)
      const reply = yield* signIn({ username: "root", password })
      expect(reply.status).toBe(400)
      expect(reply.text.length).toBeLessThan(1024)
      expect(reply.text).not.toContain("ppp")
      expect(reply.body).toEqual({
        error: "invalid-request",
        message: "password must be a string at most 1024 characters long (value not shown)",
        details: [{ path: "password", message: "must be a string at most 1024 characters long (value not shown)" }]
      })
    }).pipe(Effect.provide(hostController())), 60_000)

  it.scoped("a secret-named field's issue names the rule, not the value, whatever the rule", () =>
    Effect.gen(function* () {
      const tooLongCode = yield* signIn({ username: "root", password: "pw", code: "123456".repeat(20) })
      // An optional field fails both sides of its union (string | undefined): the undefined side says nothing and is left out.
      expect(tooLongCode.body.details).toEqual([{ path: "code", message: "must be a string at most 64 characters long (value not shown)" }])
      expect(tooLongCode.text).not.toContain("123456")
      const wrongType = yield* signIn({ username: "root", password: 31337 })
      expect(wrongType.body.details).toEqual([{ path: "password", message: "must be a string (value not shown)" }])
      expect(wrongType.text).not.toContain("31337")
    }).pipe(Effect.provide(hostController())), 60_000)

  it.scoped("a 404 for a long unknown path quotes at most 200 characters of it", () =>
    Effect.gen(function* () {
      const path = `/api/${"p".repeat(10_000)}`
      const response = yield* HttpClient.execute(HttpClientRequest.get(path))
      const text = yield* response.text
      expect(response.status).toBe(404)
      expect(text.length).toBeLessThan(400)
      expect(JSON.parse(text)).toEqual({ error: "not-found", message: `no route for GET ${path.slice(0, 200)}… (10005 characters)` })
    }).pipe(Effect.scoped, Effect.provide(hostController()))
  )

  it.scoped("a long value elsewhere is cut to 64 characters, with its length", () =>
    Effect.gen(function* () {
      const username = `${"u".repeat(63)}\u{1F600}${"v".repeat(900 * 1024)}`
      const reply = yield* signIn({ username, password: "pw" })
      expect(reply.status).toBe(400)
      expect(reply.text.length).toBeLessThan(1024)
      // 63 units and then a pair that would be split at 64: the cut keeps the pair whole by dropping it.
      const shown = `must be a string at most 128 characters long (got "${"u".repeat(63)}…" (${username.length} characters))`
      expect(reply.body).toEqual({ error: "invalid-request", message: `username ${shown}`, details: [{ path: "username", message: shown }] })
      const short = yield* signIn({ username: 42, password: "pw" })
      expect(short.body.details).toEqual([{ path: "username", message: "must be a string (got 42)" }])
    }).pipe(Effect.provide(hostController())), 60_000)
})

describe("normalizeErrorBody", () => {
  it("lists at most 20 issues and counts the rest in the message", () => {
    const issues = Array.from({ length: 500 }, (_, i) => ({ path: ["rows", i, "name"], message: `Expected string, actual ${i}` }))
    const body = normalized(decodeError(issues))
    expect(body.message).toBe("rows.0.name must be a string (got 0) (and 499 more issues)")
    expect(body.details).toHaveLength(MAX_LISTED_ISSUES)
    expect((body.details as Array<unknown>)[19]).toEqual({ path: "rows.19.name", message: "must be a string (got 19)" })
  })

  it("never passes on the platform's own message, which quotes every value", () => {
    const body = normalized({ _tag: "HttpApiDecodeError", issues: [], message: 'Expected ..., actual "hunter2"' })
    expect(body).toEqual({ error: "invalid-request", message: "the request did not match the expected schema", details: [] })
  })

  it("does not quote objects or arrays, which may hold a secret under any name", () => {
    const body = normalized(
      decodeError([
        { path: [], message: 'Expected LoginRequest, actual {"username":"root","password":"hunter2"}' },
        { path: ["list"], message: 'Expected string, actual ["hunter2"]' }
      ])
    )
    expect(body.details).toEqual([
      { path: "", message: "must be an object (LoginRequest) (got an object)" },
      { path: "list", message: "must be a string (got an array)" }
    ])
  })

  it("finds secrets by any word of any path segment, not by substrings", () => {
    const secret = ["password", "newPassword", "current_password", "api_key", "apiKey", "APIKey", "X-Auth-Token", "refreshTokens", "mfaCode", "recoveryCodes", "authorization", "Cookie", "clientSecret", "otp"]
    const plain = ["username", "keyboard", "zipcode", "monkey", "tokenizer", "description", "reason"]
    expect(secret.filter((s) => !isSecretSegment(s))).toEqual([])
    expect(plain.filter(isSecretSegment)).toEqual([])
    const nested = normalized(decodeError([{ path: ["users", 3, "credentials", "value"], message: 'Expected string, actual "s3cr3t"' }]))
    expect(nested.details).toEqual([{ path: "users.3.credentials.value", message: "must be a string (value not shown)" }])
  })

  it("bounds a plugin's details and message, and treats its {path, message} lists like issues", () => {
    const long = "z".repeat(10_000)
    const issues = normalized({ _tag: "BadRequest", message: `bad: ${long}`, details: [{ path: "token", message: `Expected string, actual "${long}"` }] })
    expect(issues.message).toBe(`bad: ${"z".repeat(495)}… (10005 characters)`)
    expect(issues.details).toEqual([{ path: "token", message: "must be a string (value not shown)" }])

    const other = normalized({
      _tag: "Conflict",
      message: "taken",
      details: { existingId: "b-1", note: long, apiKey: "k-123", list: Array.from({ length: 50 }, (_, i) => i), deep: { a: { b: { c: { d: 1 } } } } }
    }, 409)
    expect(other).toEqual({
      error: "conflict",
      message: "taken",
      details: {
        existingId: "b-1",
        note: `${"z".repeat(200)}… (10000 characters)`,
        apiKey: "(not shown)",
        list: [...Array.from({ length: 20 }, (_, i) => i), "… 30 more"],
        deep: { a: { b: { c: "{…}" } } }
      }
    })
  })

  it("keeps the controller's own messages bounded too", () => {
    const response = errorResponse("not-found", `no route for GET /${"a".repeat(20_000)}`)
    if (response.body._tag !== "Uint8Array") throw new Error("expected a JSON body")
    expect(response.body.body.length).toBeLessThan(1024)
  })
})
