/**
 * The maps plugin's settings:
 *
 * - `MAP_TILE_SOURCE_URL`: where tiles missing from the cache are fetched,
 *   a URL template with `{map}`, `{style}`, `{z}`, `{x}` and `{y}`
 *   (`https://tiles.example.org/{map}/{style}/{z}/{x}/{y}.webp`). No
 *   default: without one, tiles already in the cache are served and a
 *   missing one is 503. It may carry credentials (`https://user:key@host/`,
 *   `?key=...`): it is read as a secret, and answers and logs name its host
 *   only.
 * - `MAP_TILE_SOURCE_TIMEOUT` (default 10 seconds): how long one tile may
 *   take to arrive, whole.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

export const DEFAULT_TILE_SOURCE_TIMEOUT = Duration.seconds(10)

/** The placeholders a tile source template must hold, each once or more. */
export const TILE_PLACEHOLDERS = ["map", "style", "z", "x", "y"] as const
export type TilePlaceholder = (typeof TILE_PLACEHOLDERS)[number]

export interface TileSource {
  /** The template as set (credentials and all): never logged nor answered. */
  readonly template: Redacted.Redacted<string>
  /** `host[:port]`, without credentials: how answers and logs name the source. */
  readonly host: string
}

export interface MapsSettings {
  readonly tileSource: Option.Option<TileSource>
  readonly timeout: Duration.Duration
}

/**
 * A tile source template, checked: an absolute http(s) URL whose host has
 * no placeholder, with each of `{map}`, `{style}`, `{z}`, `{x}`, `{y}` and
 * no other `{...}`. The message of a refusal never repeats the template
 * (it may hold a key).
 */
export const parseTileSource = (template: string): Either.Either<TileSource, string> => {
  const text = template.trim()
  const named = [...text.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1]!)
  const unknown = named.filter((name) => !(TILE_PLACEHOLDERS as ReadonlyArray<string>).includes(name))
  if (unknown.length > 0) {
    return Either.left(`has placeholders it may not: ${unknown.map((name) => `{${name}}`).join(", ")} (only ${TILE_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")})`)
  }
  const missing = TILE_PLACEHOLDERS.filter((name) => !named.includes(name))
  if (missing.length > 0) return Either.left(`must hold ${missing.map((name) => `{${name}}`).join(", ")} (every tile needs its own URL)`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return Either.left("must be an absolute http(s) URL (a placeholder may not stand in the host)")
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return Either.left("must be an http(s) URL")
  if (url.host.includes("{") || url.host.includes("%7B")) return Either.left("may not have a placeholder in its host")
  return Either.right({ template: Redacted.make(text), host: url.host })
}

export const mapsSettings: Config.Config<MapsSettings> = Config.all({
  tileSource: Config.option(Config.redacted("MAP_TILE_SOURCE_URL")).pipe(
    Config.mapOrFail((set) => {
      // Unset or blank: no source.
      if (Option.isNone(set) || Redacted.value(set.value).trim() === "") return Either.right(Option.none<TileSource>())
      return Either.match(parseTileSource(Redacted.value(set.value)), {
        onLeft: (problem) => Either.left(ConfigError.InvalidData(["MAP_TILE_SOURCE_URL"], `MAP_TILE_SOURCE_URL ${problem}`)),
        onRight: (source) => Either.right(Option.some(source))
      })
    })
  ),
  timeout: Config.duration("MAP_TILE_SOURCE_TIMEOUT").pipe(
    Config.validate({ message: "MAP_TILE_SOURCE_TIMEOUT must be from 1 second to 5 minutes", validation: (d) => Duration.between(d, { minimum: Duration.seconds(1), maximum: Duration.minutes(5) }) }),
    Config.withDefault(DEFAULT_TILE_SOURCE_TIMEOUT)
  )
})
