/**
 * The docs page's script as a static file: named by a hash of its content,
 * cached for a year, gzipped for clients that take it, 404 under any other
 * name; and the start-up warning for endpoints without a summary.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import { createHash } from "node:crypto"
import { request } from "node:http"
import { gunzipSync } from "node:zlib"
import { acceptsGzip } from "../src/openapi/ScalarScript.js"
import { type LogLine, serverPort, hostController } from "./fixtures.js"

interface BinaryResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly body: Buffer
}

/** A GET that keeps the body as bytes, undecoded (fetch would gunzip it). */
const get = (port: number, path: string, headers: Record<string, string> = {}) =>
  Effect.async<BinaryResponse>((resume) => {
    const outgoing = request({ host: "127.0.0.1", port, path, headers }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => resume(Effect.succeed({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) })))
    })
    outgoing.on("error", (error) => resume(Effect.die(error)))
    outgoing.end()
  })

const scriptPathOf = (page: string) => /<script src="([^"]+)"><\/script>/.exec(page)?.[1] ?? ""

describe("the docs script", () => {
  it.scoped("is a static file named by its hash, cached for a year, gzipped when the client takes it", () =>
    Effect.gen(function* () {
      const port = yield* serverPort
      const page = yield* get(port, "/api/docs")
      const path = scriptPathOf(page.body.toString("utf8"))
      expect(path).toMatch(/^\/api\/docs\/scalar-[0-9a-f]{16}\.js$/)

      const plain = yield* get(port, path)
      expect(plain.status).toBe(200)
      expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8")
      expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expect(plain.headers["content-encoding"]).toBeUndefined()
      expect(plain.headers["vary"]).toBe("accept-encoding")
      expect(plain.headers["x-content-type-options"]).toBe("nosniff")
      // Scalar's standalone bundle, whole; its name is the start of its SHA-256.
      expect(plain.body.subarray(0, 40).toString("utf8")).toContain("Minified by jsDelivr")
      expect(plain.body.length).toBeGreaterThan(1_000_000)
      expect(path).toBe(`/api/docs/scalar-${createHash("sha256").update(plain.body).digest("hex").slice(0, 16)}.js`)

      const gzipped = yield* get(port, path, { "accept-encoding": "gzip, deflate, br" })
      expect(gzipped.status).toBe(200)
      expect(gzipped.headers["content-encoding"]).toBe("gzip")
      expect(gzipped.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expect(gzipped.body.length).toBeLessThan(plain.body.length / 2)
      expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true)

      // Any other name is not found, in the one error shape: an old page's script is not served stale.
      const stale = yield* get(port, "/api/docs/scalar-0123456789abcdef.js")
      expect(stale.status).toBe(404)
      expect(JSON.parse(stale.body.toString("utf8"))).toMatchObject({ error: "not-found" })
      expect(stale.headers["cache-control"]).toBe("no-store")

      // The page stays small and names the same file on every request.
      const again = yield* get(port, "/api/docs")
      expect(page.body.length).toBeLessThan(1_000)
      expect(scriptPathOf(again.body.toString("utf8"))).toBe(path)
    }).pipe(Effect.provide(hostController()))
  , 30_000)

  it("takes gzip only when the client asks for it", () => {
    expect(acceptsGzip(undefined)).toBe(false)
    expect(acceptsGzip("")).toBe(false)
    expect(acceptsGzip("gzip")).toBe(true)
    expect(acceptsGzip("br, GZIP;q=0.5")).toBe(true)
    expect(acceptsGzip("gzip;q=0")).toBe(false)
    expect(acceptsGzip("*")).toBe(true)
    expect(acceptsGzip("*;q=0.1, gzip;q=0")).toBe(false)
    expect(acceptsGzip("identity, deflate")).toBe(false)
  })
})

describe("endpoints without a summary", () => {
  const logs: Array<LogLine> = []
  it.scoped("are named at start-up, one warning line per plugin", () =>
    Effect.gen(function* () {
      yield* serverPort
      const warnings = logs.filter((line) => line.level === LogLevel.Warning && line.message.includes("OpenAPI summary"))
      // The echo fixture documents none of its endpoints; the health plugin documents both of its own.
      expect(warnings.map((line) => line.message)).toEqual([
        expect.stringMatching(/^plugin "echo": \d+ endpoint\(s\) without an OpenAPI summary \(POST \/api\/echo, GET \/api\/whoami, .*\); add \.annotate\(OpenApi\.Summary, "\.\.\."\)$/)
      ])
    }).pipe(Effect.provide(hostController({}, { logs })))
  , 30_000)
})
