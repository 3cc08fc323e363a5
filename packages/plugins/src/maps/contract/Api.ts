/**
 * The maps plugin's HTTP contract: map tiles, for any signed-in user,
 * exempt from rate limits (spec "Limits": a map view asks for dozens of
 * tiles at a time, and every pan for more).
 *
 * The route is the spec's `/api/maps/tiles/:map/:style/:z/:x/:y.webp`, with
 * the last segment taken whole (`:y` holds `<y>.webp`): the router would
 * answer another extension (`3.png`) with a bare 404; taken whole, it is
 * the handler's to refuse, with a 400 naming `y` like every other part.
 * The parts are read by the handler (`readTilePath`), not by a schema, so
 * each refusal says in plain words what the part must be.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadGateway, BadRequest, GatewayTimeout, RateLimit, Unavailable } from "@garrison/runtime"
import { KNOWN_MAPS, MAP_STYLES } from "../knownMaps.js"
import { MAX_ZOOM } from "../internal/tilePath.js"

export const TILES_PATH = "/api/maps/tiles/:map/:style/:z/:x/:y"

export const TilePath = Schema.Struct({
  map: Schema.String.annotations({ description: `The map's id: ${KNOWN_MAPS.map((m) => m.id).join(", ")}` }),
  style: Schema.String.annotations({ description: `The style: ${MAP_STYLES.join(", ")}` }),
  z: Schema.String.annotations({ description: `Zoom, an integer from 0 to ${MAX_ZOOM}` }),
  x: Schema.String.annotations({ description: "Column, an integer from 0 to 2^z - 1" }),
  y: Schema.String.annotations({ description: "Row and extension, `<y>.webp`: y an integer from 0 to 2^z - 1" })
})

const webpImage = Schema.Uint8ArrayFromSelf.pipe(HttpApiSchema.withEncoding({ kind: "Uint8Array", contentType: "image/webp" }))

export class TilesGroup extends HttpApiGroup.make("tiles").annotate(OpenApi.Description, "Map tiles for the live map.").add(
  HttpApiEndpoint.get("tile", TILES_PATH)
    .setPath(TilePath)
    .addSuccess(webpImage)
    .addError(BadRequest)
    .addError(BadGateway)
    .addError(Unavailable)
    .addError(GatewayTimeout)
    .annotate(Access, Access.anyAuth)
    .annotate(RateLimit, "exempt")
    .annotate(OpenApi.Summary, "One map tile (WebP)")
    .annotate(
      OpenApi.Description,
      "`/api/maps/tiles/{map}/{style}/{z}/{x}/{y}.webp`, a 256 px slippy-map tile. Served from the cache, else fetched from the " +
        "tile source (`MAP_TILE_SOURCE_URL`) and kept. `Cache-Control: private, max-age=31536000, immutable` and an ETag " +
        "(`If-None-Match` answers 304). 400 naming the part (`map`, `style`, `z`, `x`, `y`) of a path that names no tile, " +
        "before anything is read or fetched; 503 for a tile not in the cache without a tile source; 502 when the source " +
        "fails (its status, or not a WebP image), 504 when it is too slow. Not rate-limited."
    )
) {}

export class MapsApi extends HttpApi.make("maps").add(TilesGroup) {}
