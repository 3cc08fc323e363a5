/**
 * The field types of the Agent API's bodies and queries: each says what it
 * accepts in words a person reads in a 400 (`rain: must be a number from
 * 0.0 to 1.0`). Bodies are JSON (numbers are numbers); queries are strings,
 * so their numbers go through `NumberFromString` first.
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const message = (text: string) => ({ message: () => ({ message: text, override: true }) })

/** A Steam64 (17 digits starting 7656119). */
export const STEAM64_PATTERN = /^7656119\d{10}$/
/** A DayZ ID: base64 of a SHA-256 made URL-safe, padding kept (44 characters). */
export const DAYZ_ID_PATTERN = /^[A-Za-z0-9_-]{43}=$/

/** A player: Steam64 or 44-character DayZ ID. */
export const PlatformId = Schema.String.pipe(
  Schema.filter((s) => STEAM64_PATTERN.test(s) || DAYZ_ID_PATTERN.test(s), {
    ...message("must be a Steam64 (17 digits starting 7656119) or a 44-character DayZ ID"),
    description: "A Steam64 (17 digits starting 7656119) or a 44-character DayZ ID",
    examples: ["76561198012345678"]
  })
)

/** A game class name (items, vehicles, zombies, buildings, ...): letters, digits and `_`. */
export const ClassName = Schema.String.pipe(
  Schema.filter((s) => /^[A-Za-z0-9_]{1,128}$/.test(s), {
    ...message("must be a class name: 1 to 128 letters, digits or _"),
    description: "A game class name: 1 to 128 letters, digits or _"
  })
)

/** An id the game or the mod gave (vehicle, persistent item, ban, priority entry): printable, no spaces. */
export const ObjectId = Schema.String.pipe(
  Schema.filter((s) => /^[\x21-\x7e]{1,128}$/.test(s), {
    ...message("must be an id: 1 to 128 printable characters without spaces"),
    description: "An id: 1 to 128 printable ASCII characters without spaces"
  })
)

const hasControl = (s: string) => {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/** Text for people (a message, a reason, a name): not blank, at most `max` characters, no control characters. */
export const Text = (max: number) =>
  Schema.String.pipe(
    Schema.filter((s) => s.trim().length > 0 && s.length <= max && !hasControl(s), {
      ...message(`must be text of 1 to ${max} characters without control characters`),
      description: `Text of 1 to ${max} characters`
    })
  )

const finiteNumber = (check: (n: number) => boolean, text: string) =>
  Schema.Number.pipe(Schema.filter((n) => Number.isFinite(n) && check(n), { ...message(text), description: text.replace(/^must be /, "") }))

/** Any finite number (a map coordinate). */
export const Coordinate = finiteNumber(() => true, "must be a finite number")

/** A number in `[min, max]`. */
export const Range = (min: number, max: number, text = `must be a number from ${min} to ${max}`) =>
  finiteNumber((n) => n >= min && n <= max, text)

/** An integer in `[min, max]`. */
export const IntRange = (min: number, max: number) =>
  finiteNumber((n) => Number.isInteger(n) && n >= min && n <= max, `must be an integer from ${min} to ${max}`)

/** 0.0 to 1.0 (weather, fog density). */
export const Unit = Range(0, 1, "must be a number from 0.0 to 1.0")

/** Metres around a player or a point. */
export const MAX_RADIUS = 20_000
export const Radius = finiteNumber((n) => n > 0 && n <= MAX_RADIUS, `must be a number of metres above 0 and at most ${MAX_RADIUS}`)

/** `[x, y, z]`, three finite numbers. */
export const Coords = Schema.Tuple(Schema.Number, Schema.Number, Schema.Number).pipe(
  Schema.filter((c) => c.every((n) => Number.isFinite(n)), message("must be [x, y, z], three finite numbers")),
  Schema.annotations({ ...message("must be [x, y, z], three finite numbers"), description: "[x, y, z], three finite numbers" })
)

/** `x,y,z` in a query string, decoded to `[x, y, z]`. */
export const CoordsFromString = Schema.transformOrFail(Schema.String, Coords, {
  strict: true,
  decode: (s, _, ast) => {
    const numbers = s.split(",").map((p) => (p.trim() === "" ? Number.NaN : Number(p)))
    const [x, y, z] = numbers
    return numbers.length === 3 && x !== undefined && y !== undefined && z !== undefined && numbers.every((n) => Number.isFinite(n))
      ? ParseResult.succeed([x, y, z] as const)
      : ParseResult.fail(new ParseResult.Type(ast, s, 'must be "x,y,z", three finite numbers'))
  },
  encode: (c) => ParseResult.succeed(c.join(","))
}).annotations({ ...message('must be "x,y,z", three finite numbers'), description: '"x,y,z", three finite numbers' })

/** A number in a query string (`?radius=100`), then `check`. */
export const QueryNumber = <A extends number, I>(check: Schema.Schema<A, I>) =>
  Schema.compose(
    Schema.String.pipe(
      Schema.filter((s) => s.trim() !== "" && Number.isFinite(Number(s)), message("must be a number")),
      Schema.transform(Schema.Number, { strict: true, decode: (s) => Number(s), encode: (n) => String(n) })
    ),
    check as unknown as Schema.Schema<A, number>
  )

/** Minutes; 0 means permanent. */
export const Minutes = IntRange(0, 525_600 * 10)

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/

/** When a ban or priority entry ends: an ISO 8601 date-time, epoch milliseconds, or null (permanent). */
export const Expiration = Schema.NullOr(
  Schema.Union(
    Schema.String.pipe(
      Schema.filter((s) => ISO_DATE_TIME.test(s) && Number.isFinite(Date.parse(s)), message("must be an ISO 8601 date-time, epoch milliseconds or null"))
    ),
    finiteNumber((n) => Number.isInteger(n) && n >= 0, "must be an ISO 8601 date-time, epoch milliseconds or null")
  )
).annotations({
  ...message("must be an ISO 8601 date-time, epoch milliseconds or null (permanent)"),
  description: "An ISO 8601 date-time, epoch milliseconds, or null for permanent"
})

export const BLOOD_TYPES = ["O-", "O+", "A-", "A+", "B-", "B+", "AB-", "AB+"] as const
export const BloodType = Schema.Literal(...BLOOD_TYPES).annotations(message(`must be one of ${BLOOD_TYPES.join(", ")}`))

export const PRIORITY_ROLES = ["VIP", "Supporter", "Premium"] as const
export const PriorityRole = Schema.Literal(...PRIORITY_ROLES).annotations(message(`must be one of ${PRIORITY_ROLES.join(", ")}`))

/** `frozen`: 1 freezes, 0 unfreezes. */
export const Flag = Schema.Literal(0, 1).annotations(message("must be 1 (freeze) or 0 (unfreeze)"))

/** What `/player/setStat` may set, and each stat's range. */
export const STAT_RANGES = {
  health: [0, 100],
  blood: [0, 5000],
  shock: [0, 100],
  water: [0, 5000],
  energy: [0, 20000],
  wetness: [0, 1]
} as const satisfies Record<string, readonly [number, number]>
export const StatName = Schema.Literal("health", "blood", "shock", "water", "energy", "wetness").annotations(
  message(`must be one of ${Object.keys(STAT_RANGES).join(", ")}`)
)

/**
 * A body or query: exactly these fields (an unknown one is refused, so a
 * typo never looks like success and nothing unchecked reaches the mod).
 */
export const Fields = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields).annotations({ parseOptions: { onExcessProperty: "error", errors: "first" } })
