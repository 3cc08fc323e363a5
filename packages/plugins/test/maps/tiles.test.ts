/**
 * `/api/maps/tiles/:map/:style/:z/:x/:y.webp` against a fake tile source:
 * a miss is fetched once and kept on disk, a hit never asks the source,
 * kept tiles outlive the source, every bad part of the path is a 400
 * naming it with no request to the source, concurrent misses share one
 * fetch, path-traversal spellings never reach a file outside the cache,
 * and the route is for signed-in callers and exempt from rate limits.
 */
import { describe, expect, it } from "@effect/vitest"
import { rawRequest, request, requestBytes, serverPort, tempDir } from "@garrison/testkit"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { TILE_CACHE_CONTROL } from "../../src/maps/index.js"
import { fakeSource, fakeWebp, filesUnder, mapsController, SIGNED_IN, templateFor } from "./support.js"

const TILE = "/api/maps/tiles/chernarusplus/topographic/3/2/5.webp"
const CACHED = NodePath.join("cache", "map-tiles", "chernarusplus", "topographic", "3", "2", "5.webp")

interface ErrorBody {
  readonly error: string
  readonly message: string
  readonly details?: ReadonlyArray<{ readonly path: string; readonly message: string }>
}

const errorOf = (text: string) => JSON.parse(text) as ErrorBody

