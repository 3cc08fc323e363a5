import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { hostController } from "./fixtures.js"

const get = (path: string, headers: Record<string, string> = {}) =>
  HttpClient.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  HttpClient.execute(
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.bodyText(body, headers["content-type"] ?? "application/json"),
      HttpClientRequest.setHeaders(headers)
    )
  )

const json = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(response.json, (body) => body as Record<string, unknown>)

const from = (ip: string) => ({ "x-forwarded-for": ip })
const user = (perms: string) => ({ authorization: `Bearer test:alice:${perms}` })

describe("front door", () => {
  it.scoped("the 601st /api/* request in a minute from one IP gets 429 with Retry-After; another IP is served", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 600; i++) {
        const ok = yield* get("/api/health/ping", from("10.0.0.1"))
        expect(ok.status).toBe(200)
      }
      const limited = yield* get("/api/health/ping", from("10.0.0.1"))
      expect(limited.status).toBe(429)
      expect(limited.headers["retry-after"]).toBe("60")
      expect((yield* json(limited)).error).toBe("rate-limited")

      expect((yield* get("/api/health/ping", from("10.0.0.2"))).status).toBe(200)

      // Half a minute on, the first requests are still in the window.
      yield* TestClock.adjust("30 seconds")
      const still = yield* get("/api/health/ping", from("10.0.0.1"))
      expect(still.status).toBe(429)
      expect(still.headers["retry-after"]).toBe("30")

      yield* TestClock.adjust("30 seconds")
      expect((yield* get("/api/health/ping", from("10.0.0.1"))).status).toBe(200)
    }).pipe(Effect.provide(hostController()))
  , 60_000)

  it.scoped("/api/auth/* allows 15 per 15 minutes; /api/maps/tiles/* is exempt", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 15; i++) expect((yield* post("/api/auth/login", "{}", from("10.0.0.3"))).status).toBe(200)
      const limited = yield* post("/api/auth/login", "{}", from("10.0.0.3"))
      expect(limited.status).toBe(429)
      expect(limited.headers["retry-after"]).toBe("900")
      for (let i = 0; i < 700; i++) {
        const tile = yield* get(`/api/maps/tiles/${i}`, from("10.0.0.4"))
        expect(tile.status).toBe(200)
      }
    }).pipe(Effect.provide(hostController()))
  , 60_000)

  it.scoped("a body over the limit gets 413 and a non-JSON body 415, before any handler", () =>
    Effect.gen(function* () {
      const big = JSON.stringify({ text: "x".repeat(2048) })
      const tooLarge = yield* post("/api/echo", big, user("echo.use"))
      expect(tooLarge.status).toBe(413)
      expect((yield* json(tooLarge)).error).toBe("payload-too-large")

      const wrongType = yield* post("/api/echo", "text=hi", { ...user("echo.use"), "content-type": "application/x-www-form-urlencoded" })
      expect(wrongType.status).toBe(415)
      expect((yield* json(wrongType)).error).toBe("unsupported-media-type")

      const badJson = yield* post("/api/echo", "{\"text\":", user("echo.use"))
      expect(badJson.status).toBe(400)
      expect((yield* json(badJson)).error).toBe("invalid-json")
    }).pipe(Effect.provide(hostController({ bodyLimitBytes: 1024 })))
  )

  it.scoped("enforces each endpoint's declared access", () =>
    Effect.gen(function* () {
      const anonymous = yield* post("/api/echo", JSON.stringify({ text: "hi" }))
      expect(anonymous.status).toBe(401)
      expect((yield* json(anonymous)).error).toBe("unauthenticated")

      const lacking = yield* post("/api/echo", JSON.stringify({ text: "hi" }), user("players.view"))
      expect(lacking.status).toBe(403)
      const body = yield* json(lacking)
      expect(body.error).toBe("forbidden")
      expect(body.message).toContain("echo.use")

      const allowed = yield* post("/api/echo", JSON.stringify({ text: "hi" }), user("echo.use"))
      expect(allowed.status).toBe(200)
      expect(yield* json(allowed)).toEqual({ text: "hi", by: "alice" })

      // admin implies every permission
      expect((yield* post("/api/echo", JSON.stringify({ text: "hi" }), user("admin"))).status).toBe(200)
      // Any auth: any authenticated caller, no permission needed
      expect((yield* get("/api/whoami", user(""))).status).toBe(200)
      expect((yield* get("/api/whoami")).status).toBe(401)
    }).pipe(Effect.provide(hostController()))
  )

  it.scoped("answers errors in one shape, naming the failing field, with a request id", () =>
    Effect.gen(function* () {
      const invalid = yield* post("/api/echo", JSON.stringify({ text: 42 }), user("echo.use"))
      expect(invalid.status).toBe(400)
      const body = yield* json(invalid)
      expect(body.error).toBe("invalid-request")
      expect(JSON.stringify(body.details)).toContain("text")
      expect(invalid.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)

      const missing = yield* get("/api/no-such-thing")
      expect(missing.status).toBe(404)
      expect(yield* json(missing)).toEqual({ error: "not-found", message: "no route for GET /api/no-such-thing" })

      const echoed = yield* get("/api/health/ping", { "x-request-id": "trace-123" })
      expect(echoed.headers["x-request-id"]).toBe("trace-123")
    }).pipe(Effect.provide(hostController()))
  )

  it.scoped("serves a merged OpenAPI document that states each operation's access", () =>
    Effect.gen(function* () {
      const spec = (yield* json(yield* get("/api/openapi.json"))) as { paths: Record<string, Record<string, Record<string, unknown>>> }
      expect(spec.paths["/api/echo"]?.post?.["x-garrison-access"]).toBe("echo.use")
      expect(spec.paths["/api/health/ping"]?.get?.["x-garrison-access"]).toBe("None")
      expect(spec.paths["/api/whoami"]?.get?.["x-garrison-access"]).toBe("Any auth")
      const docs = yield* get("/api/docs")
      expect(docs.status).toBe(200)
      expect(docs.headers["content-type"]).toContain("text/html")
      // A small page that loads the document and the Scalar file from this controller (no CDN).
      const page = yield* docs.text
      const facts = {
        small: page.length < 2_000,
        document: page.includes('data-url="/api/openapi.json"'),
        scripts: [...page.matchAll(/<script[^>]+src="([^"]*)"/g)].map(([, src]) => /^\/api\/docs\/scalar-[0-9a-f]{16}\.js$/.test(src ?? ""))
      }
      expect(facts).toEqual({ small: true, document: true, scripts: [true] })
    }).pipe(Effect.provide(hostController()))
  )
})
