/**
 * `MapTiles`: map tiles from the disk cache, or from the tile source on a
 * miss (then kept). The cache is `<DATA_DIR>/cache/map-tiles/<map>/<style>/<z>/<x>/<y>.webp`,
 * its path built only from a checked `TileRequest` (the catalogue's map id,
 * a style from `MAP_STYLES`, integers), and checked to be inside the cache
 * folder before anything is read or written.
 *
 * A tile at a URL never changes, so a kept tile is served as it is, for
 * ever: with the source offline, every tile seen once still answers.
 *
 * On a miss:
 * - one fetch per tile however many requests ask for it at once (the
 *   others wait for its answer, failure included); the fetch runs on its
 *   own, so a caller that goes away does not cancel it for the others;
 * - at most `MAX_CONCURRENT_FETCHES` fetches at a time (a map view asks
 *   for dozens of tiles at once; the source need not see all of them);
 * - only a 200, with an `image/*` content type, of at most `MAX_TILE_BYTES`,
 *   that is a WebP file, arriving whole within `MAP_TILE_SOURCE_TIMEOUT`,
 *   is kept and served; anything else is `TileSourceFailed` naming the
 *   source by its host (never its URL: it may hold a key);
 * - the file is written whole beside its place and renamed over it
 *   (`writeFileAtomic`), so a crash never leaves half a tile where a
 *   reader would find it. A write that fails (a full disk) is logged and
 *   the tile served anyway.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { createHash } from "node:crypto"
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { DataDir, errorMessage, isInsideFolder, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, writeFileAtomic } from "@garrison/runtime"
import { mapsSettings, type TileSource } from "./config.js"
import { NoTileSource, TileSourceFailed } from "./errors.js"
import { TILE_EXTENSION, tileKey, type TileRequest } from "./internal/tilePath.js"

/** The largest tile kept or served: a 256 px WebP is tens of KiB; this leaves room for 512 px satellite tiles. */
export const MAX_TILE_BYTES = 2 * 1024 * 1024
/** Fetches from the tile source running at once. */
export const MAX_CONCURRENT_FETCHES = 8
/** The cache folder, inside the data directory. */
export const TILE_CACHE_FOLDER = ["cache", "map-tiles"] as const

export interface Tile {
  readonly bytes: Uint8Array
  /** A strong ETag of the bytes (a tile never changes at its URL). */
  readonly etag: string
  /** Where it came from this time. */
  readonly from: "cache" | "source"
}

export interface MapTilesShape {
  /** The tile, from the cache or (then kept) the source. */
  readonly tile: (tile: TileRequest) => Effect.Effect<Tile, NoTileSource | TileSourceFailed>
  /** `<DATA_DIR>/cache/map-tiles`. */
  readonly cacheFolder: string
  /** The tile source's `host[:port]`, when one is set. */
  readonly sourceHost: Option.Option<string>
}

/** `RIFF....WEBP`: the first twelve bytes of every WebP file. */
const isWebp = (bytes: Uint8Array): boolean =>
  bytes.byteLength >= 12 &&
  bytes[0] === 0x52 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x46 &&
  bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50

const etagOf = (bytes: Uint8Array): string => `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`

/** The source's URL for `tile` (credentials moved out of it: fetch refuses URLs that hold them). */
const sourceRequest = (source: TileSource, tile: TileRequest): HttpClientRequest.HttpClientRequest => {
  const values: Readonly<Record<string, string>> = { map: tile.map.id, style: tile.style, z: String(tile.z), x: String(tile.x), y: String(tile.y) }
  const url = new URL(Redacted.value(source.template).replace(/\{(map|style|z|x|y)\}/g, (_, name: string) => values[name]!))
  const username = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  url.username = ""
  url.password = ""
  const request = HttpClientRequest.get(url.href).pipe(HttpClientRequest.setHeader("accept", "image/webp,image/*;q=0.8"))
  return username === "" && password === "" ? request : HttpClientRequest.basicAuth(request, username, password)
}

