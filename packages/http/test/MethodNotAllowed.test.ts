/**
 * A path that has routes, asked with a method it has none for: 405 with
 * `Allow` (HEAD wherever GET is), in the one error shape with the security
 * headers, answered by the gate before any handler or authentication, and
 * counted against the rate-limit scope of the path's route.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { rawRequest, type RawResponse } from "@garrison/testkit"
import { serverPort, stubLogins, hostController } from "./fixtures.js"

const send = (port: number, method: string, target: string, ip = "10.40.0.1"): Effect.Effect<RawResponse> =>
  Effect.promise(() => rawRequest({ port, method, target, headers: { "x-forwarded-for": ip } }))

describe("405 Method Not Allowed", () => {
  it.scoped("names the methods the path takes, in the one error shape with the usual headers", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const put = yield* send(port, "PUT", "/api/echo")
      expect(put.status).toBe(405)
      expect(put.headers["allow"]).toBe("POST")
      expect(JSON.parse(put.body)).toEqual({ error: "method-not-allowed", message: "PUT is not allowed on /api/echo; it takes POST" })
      expect(put.headers["x-content-type-options"]).toBe("nosniff")
      expect(put.headers["cache-control"]).toBe("no-store")
      expect(put.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)

      // GET brings HEAD; a spelling the gate makes canonical is the same path.
      const post = yield* send(port, "POST", "/API//whoami/")
      expect([post.status, post.headers["allow"]]).toEqual([405, "GET, HEAD"])
      // An unknown path is still a 404, whatever the method.
      expect((yield* send(port, "PUT", "/api/nowhere")).status).toBe(404)
    }).pipe(Effect.provide(hostController())))

  it.scoped("spends the budget of the path's route: a GET flood on the login path is limited like logins", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      stubLogins.count = 0
      const statuses: Array<number> = []
      for (let i = 0; i < 16; i++) statuses.push((yield* send(port, "GET", "/api/auth/login", "10.40.0.2")).status)
      expect(statuses.slice(0, 15)).toEqual(Array.from({ length: 15 }, () => 405))
      expect(statuses[15]).toBe(429)
      expect(stubLogins.count).toBe(0)
    }).pipe(Effect.provide(hostController())))
})
