/**
 * Security headers on every kind of response: the gate's own answers (400,
 * 404, 413, 429, the constant ping), a handler's success and error, the
 * front door's refusals, and the docs page with its own policy. A handler
 * that sets one of these headers itself keeps its value.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { rawRequest, type RawResponse } from "@garrison/testkit"
import { serverPort, hostController } from "./fixtures.js"

const send = (port: number, method: string, target: string, headers: Record<string, string> = {}, body?: string) =>
  Effect.promise(() => rawRequest({ port, method, target, headers, body }))

const guarded = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "content-security-policy": "frame-ancestors 'none'",
  "x-frame-options": "DENY"
}

const expectGuarded = (response: RawResponse, label: string, cacheControl: string | undefined = "no-store") => {
  for (const [name, value] of Object.entries(guarded)) expect(response.headers[name], `${label}: ${name}`).toBe(value)
  expect(response.headers["cache-control"], `${label}: cache-control`).toBe(cacheControl)
}

const user = (perms: string) => ({ authorization: `Bearer test:alice:${perms}` })

describe("security headers", () => {
  it.scoped("are on the gate's own answers, the ping, handler successes and errors", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const json = { "content-type": "application/json" }

      const refused = yield* send(port, "GET", "/api/%2e%2e/health/ping")
      expect(refused.status).toBe(400)
      expectGuarded(refused, "400 invalid target")

      const missing = yield* send(port, "GET", "/api/no-such-thing")
      expect(missing.status).toBe(404)
      expectGuarded(missing, "404 from the gate")

      // Declared larger than the limit and not sent: the gate answers 413 before reading.
      const tooLarge = yield* send(port, "POST", "/api/echo", { ...json, ...user("echo.use"), "content-length": "4096" })
      expect(tooLarge.status).toBe(413)
      expectGuarded(tooLarge, "413")

      const ping = yield* send(port, "GET", "/api/health/ping")
      expect(ping.status).toBe(200)
      expect(ping.body).toBe('{"status":"ok"}')
      expectGuarded(ping, "constant ping")

      const success = yield* send(port, "POST", "/api/echo", { ...json, ...user("echo.use") }, JSON.stringify({ text: "hi" }))
      expect(success.status).toBe(200)
      expectGuarded(success, "handler success")

      const invalid = yield* send(port, "POST", "/api/echo", { ...json, ...user("echo.use") }, JSON.stringify({ text: 42 }))
      expect(invalid.status).toBe(400)
      expectGuarded(invalid, "handler decode error")

      const unauthenticated = yield* send(port, "GET", "/api/whoami")
      expect(unauthenticated.status).toBe(401)
      expectGuarded(unauthenticated, "front door 401")

      const wrongType = yield* send(port, "POST", "/api/echo", { ...user("echo.use"), "content-type": "text/plain" }, "hi")
      expect(wrongType.status).toBe(415)
      expectGuarded(wrongType, "front door 415")

      for (let i = 0; i < 15; i++) yield* send(port, "POST", "/api/auth/login")
      const limited = yield* send(port, "POST", "/api/auth/login")
      expect(limited.status).toBe(429)
      expectGuarded(limited, "429")
    }).pipe(Effect.provide(hostController({ bodyLimitBytes: 1024 })))
  , 30_000)

  it.scoped("a handler's own Cache-Control, X-Frame-Options and CSP win over the defaults", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const cached = yield* send(port, "GET", "/api/cached")
      expect(cached.status).toBe(200)
      expect(cached.headers["cache-control"]).toBe("public, max-age=60")
      expect(cached.headers["x-content-type-options"]).toBe("nosniff")

      const framed = yield* send(port, "GET", "/api/framed")
      expect(framed.headers["x-frame-options"]).toBe("SAMEORIGIN")
      expect(framed.headers["content-security-policy"]).toBe("frame-ancestors 'self'")
      expect(framed.headers["referrer-policy"]).toBe("no-referrer")
      expect(framed.headers["cache-control"]).toBe("no-store")
    }).pipe(Effect.provide(hostController()))
  )

  it.scoped("the docs page has a policy that allows scripts from this origin only, and no inline script", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const docs = yield* send(port, "GET", "/api/docs")
      expect(docs.status).toBe(200)
      expect(docs.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(docs.headers["x-content-type-options"]).toBe("nosniff")
      expect(docs.headers["referrer-policy"]).toBe("no-referrer")
      expect(docs.headers["x-frame-options"]).toBe("DENY")
      // The page names the current script file: it must not outlive an upgrade in a cache.
      expect(docs.headers["cache-control"]).toBe("no-store")

      const policy = Object.fromEntries(
        (docs.headers["content-security-policy"] ?? "").split(";").map((directive) => {
          const [name = "", ...values] = directive.trim().split(/\s+/)
          return [name, values] as const
        })
      )
      expect(policy).toEqual({
        "default-src": ["'none'"],
        // This origin's files (the hashed Scalar file) and WebAssembly (Scalar's xxhash-wasm); no inline script, no eval.
        "script-src": ["'self'", "'wasm-unsafe-eval'"],
        "style-src": ["'unsafe-inline'"],
        "img-src": ["data:"],
        "connect-src": ["'self'"],
        "base-uri": ["'none'"],
        "form-action": ["'none'"],
        "frame-ancestors": ["'none'"]
      })

      // Nothing inline runs: the only script with content is a data block, and the one that runs comes from this origin.
      const scripts = [...docs.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
      const executable = scripts.filter(([, attributes]) => !/type="application\/json"/.test(attributes ?? ""))
      expect(executable.map(([, attributes, text]) => ({ src: /\bsrc="([^"]*)"/.exec(attributes ?? "")?.[1], text }))).toEqual([
        { src: expect.stringMatching(/^\/api\/docs\/scalar-[0-9a-f]{16}\.js$/), text: "" }
      ])
      // Scalar is told not to fetch its fonts from a CDN.
      expect(docs.body).toContain("withDefaultFonts&quot;:false")
    }).pipe(Effect.provide(hostController()))
  , 30_000)
})
