/** The handlers behind `MapsApi`; the host has already checked the caller is signed in. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { BadGateway, BadRequest, etagMatches, GatewayTimeout, Unavailable } from "@garrison/runtime"
import { MapsApi } from "./contract/Api.js"
import type { InvalidTileRequest, NoTileSource, TileSourceFailed } from "./errors.js"
import { readTilePath } from "./internal/tilePath.js"
import { MapTiles } from "./MapTiles.js"

/**
 * A tile never changes at its URL: browsers keep it a year without asking
 * again. `private`: the route needs a signed-in caller, so no shared cache
 * (a proxy, a CDN) may keep it for others.
 */
export const TILE_CACHE_CONTROL = "private, max-age=31536000, immutable"

/** 400 naming every part of the path that is wrong, in path order. */
const invalidTile = (error: InvalidTileRequest): Effect.Effect<never, BadRequest> =>
  Effect.fail(
    new BadRequest({
      message: error.problems.map((problem) => problem.message).join("; "),
      details: error.problems.map((problem) => ({ path: problem.field, message: problem.message }))
    })
  )

/** No source to fill the cache from: a setting is missing, not the caller's fault (503). */
const noSource = (error: NoTileSource): Effect.Effect<never, Unavailable> => Effect.fail(new Unavailable({ message: error.message }))

/** The source failed: 504 when it was too slow, else 502 (its status, or an answer that is not a tile). */
const sourceFailed = (error: TileSourceFailed): Effect.Effect<never, BadGateway | GatewayTimeout> =>
  Effect.fail(error.reason === "timeout" ? new GatewayTimeout({ message: error.message }) : new BadGateway({ message: error.message }))

const ifNoneMatch = Effect.map(HttpServerRequest.HttpServerRequest, (request): string | undefined => {
  const value: unknown = request.headers["if-none-match"]
  return typeof value === "string" ? value : undefined
})

export const TilesRoutes = HttpApiBuilder.group(MapsApi, "tiles", (handlers) =>
  Effect.gen(function* () {
    const tiles = yield* MapTiles
    return handlers.handle("tile", ({ path }) =>
      Effect.gen(function* () {
        // Checked first: a path that names no tile reaches neither the disk nor the source.
        const request = yield* readTilePath(path)
        const tile = yield* tiles.tile(request)
        const headers = { "cache-control": TILE_CACHE_CONTROL, etag: tile.etag }
        const held = yield* ifNoneMatch
        if (held !== undefined && held.length <= 4096 && etagMatches(held, tile.etag)) return HttpServerResponse.empty({ status: 304, headers })
        return HttpServerResponse.uint8Array(tile.bytes, { contentType: "image/webp", headers })
      }).pipe(Effect.catchTags({ InvalidTileRequest: invalidTile, NoTileSource: noSource, TileSourceFailed: sourceFailed }))
    )
  })
)
