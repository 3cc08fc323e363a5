/**
 * Maps: the catalogue of known DayZ maps (`KNOWN_MAPS`, `knownMap`,
 * `mapOfMission`: what other plugins read to name and size a server's map)
 * and the map tiles under `/api/maps/tiles/*` (any signed-in user, not
 * rate-limited), kept on disk under the data directory and fetched on a
 * miss from the configured tile source. See README.md.
 */
import * as Effect from "effect/Effect"
import { Plugin } from "@garrison/runtime"
import { mapsSettings } from "./config.js"
import { MapsApi } from "./contract/Api.js"
import { MapTiles } from "./MapTiles.js"
import { TilesRoutes } from "./routes.js"

export const MapsPlugin = Plugin.make({
  id: "maps",
  description: "The known DayZ maps; map tiles, cached on disk, from a configurable tile source",
  layer: MapTiles.layer,
  http: Plugin.http(MapsApi, TilesRoutes),
  checkSettings: Effect.asVoid(mapsSettings)
})

export { isMapStyle, KNOWN_MAPS, knownMap, MAP_STYLES, mapOfMission } from "./knownMaps.js"
export type { KnownMap, MapStyle } from "./knownMaps.js"
export { MapsApi, TilePath, TILES_PATH, TilesGroup } from "./contract/Api.js"
export { DEFAULT_TILE_SOURCE_TIMEOUT, mapsSettings, parseTileSource, TILE_PLACEHOLDERS } from "./config.js"
export type { MapsSettings, TileSource } from "./config.js"
export { InvalidTileRequest, NoTileSource, TileSourceFailed } from "./errors.js"
export { MapTiles, MAX_CONCURRENT_FETCHES, MAX_TILE_BYTES, TILE_CACHE_FOLDER } from "./MapTiles.js"
export type { MapTilesShape, Tile } from "./MapTiles.js"
export { MAX_ZOOM, readTilePath } from "./internal/tilePath.js"
export type { TilePathParts, TileRequest } from "./internal/tilePath.js"
export { TILE_CACHE_CONTROL } from "./routes.js"