describe("map tiles", () => {
  it.scopedLive("a miss is fetched once and kept; then served from disk, without asking the source", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      const dataDir = tempDir("garrison-maps-data-")
      yield* Effect.gen(function* () {
        const first = yield* requestBytes("GET", TILE, { as: SIGNED_IN })
        expect(first.status).toBe(200)
        expect(source.requests.map((r) => r.path)).toEqual(["/tiles/chernarusplus/topographic/3/2/5.webp"])
        const expected = fakeWebp("/tiles/chernarusplus/topographic/3/2/5.webp")
        expect(Buffer.from(first.bytes).equals(expected)).toBe(true)
        expect(first.headers["content-type"]).toBe("image/webp")
        expect(first.headers["cache-control"]).toBe(TILE_CACHE_CONTROL)
        expect(first.headers["cache-control"]).toBe("private, max-age=31536000, immutable")
        expect(first.headers["etag"]).toMatch(/^"[A-Za-z0-9_-]{27}"$/)

        // On disk where the README says, whole, and nothing else beside it (no temporary file left).
        expect(Fs.readFileSync(NodePath.join(dataDir, CACHED)).equals(expected)).toBe(true)
        expect(filesUnder(NodePath.join(dataDir, "cache", "map-tiles"))).toEqual([NodePath.join("chernarusplus", "topographic", "3", "2", "5.webp")])

        const second = yield* requestBytes("GET", TILE, { as: SIGNED_IN })
        expect(second.status).toBe(200)
        expect(Buffer.from(second.bytes).equals(expected)).toBe(true)
        expect(second.headers["etag"]).toBe(first.headers["etag"])
        expect(second.headers["cache-control"]).toBe(TILE_CACHE_CONTROL)
        expect(source.requests).toHaveLength(1)

        // The ETag answers a revalidation with 304, still immutable.
        const revalidated = yield* request("GET", TILE, { as: SIGNED_IN, headers: { "if-none-match": first.headers["etag"]! } })
        expect(revalidated.status).toBe(304)
        expect(revalidated.headers["cache-control"]).toBe(TILE_CACHE_CONTROL)
        expect(revalidated.headers["etag"]).toBe(first.headers["etag"])
        expect(source.requests).toHaveLength(1)

        // Another style of the same tile is another file.
        expect((yield* request("GET", "/api/maps/tiles/chernarusplus/satellite/3/2/5.webp", { as: SIGNED_IN })).status).toBe(200)
        expect(source.requests.map((r) => r.path).at(-1)).toBe("/tiles/chernarusplus/satellite/3/2/5.webp")
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source) }, dataDir)))
    }))

  it.scopedLive("with the source stopped, a kept tile still answers 200; one never fetched is 502", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      yield* Effect.gen(function* () {
        expect((yield* request("GET", TILE, { as: SIGNED_IN })).status).toBe(200)
        yield* Effect.promise(() => source.stop())

        const kept = yield* requestBytes("GET", TILE, { as: SIGNED_IN })
        expect(kept.status).toBe(200)
        expect(kept.headers["content-type"]).toBe("image/webp")
        const missing = yield* request("GET", "/api/maps/tiles/chernarusplus/topographic/3/2/6.webp", { as: SIGNED_IN })
        expect(missing.status).toBe(502)
        expect(errorOf(missing.text)).toMatchObject({ error: "bad-gateway" })
        expect(errorOf(missing.text).message).toContain(`the tile source ${new URL(source.origin).host} is not reachable`)
        expect(missing.headers["cache-control"]).toBe("no-store")
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source) })))
    }))

  it.scopedLive("a source that fails is 502 naming its status (or what is wrong), never its credentials; nothing is kept", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      const dataDir = tempDir("garrison-maps-data-")
      const url = new URL(source.origin)
      const template = `http://tileuser:s3cret-pass@${url.host}/tiles/{map}/{style}/{z}/{x}/{y}.webp?key=TOPSECRETKEY`
      yield* Effect.gen(function* () {
        const secretFree = (text: string) => {
          for (const secret of ["s3cret", "TOPSECRETKEY", "tileuser", "/tiles/"]) expect(text).not.toContain(secret)
        }
        source.behave({ status: 404 })
        const notFound = yield* request("GET", TILE, { as: SIGNED_IN })
        expect(notFound.status).toBe(502)
        expect(errorOf(notFound.text).message).toBe(`the tile source ${url.host} answered 404 (tile chernarusplus/topographic/3/2/5.webp)`)
        secretFree(notFound.text)
        // The credentials went as Basic auth, the key in the query.
        expect(source.requests[0]).toEqual({
          path: "/tiles/chernarusplus/topographic/3/2/5.webp?key=TOPSECRETKEY",
          authorization: `Basic ${Buffer.from("tileuser:s3cret-pass").toString("base64")}`
        })

        source.behave({ status: 500 })
        const broken = yield* request("GET", TILE, { as: SIGNED_IN })
        expect([broken.status, errorOf(broken.text).message]).toEqual([502, `the tile source ${url.host} answered 500 (tile chernarusplus/topographic/3/2/5.webp)`])

        source.behave({ status: 200, contentType: "text/html" })
        const html = yield* request("GET", TILE, { as: SIGNED_IN })
        expect(html.status).toBe(502)
        expect(errorOf(html.text).message).toContain("answered text/html, not an image")

        // An image content type over bytes that are not WebP is not kept as a .webp either.
        source.behave({ contentType: "image/png", body: () => Buffer.from("\x89PNG\r\n\x1a\n-not-webp") })
        const png = yield* request("GET", TILE, { as: SIGNED_IN })
        expect(png.status).toBe(502)
        expect(errorOf(png.text).message).toContain("not a WebP image")

        source.behave({ contentType: "image/webp", body: (path) => Buffer.concat([fakeWebp(path), Buffer.alloc(2 * 1024 * 1024)]) })
        const huge = yield* request("GET", TILE, { as: SIGNED_IN })
        expect(huge.status).toBe(502)
        expect(errorOf(huge.text).message).toContain("more than a tile may have")

        for (const reply of [broken, html, png, huge]) secretFree(reply.text)
        // Every failure asked again (none was kept); nothing is on disk.
        expect(source.requests).toHaveLength(5)
        expect(filesUnder(NodePath.join(dataDir, "cache", "map-tiles"))).toEqual([])

        source.behave({ body: fakeWebp })
        expect((yield* request("GET", TILE, { as: SIGNED_IN })).status).toBe(200)
        expect(filesUnder(NodePath.join(dataDir, "cache", "map-tiles"))).toHaveLength(1)
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: template }, dataDir)))
    }))

  it.scopedLive("a source slower than MAP_TILE_SOURCE_TIMEOUT is 504", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      source.behave({ delayMs: 3_000 })
      yield* Effect.gen(function* () {
        const slow = yield* request("GET", TILE, { as: SIGNED_IN })
        expect(slow.status).toBe(504)
        expect(errorOf(slow.text).message).toBe(`the tile source ${new URL(source.origin).host} did not send the tile within 1s (tile chernarusplus/topographic/3/2/5.webp)`)
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source), MAP_TILE_SOURCE_TIMEOUT: "1 second" })))
    }))

  it.scopedLive("without a tile source, a kept tile is served and a missing one is 503 saying what to set", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-maps-data-")
      const kept = fakeWebp("placed by hand")
      Fs.mkdirSync(NodePath.dirname(NodePath.join(dataDir, CACHED)), { recursive: true })
      Fs.writeFileSync(NodePath.join(dataDir, CACHED), kept)
      yield* Effect.gen(function* () {
        const hit = yield* requestBytes("GET", TILE, { as: SIGNED_IN })
        expect(hit.status).toBe(200)
        expect(Buffer.from(hit.bytes).equals(kept)).toBe(true)
        const miss = yield* request("GET", "/api/maps/tiles/enoch/satellite/0/0/0.webp", { as: SIGNED_IN })
        expect(miss.status).toBe(503)
        expect(errorOf(miss.text)).toEqual({
          error: "unavailable",
          message: "tile enoch/satellite/0/0/0.webp is not in the cache and no tile source is set (MAP_TILE_SOURCE_URL)"
        })
      }).pipe(Effect.provide(mapsController({}, dataDir)))
    }))

  it.scopedLive("each bad part of the path is a 400 naming it, and the source is never asked", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      yield* Effect.gen(function* () {
        const cases: ReadonlyArray<readonly [path: string, field: string, message: string]> = [
          ["/atlantis/topographic/0/0/0.webp", "map", 'map must be one of chernarusplus, enoch, sakhal, namalsk, deerisle, esseker, takistanplus, banov, pripyat, rostow, chiemsee, iztek (got "atlantis")'],
          ["/ChernarusPlus/topographic/0/0/0.webp", "map", "map must be one of"],
          ["/chernarusplus/terrain/0/0/0.webp", "style", 'style must be one of topographic, satellite (got "terrain")'],
          ["/chernarusplus/topographic/11/0/0.webp", "z", 'z must be an integer from 0 to 10 (got "11")'],
          ["/chernarusplus/topographic/-1/0/0.webp", "z", 'z must be an integer from 0 to 10 (got "-1")'],
          ["/chernarusplus/topographic/1.5/0/0.webp", "z", 'z must be an integer from 0 to 10 (got "1.5")'],
          ["/chernarusplus/topographic/a/0/0.webp", "z", 'z must be an integer from 0 to 10 (got "a")'],
          ["/chernarusplus/topographic/01/0/0.webp", "z", 'z must be written without leading zeros (got "01")'],
          ["/chernarusplus/topographic/1e1/0/0.webp", "z", 'z must be an integer from 0 to 10 (got "1e1")'],
          ["/chernarusplus/topographic/2/4/0.webp", "x", 'x must be an integer from 0 to 3 at zoom 2 (got "4")'],
          ["/chernarusplus/topographic/0/1/0.webp", "x", 'x must be an integer from 0 to 0 at zoom 0 (got "1")'],
          ["/chernarusplus/topographic/2/-1/0.webp", "x", 'x must be an integer from 0 to 3 at zoom 2 (got "-1")'],
          ["/chernarusplus/topographic/2/0/4.webp", "y", 'y must be an integer from 0 to 3 at zoom 2 (got "4")'],
          ["/chernarusplus/topographic/10/1024/0.webp", "x", 'x must be an integer from 0 to 1023 at zoom 10 (got "1024")'],
          ["/chernarusplus/topographic/10/0/1024.webp", "y", 'y must be an integer from 0 to 1023 at zoom 10 (got "1024")'],
          ["/chernarusplus/topographic/2/0/1.5.webp", "y", 'y must be an integer from 0 to 3 at zoom 2 (got "1.5")'],
          ["/chernarusplus/topographic/2/0/1.png", "y", 'y must be written <y>.webp, such as 0.webp (got "1.png")'],
          ["/chernarusplus/topographic/2/0/1", "y", 'y must be written <y>.webp, such as 0.webp (got "1")'],
          ["/chernarusplus/topographic/2/0/1.WEBP", "y", 'y must be written <y>.webp, such as 0.webp (got "1.WEBP")'],
          ["/chernarusplus/topographic/2/0/.webp", "y", 'y must be an integer from 0 to 3 at zoom 2 (got "")']
        ]
        for (const [path, field, message] of cases) {
          const reply = yield* request("GET", `/api/maps/tiles${path}`, { as: SIGNED_IN })
          expect(reply.status, path).toBe(400)
          const body = errorOf(reply.text)
          expect(body.error, path).toBe("invalid-request")
          expect(body.details?.map((d) => d.path), path).toEqual([field])
          expect(body.message, path).toContain(message)
        }
        // Several wrong parts: each named, in path order.
        const many = errorOf((yield* request("GET", "/api/maps/tiles/atlantis/terrain/99/x/y.png", { as: SIGNED_IN })).text)
        expect(many.details?.map((d) => d.path)).toEqual(["map", "style", "z", "x", "y"])
        // A wrong zoom: x and y are still checked, against the deepest zoom's grid.
        const badZoom = errorOf((yield* request("GET", "/api/maps/tiles/enoch/satellite/12/5000/3.webp", { as: SIGNED_IN })).text)
        expect(badZoom.details).toEqual([
          { path: "z", message: 'z must be an integer from 0 to 10 (got "12")' },
          { path: "x", message: 'x must be an integer from 0 to 1023 (got "5000")' }
        ])
        // A long part is quoted cut short.
        const long = errorOf((yield* request("GET", `/api/maps/tiles/${"m".repeat(90)}/topographic/0/0/0.webp`, { as: SIGNED_IN })).text)
        expect(long.message).toContain(`(got "${"m".repeat(32)}…")`)

        expect(source.requests).toEqual([])
        // The edges of the grid are tiles.
        for (const path of ["/sakhal/topographic/0/0/0.webp", "/namalsk/satellite/10/1023/1023.webp", "/iztek/topographic/1/1/0.webp"]) {
          expect((yield* request("GET", `/api/maps/tiles${path}`, { as: SIGNED_IN })).status, path).toBe(200)
        }
        expect(source.requests).toHaveLength(3)
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source) })))
    }))

  it.scopedLive("concurrent misses of one tile ask the source once; all get the tile", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      source.behave({ delayMs: 300 })
      yield* Effect.gen(function* () {
        const replies = yield* Effect.all(
          Array.from({ length: 12 }, () => requestBytes("GET", TILE, { as: SIGNED_IN })),
          { concurrency: "unbounded" }
        )
        expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 12 }, () => 200))
        const expected = fakeWebp("/tiles/chernarusplus/topographic/3/2/5.webp")
        expect(replies.every((r) => Buffer.from(r.bytes).equals(expected))).toBe(true)
        expect(new Set(replies.map((r) => r.headers["etag"])).size).toBe(1)
        expect(source.requests).toHaveLength(1)

        // Concurrent misses of different tiles are each fetched, once.
        const others = yield* Effect.all(
          [0, 1, 2, 0, 1, 2].map((y) => request("GET", `/api/maps/tiles/enoch/topographic/2/1/${y}.webp`, { as: SIGNED_IN })),
          { concurrency: "unbounded" }
        )
        expect(others.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])
        expect(source.requests.map((r) => r.path).slice(1).sort()).toEqual([0, 1, 2].map((y) => `/tiles/enoch/topographic/2/1/${y}.webp`))

        // A failure is shared too, and not kept: the next request asks again.
        source.behave({ status: 500, delayMs: 300 })
        const failed = yield* Effect.all(
          Array.from({ length: 5 }, () => request("GET", "/api/maps/tiles/sakhal/satellite/1/0/1.webp", { as: SIGNED_IN })),
          { concurrency: "unbounded" }
        )
        expect(failed.map((r) => r.status)).toEqual([502, 502, 502, 502, 502])
        expect(source.requests).toHaveLength(5)
        source.behave({ status: 200, delayMs: 0 })
        expect((yield* request("GET", "/api/maps/tiles/sakhal/satellite/1/0/1.webp", { as: SIGNED_IN })).status).toBe(200)
        expect(source.requests).toHaveLength(6)
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source) })))
    }))

  it.scopedLive("needs a signed-in caller (any will do): 401 without one, and the source is not asked", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      yield* Effect.gen(function* () {
        const anonymous = yield* request("GET", TILE)
        expect(anonymous.status).toBe(401)
        expect(errorOf(anonymous.text).error).toBe("unauthenticated")
        const badToken = yield* request("GET", TILE, { headers: { authorization: "Bearer bad" } })
        expect(badToken.status).toBe(401)
        // Even a path that names no tile: the caller is checked first.
        expect((yield* request("GET", "/api/maps/tiles/atlantis/topographic/0/0/0.webp")).status).toBe(401)
        expect(source.requests).toEqual([])
        expect((yield* request("GET", TILE, { as: "nobody:" })).status).toBe(200)
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source) })))
    }))

  it.scopedLive("path-traversal spellings in any part are refused (4xx); no file appears outside the cache", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      const dataDir = tempDir("garrison-maps-data-")
      // A file a traversal would aim at, beside the cache.
      Fs.mkdirSync(NodePath.join(dataDir, "cache"), { recursive: true })
      Fs.writeFileSync(NodePath.join(dataDir, "cache", "secret.webp"), "not a tile")
      yield* Effect.gen(function* () {
        const port = yield* serverPort
        // What the data directory holds once the controller runs (its database, its key): no request adds to it.
        // (The host's own database backups, in `backups/`, come and go on their own.)
        const files = () => filesUnder(dataDir).filter((file) => !file.startsWith(`backups${NodePath.sep}`))
        const before = files()
        const valid = ["chernarusplus", "topographic", "3", "2", "5.webp"]
        const spellings = [
          "..",
          "%2e%2e",
          "%2E%2E",
          ".%2e",
          "..%2F..%2Fsecret",
          "..%2f..%2f..%2fetc%2fpasswd",
          "%2F",
          "..%5C..%5Csecret",
          "%5C",
          "%00",
          "..%00",
          "%C0%AE%C0%AE",
          "%E2%80%A5",
          "%EF%BC%8E%EF%BC%8E",
          "%EF%BC%8F",
          "%C3%A4",
          "ä",
          "．．",
          "~",
          "..;",
          "%252e%252e",
          "%252F"
        ]
        let checked = 0
        for (let part = 0; part < valid.length; part++) {
          for (const spelling of spellings) {
            const segments = [...valid]
            segments[part] = part === valid.length - 1 ? `${spelling}.webp` : spelling
            const target = `/api/maps/tiles/${segments.join("/")}`
            const reply = yield* Effect.promise(() =>
              rawRequest({ port, method: "GET", target, headers: { authorization: `Bearer test:${SIGNED_IN}` } })
            )
            expect(reply.status, target).toBeGreaterThanOrEqual(400)
            expect(reply.status, target).toBeLessThan(500)
            checked++
          }
        }
        expect(checked).toBe(spellings.length * valid.length)
        // The last segment alone: a traversal with the extension outside.
        for (const last of ["..%2F..%2Fsecret.webp", "..%2Fsecret.webp", "%2e%2e%2fsecret.webp", "5.webp%2F..%2F..%2Fsecret.webp", "5.webp%00"]) {
          const reply = yield* Effect.promise(() =>
            rawRequest({ port, method: "GET", target: `/api/maps/tiles/chernarusplus/topographic/3/2/${last}`, headers: { authorization: `Bearer test:${SIGNED_IN}` } })
          )
          expect(reply.status, last).toBeGreaterThanOrEqual(400)
          expect(reply.status, last).toBeLessThan(500)
        }
        expect(files()).toEqual(before)
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source) }, dataDir)))
      expect(source.requests).toEqual([])
      expect(filesUnder(NodePath.join(dataDir, "cache", "map-tiles"))).toEqual([])
      // Nothing landed beside the data directory either.
      expect(Fs.readdirSync(NodePath.dirname(dataDir)).filter((name) => name.endsWith(".webp") || name === "secret")).toEqual([])
      expect(Fs.readFileSync(NodePath.join(dataDir, "cache", "secret.webp"), "utf8")).toBe("not a tile")
    }))

  it.scopedLive("tiles are exempt from rate limits: many from one IP never 429, while other /api requests are limited", () =>
    Effect.gen(function* () {
      const source = yield* fakeSource
      yield* Effect.gen(function* () {
        // Far more tiles than the api scope allows in its window.
        for (let i = 0; i < 60; i++) {
          const tile = yield* request("GET", `/api/maps/tiles/deerisle/topographic/3/${i % 8}/${Math.floor(i / 8)}.webp`, { as: SIGNED_IN })
          expect(tile.status, `tile ${i}`).toBe(200)
        }
        // Refused tile paths are answered by the tile route: exempt too.
        for (let i = 0; i < 10; i++) expect((yield* request("GET", "/api/maps/tiles/deerisle/topographic/3/9/9.webp", { as: SIGNED_IN })).status).toBe(400)
        // The limiter is on: the api scope (a path no route has) is spent after 5.
        for (let i = 0; i < 5; i++) expect((yield* request("GET", "/api/maps/nothing-here", { as: SIGNED_IN })).status).toBe(404)
        const limited = yield* request("GET", "/api/maps/nothing-here", { as: SIGNED_IN })
        expect(limited.status).toBe(429)
        expect(limited.headers["retry-after"]).toBeDefined()
        // ...and tiles still answer.
        for (let i = 0; i < 20; i++) {
          expect((yield* request("GET", `/api/maps/tiles/deerisle/topographic/3/${i % 8}/0.webp`, { as: SIGNED_IN })).status).toBe(200)
        }
      }).pipe(Effect.provide(mapsController({ MAP_TILE_SOURCE_URL: templateFor(source), RATE_LIMIT_API: "5/1m" })))
    }))
})