export class MapTiles extends Context.Tag("@garrison/plugins/MapTiles")<MapTiles, MapTilesShape>() {
  static readonly layer: Layer.Layer<MapTiles, unknown, DataDir> = Layer.scoped(
    MapTiles,
    Effect.gen(function* () {
      const settings = yield* mapsSettings
      const root = (yield* DataDir).resolve(...TILE_CACHE_FOLDER)
      const http = yield* HttpClient.HttpClient
      const scope = yield* Effect.scope
      const fetchPermits = yield* Effect.makeSemaphore(MAX_CONCURRENT_FETCHES)
      const inFlight = new Map<string, Deferred.Deferred<Uint8Array, NoTileSource | TileSourceFailed>>()

      /** The tile's file; built from the checked request only, and never outside the cache folder. */
      const fileOf = (tile: TileRequest): Effect.Effect<string> => {
        const file = NodePath.join(root, tile.map.id, tile.style, String(tile.z), String(tile.x), `${tile.y}${TILE_EXTENSION}`)
        return isInsideFolder(root, file) ? Effect.succeed(file) : Effect.die(new Error(`tile path ${file} is outside ${root}`))
      }

      /** The kept tile, if there is one; a file that cannot be read is a miss (logged: the source is asked again). */
      const readKept = (file: string): Effect.Effect<Option.Option<Uint8Array>> =>
        Effect.tryPromise(() => Fs.readFile(file)).pipe(
          Effect.map((bytes): Option.Option<Uint8Array> => Option.some(bytes)),
          Effect.catchAll((error) =>
            (error.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT"
              ? Effect.succeed(Option.none())
              : Effect.as(Effect.logWarning(`maps: cannot read the kept tile ${file} (${errorMessage(error.error)}); asking the source`), Option.none())
          )
        )

      const keep = (file: string, bytes: Uint8Array, key: string): Effect.Effect<void> =>
        Effect.tryPromise(() => Fs.mkdir(NodePath.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE })).pipe(
          Effect.mapError((error) => errorMessage(error.error)),
          Effect.zipRight(Effect.mapError(writeFileAtomic(file, bytes, { mode: PRIVATE_FILE_MODE }), (error) => error.message)),
          Effect.catchAll((message) => Effect.logWarning(`maps: tile ${key} served but not kept: ${message}`))
        )

      const fetchFrom = (source: TileSource, tile: TileRequest): Effect.Effect<Uint8Array, TileSourceFailed> => {
        const key = tileKey(tile)
        const failed = (reason: TileSourceFailed["reason"], what: string) =>
          new TileSourceFailed({ reason, message: `the tile source ${source.host} ${what} (tile ${key})` })
        return Effect.gen(function* () {
          const response = yield* http.execute(sourceRequest(source, tile))
          if (response.status !== 200) return yield* failed("status", `answered ${response.status}`)
          const type = (response.headers["content-type"] ?? "").trim().toLowerCase()
          if (!type.startsWith("image/")) return yield* failed("not-an-image", `answered ${type === "" ? "no content type" : type}, not an image`)
          const length = Number(response.headers["content-length"] ?? Number.NaN)
          if (length > MAX_TILE_BYTES) return yield* failed("too-large", `answered ${length} bytes, more than a tile may have (${MAX_TILE_BYTES})`)
          const chunks: Array<Uint8Array> = []
          let size = 0
          yield* Stream.runForEach(response.stream, (chunk) => {
            size += chunk.byteLength
            if (size > MAX_TILE_BYTES) return Effect.fail(failed("too-large", `answered more than a tile may have (${MAX_TILE_BYTES} bytes)`))
            chunks.push(chunk)
            return Effect.void
          })
          const bytes = Buffer.concat(chunks)
          if (!isWebp(bytes)) return yield* failed("not-an-image", `answered ${type} that is not a WebP image`)
          return bytes as Uint8Array
        }).pipe(
          Effect.scoped,
          Effect.timeoutFail({
            duration: settings.timeout,
            onTimeout: () => failed("timeout", `did not send the tile within ${Duration.format(settings.timeout)}`)
          }),
          Effect.catchAll((error) => Effect.fail(error instanceof TileSourceFailed ? error : failed("unreachable", "is not reachable")))
        )
      }

      /** From the cache (another request may have kept it since this one missed), else fetched and kept. */
      const fill = (tile: TileRequest, file: string): Effect.Effect<Uint8Array, NoTileSource | TileSourceFailed> =>
        Effect.flatMap(readKept(file), (kept): Effect.Effect<Uint8Array, NoTileSource | TileSourceFailed> => {
          if (Option.isSome(kept)) return Effect.succeed(kept.value)
          if (Option.isNone(settings.tileSource)) {
            return Effect.fail(
              new NoTileSource({ message: `tile ${tileKey(tile)} is not in the cache and no tile source is set (MAP_TILE_SOURCE_URL)` })
            )
          }
          const source = settings.tileSource.value
          return fetchPermits.withPermits(1)(fetchFrom(source, tile)).pipe(Effect.tap((bytes) => keep(file, bytes, tileKey(tile))))
        })

      /** One `fill` per tile at a time; it runs in the layer's scope, every caller awaits its answer. */
      const shared = (tile: TileRequest, file: string): Effect.Effect<Uint8Array, NoTileSource | TileSourceFailed> =>
        Effect.suspend(() => {
          const key = tileKey(tile)
          const running = inFlight.get(key)
          if (running !== undefined) return Deferred.await(running)
          const answer = Deferred.unsafeMake<Uint8Array, NoTileSource | TileSourceFailed>(FiberId.none)
          inFlight.set(key, answer)
          return fill(tile, file).pipe(
            Effect.onExit((exit) => Effect.zipRight(Effect.sync(() => inFlight.delete(key)), Deferred.done(answer, exit))),
            Effect.forkIn(scope),
            Effect.zipRight(Deferred.await(answer))
          )
        })

      return MapTiles.of({
        cacheFolder: root,
        sourceHost: Option.map(settings.tileSource, (source) => source.host),
        tile: (tile) =>
          Effect.gen(function* () {
            const file = yield* fileOf(tile)
            const kept = yield* readKept(file)
            if (Option.isSome(kept)) return { bytes: kept.value, etag: etagOf(kept.value), from: "cache" as const }
            const bytes = yield* shared(tile, file)
            return { bytes, etag: etagOf(bytes), from: "source" as const }
          })
      })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
