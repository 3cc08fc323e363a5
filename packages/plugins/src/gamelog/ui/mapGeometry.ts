/**
 * Game positions on a Leaflet `CRS.Simple` map. The tiles are 256 px
 * slippy-map tiles whose zoom 0 is the whole world in one tile, north up;
 * in `CRS.Simple` a point's pixel at zoom 0 is `(lng, -lat)`. So with the
 * world `worldSize` metres wide, game `x` (metres east) is
 * `lng = x / worldSize * 256` and game `y` (metres north) is
 * `lat = y / worldSize * 256 - 256`: the world spans lat -256 (south edge)
 * to 0 (north edge) and lng 0 to 256, exactly tile (0, 0) at zoom 0.
 */

export const TILE_SIZE = 256

export type LatLngTuple = [number, number]

export const toLatLng = (worldSize: number, x: number, y: number): LatLngTuple => [(y / worldSize) * TILE_SIZE - TILE_SIZE, (x / worldSize) * TILE_SIZE]

/** The world's corners: south-west and north-east. */
export const worldBounds = (): [LatLngTuple, LatLngTuple] => [
  [-TILE_SIZE, 0],
  [0, TILE_SIZE]
]

/** A map of unknown size is drawn as a square this wide, or wider when a position lies beyond it. */
export const DEFAULT_GRID_SIZE = 15360
const GRID_ROUND = 1024

/** The side of the square grid for a map whose size is unknown: the default, grown (by 1,024 m steps) to hold every position. */
export const gridSizeFor = (positions: ReadonlyArray<{ readonly x: number; readonly y: number }>): number => {
  const far = positions.reduce((max, p) => Math.max(max, p.x, p.y), 0)
  return far <= DEFAULT_GRID_SIZE ? DEFAULT_GRID_SIZE : Math.ceil(far / GRID_ROUND) * GRID_ROUND
}

/** Grid lines every `step` metres (1 km, or 2 km and more on a larger world, at most 20 lines a side). */
export const gridStep = (worldSize: number): number => {
  let step = 1000
  while (worldSize / step > 20) step *= 2
  return step
}
