/**
 * A setting that may change while the controller runs. A plugin declares it
 * (`Plugin.make({ settings: [...] })`); its value is the environment's (or
 * the default) until an admin stores an override (the system plugin's
 * `PATCH /api/system/config`), which then wins until it is cleared. Code
 * reads the current value with `currentSetting(setting)` each time it needs
 * it, never once at start-up.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

/** A value as the API shows it and the store keeps it (JSON). */
export type SettingJson = string | number | boolean

export interface RuntimeSetting<A> {
  /** The environment variable's name, also the key in the API. */
  readonly key: string
  readonly description: string
  /** What the dashboard's form shows: a choice, a switch, a number, a duration or text. */
  readonly kind: "choice" | "boolean" | "integer" | "duration" | "text"
  /** For `choice`: the accepted values. */
  readonly choices?: ReadonlyArray<string>
  /** Secret: never answered, logged or audited; only whether it is set. */
  readonly secret: boolean
  /** The environment's value, when it is set (without the default). */
  readonly env: Config.Config<Option.Option<A>>
  readonly default: A
  /** A value from the API or the store, or what is expected, in plain words. */
  readonly parse: (input: unknown) => Either.Either<A, string>
  /** The value as JSON (the store's and, unless secret, the API's form). */
  readonly encode: (value: A) => SettingJson | null
}

/** Any setting, whatever its value's type (lists of declarations). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRuntimeSetting = RuntimeSetting<any>

interface Common {
  readonly key: string
  readonly description: string
}

const envOf = <A>(config: Config.Config<A>) => Config.option(config)

/** One of a fixed list of words, matched case-insensitively; stored as the list spells it. */
export const choice = <const C extends string>(
  spec: Common & { readonly choices: ReadonlyArray<C>; readonly default: C; readonly aliases?: Readonly<Record<string, C>> }
): RuntimeSetting<C> => {
  const find = (raw: string): C | undefined => {
    const name = raw.trim().toLowerCase()
    return spec.aliases?.[name] ?? spec.choices.find((c) => c.toLowerCase() === name)
  }
  const expected = `one of ${spec.choices.join(", ")}`
  return {
    key: spec.key,
    description: spec.description,
    kind: "choice",
    choices: spec.choices,
    secret: false,
    default: spec.default,
    env: envOf(
      Config.string(spec.key).pipe(
        Config.mapOrFail((raw) => {
          const found = find(raw)
          return found !== undefined ? Either.right(found) : Either.left(invalidEnv(spec.key, `expected ${expected}, got "${raw}"`))
        })
      )
    ),
    parse: (input) => {
      const found = typeof input === "string" ? find(input) : undefined
      return found !== undefined ? Either.right(found) : Either.left(`must be ${expected}`)
    },
    encode: (value) => value
  }
}

/** true or false. */
export const boolean = (spec: Common & { readonly default: boolean }): RuntimeSetting<boolean> => ({
  key: spec.key,
  description: spec.description,
  kind: "boolean",
  secret: false,
  default: spec.default,
  env: envOf(Config.boolean(spec.key)),
  parse: (input) => (typeof input === "boolean" ? Either.right(input) : Either.left("must be true or false")),
  encode: (value) => value
})

/** A whole number between `min` and `max`. */
export const integer = (spec: Common & { readonly default: number; readonly min: number; readonly max: number }): RuntimeSetting<number> => ({
  key: spec.key,
  description: spec.description,
  kind: "integer",
  secret: false,
  default: spec.default,
  env: envOf(Config.integer(spec.key)),
  parse: (input) =>
    typeof input === "number" && Number.isInteger(input) && input >= spec.min && input <= spec.max
      ? Either.right(input)
      : Either.left(`must be a whole number from ${spec.min} to ${spec.max}`),
  encode: (value) => value
})

/** Writes a duration the way it is read back: the largest whole unit ("5 seconds", "1500 millis"). */
export const formatDuration = (duration: Duration.Duration): string => {
  const ms = Duration.toMillis(duration)
  const units: ReadonlyArray<readonly [number, string]> = [
    [86_400_000, "days"],
    [3_600_000, "hours"],
    [60_000, "minutes"],
    [1000, "seconds"]
  ]
  for (const [size, name] of units) if (ms > 0 && ms % size === 0) return `${ms / size} ${name}`
  return `${Math.round(ms)} millis`
}

/** A time span ("5 seconds", "2 minutes", "1500 millis") between `min` and `max`. */
export const duration = (
  spec: Common & { readonly default: Duration.DurationInput; readonly min: Duration.DurationInput; readonly max: Duration.DurationInput }
): RuntimeSetting<Duration.Duration> => {
  const min = Duration.decode(spec.min)
  const max = Duration.decode(spec.max)
  const expected = `a duration from ${formatDuration(min)} to ${formatDuration(max)}, written like "5 seconds" or "2 minutes"`
  return {
    key: spec.key,
    description: spec.description,
    kind: "duration",
    secret: false,
    default: Duration.decode(spec.default),
    env: envOf(Config.duration(spec.key)),
    parse: (input) => {
      const decoded = typeof input === "string" ? Duration.decodeUnknown(input.trim()) : Option.none()
      return Option.isSome(decoded) && Duration.between(decoded.value, { minimum: min, maximum: max })
        ? Either.right(decoded.value)
        : Either.left(`must be ${expected}`)
    },
    encode: formatDuration
  }
}

/**
 * A secret text (a token): printable ASCII without spaces, `minLength` to
 * 512 characters. Never shown: the API says only whether it is set.
 */
export const secretText = (spec: Common & { readonly minLength: number }): RuntimeSetting<Option.Option<Redacted.Redacted<string>>> => {
  const pattern = /^[\x21-\x7e]+$/
  const valid = (text: string) => text.length >= spec.minLength && text.length <= 512 && pattern.test(text)
  return {
    key: spec.key,
    description: spec.description,
    kind: "text",
    secret: true,
    default: Option.none(),
    // Set but empty is unset, as for the other secrets.
    env: envOf(Config.string(spec.key)).pipe(
      Config.map(Option.map((text) => text.trim())),
      Config.map(Option.filter((text) => text !== "")),
      Config.map(Option.map((text) => Option.some(Redacted.make(text))))
    ),
    parse: (input) =>
      typeof input === "string" && valid(input.trim())
        ? Either.right(Option.some(Redacted.make(input.trim())))
        : Either.left(`must be ${spec.minLength} to 512 printable characters without spaces`),
    encode: (value) => (Option.isSome(value) ? Redacted.value(value.value) : null)
  }
}

const invalidEnv = (key: string, message: string) => ConfigError.InvalidData([key], message)
