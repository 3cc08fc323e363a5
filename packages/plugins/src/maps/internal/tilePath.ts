/**
 * A tile's path as the request spells it (`/api/maps/tiles/:map/:style/:z/:x/:y.webp`),
 * read into the tile it names, or refused naming each part that is wrong.
 * Pure: nothing here touches the file system or the network, and what it
 * answers holds the catalogue's own map (not the request's text), a style
 * from `MAP_STYLES` and integers, the only things a cache path is built of.
 */
import * as Either from "effect/Either"
import { InvalidTileRequest, type TileProblem } from "../errors.js"
import { KNOWN_MAPS, type KnownMap, knownMap, MAP_STYLES, type MapStyle } from "../knownMaps.js"

/** The deepest zoom served: 2^10 tiles a side, enough for any DayZ world at a few metres a pixel. */
export const MAX_ZOOM = 10
/** The extension every tile's last segment carries. */
export const TILE_EXTENSION = ".webp"

/** The path's parts as the router hands them over; `y` is the last segment, `<y>.webp`. */
export interface TilePathParts {
  readonly map: string
  readonly style: string
  readonly z: string
  readonly x: string
  readonly y: string
}

export interface TileRequest {
  readonly map: KnownMap
  readonly style: MapStyle
  readonly z: number
  readonly x: number
  readonly y: number
}

/** A request's text as a message quotes it: JSON-quoted, cut at 32 characters. */
const quoted = (text: string) => JSON.stringify(text.length <= 32 ? text : `${text.slice(0, 32)}…`)

/** Digits only, ASCII: `١` or `1e1` are not tile coordinates. */
const DIGITS = /^[0-9]{1,10}$/

/**
 * An integer from 0 to `max` written plainly (no sign, no leading zero, no
 * fraction), or the words saying what it must be.
 */
const integerIn = (text: string, max: number, field: TileProblem["field"], range: string): Either.Either<number, TileProblem> => {
  if (DIGITS.test(text) && text.length > 1 && text.startsWith("0")) {
    return Either.left({ field, message: `${field} must be written without leading zeros (got ${quoted(text)})` })
  }
  const value = DIGITS.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(value) || value > max) {
    return Either.left({ field, message: `${field} must be an integer from 0 to ${max}${range} (got ${quoted(text)})` })
  }
  return Either.right(value)
}

/** The tile `parts` name, or every part that is wrong (in path order). */
export const readTilePath = (parts: TilePathParts): Either.Either<TileRequest, InvalidTileRequest> => {
  const problems: Array<TileProblem> = []
  const map = knownMap(parts.map)
  if (map === undefined) {
    problems.push({ field: "map", message: `map must be one of ${KNOWN_MAPS.map((m) => m.id).join(", ")} (got ${quoted(parts.map)})` })
  }
  const style = MAP_STYLES.find((s) => s === parts.style)
  if (style === undefined) problems.push({ field: "style", message: `style must be one of ${MAP_STYLES.join(", ")} (got ${quoted(parts.style)})` })

  const z = integerIn(parts.z, MAX_ZOOM, "z", "")
  if (Either.isLeft(z)) problems.push(z.left)
  // With a good zoom, x and y are checked against its grid; without one, against the deepest zoom's.
  const zoom = Either.getOrElse(z, () => MAX_ZOOM)
  const last = 2 ** zoom - 1
  const range = Either.isRight(z) ? ` at zoom ${zoom}` : ""

  const x = integerIn(parts.x, last, "x", range)
  if (Either.isLeft(x)) problems.push(x.left)

  let y: Either.Either<number, TileProblem>
  if (!parts.y.endsWith(TILE_EXTENSION)) {
    y = Either.left({ field: "y", message: `y must be written <y>${TILE_EXTENSION}, such as 0${TILE_EXTENSION} (got ${quoted(parts.y)})` })
  } else {
    y = integerIn(parts.y.slice(0, -TILE_EXTENSION.length), last, "y", range)
  }
  if (Either.isLeft(y)) problems.push(y.left)

  if (map === undefined || style === undefined || Either.isLeft(z) || Either.isLeft(x) || Either.isLeft(y)) {
    return Either.left(new InvalidTileRequest({ problems: problems as [TileProblem, ...Array<TileProblem>] }))
  }
  return Either.right({ map, style, z: z.right, x: x.right, y: y.right })
}

/** `<map>/<style>/<z>/<x>/<y>.webp`, the tile's place in the cache and at the source: for logs and keys. */
export const tileKey = (tile: TileRequest): string => `${tile.map.id}/${tile.style}/${tile.z}/${tile.x}/${tile.y}${TILE_EXTENSION}`
