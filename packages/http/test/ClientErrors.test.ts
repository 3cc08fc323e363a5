/**
 * Requests Node's HTTP parser refuses (headers over 16 KiB, bytes HTTP does
 * not allow in the request line or a header) get an answer in the one
 * error shape with the security headers, and the client reads it instead
 * of a reset connection, even while it is still sending. A 503 (a passing
 * state, not a fault) always carries Retry-After.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { rawRequest } from "@garrison/testkit"
import { serverPort, hostController } from "./fixtures.js"

/** Writes `head` (and keeps writing filler for a while), reading whatever comes back until the server closes. */
const sendBytes = (port: number, head: Buffer, fillerBytes = 0) =>
  Effect.promise(
    () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1")
        const chunks: Array<Buffer> = []
        socket.on("data", (chunk) => chunks.push(chunk))
        socket.on("error", reject)
        socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
        socket.write(head)
        // A client that goes on sending after the server refused it must still get the answer.
        for (let sent = 0; sent < fillerBytes; sent += 16_384) socket.write(Buffer.alloc(16_384, 0x61))
      })
  )

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as { error: string; message: string }

describe("requests the HTTP parser refuses", () => {
  it.scoped("headers over 16 KiB: 431 in the one shape, with the security headers, even while the client keeps sending", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const head = Buffer.from(`GET /api/health?${"q".repeat(40_000)} HTTP/1.1\r\nhost: x\r\n\r\n`, "latin1")
      const raw = yield* sendBytes(port, head, 256 * 1024)
      expect(raw).toMatch(/^HTTP\/1\.1 431 /)
      expect(raw.toLowerCase()).toContain("x-content-type-options: nosniff")
      expect(raw.toLowerCase()).toContain("content-type: application/json")
      expect(bodyOf(raw)).toMatchObject({ error: "headers-too-large" })
    }).pipe(Effect.provide(hostController()))
  )

  it.scoped("bytes HTTP does not allow in the request line or a header: 400 invalid-request in the one shape", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      for (const head of [
        "GET /api/health\u0001 HTTP/1.1\r\nhost: x\r\n\r\n",
        "GET /api/health HTTP/1.1\r\nho st: x\r\n\r\n",
        "GET /api/health HTTP/1.1\r\nx-bad: a\u0000b\r\n\r\n",
        "GET /api/health HTTP/9.9\r\n\r\n"
      ]) {
        const raw = yield* sendBytes(port, Buffer.from(head, "latin1"))
        expect(raw, JSON.stringify(head)).toMatch(/^HTTP\/1\.1 400 /)
        expect(raw.toLowerCase()).toContain("x-content-type-options: nosniff")
        expect(bodyOf(raw).error).toBe("invalid-request")
      }
      // The server still answers normal requests.
      expect((yield* Effect.promise(() => rawRequest({ port, method: "GET", target: "/api/health/ping" }))).status).toBe(200)
    }).pipe(Effect.provide(hostController()))
  )
})

describe("passing unavailability", () => {
  it.scoped("a 503 always says when to try again (Retry-After), in the one error shape", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const answer = yield* Effect.promise(() => rawRequest({ port, method: "GET", target: "/api/echo/unavailable" }))
      expect(answer.status).toBe(503)
      expect(answer.headers["retry-after"]).toBe("5")
      expect(JSON.parse(answer.body)).toEqual({ error: "unavailable", message: "the game server is not reachable yet" })
    }).pipe(Effect.provide(hostController()))
  )
})
