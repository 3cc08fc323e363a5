import * as Schema from "effect/Schema"

/** One part of a tile's path that is not what a tile path holds. */
export const TileProblem = Schema.Struct({
  /** `map`, `style`, `z`, `x` or `y`, as the route names its parts. */
  field: Schema.Literal("map", "style", "z", "x", "y"),
  message: Schema.String
})
export type TileProblem = typeof TileProblem.Type

/** The tile's path names no tile: an unknown map or style, a coordinate out of range, another extension. */
export class InvalidTileRequest extends Schema.TaggedError<InvalidTileRequest>()("InvalidTileRequest", {
  problems: Schema.NonEmptyArray(TileProblem)
}) {}

/** The tile is not in the cache and no tile source is set (`MAP_TILE_SOURCE_URL`). */
export class NoTileSource extends Schema.TaggedError<NoTileSource>()("NoTileSource", {
  message: Schema.String
}) {}

/**
 * The tile source did not give the tile: unreachable, too slow, another
 * status than 200, not a WebP image, or larger than a tile may be. The
 * message names the source by its host only.
 */
export class TileSourceFailed extends Schema.TaggedError<TileSourceFailed>()("TileSourceFailed", {
  reason: Schema.Literal("unreachable", "timeout", "status", "not-an-image", "too-large"),
  message: Schema.String
}) {}
