/**
 * The one strict reading of an ISO-8601 (RFC 3339) date or date-time from a
 * request. `Date.parse` shifts impossible dates (`2026-02-30` becomes
 * March 2) and reads a date-time without a zone in the controller's local
 * time; this parser checks the calendar instead and says what is wrong:
 *
 * - `YYYY-MM-DD`, then optionally `Thh:mm`, `:ss`, `.f` (1 to 9 digits,
 *   truncated to milliseconds), then `Z` or `±hh:mm`; two digits for every
 *   field, upper-case `T` and `Z`;
 * - month 01-12, the day within its month (29 February only in a leap
 *   year), hour 00-23, minute and second 00-59 (no leap second), offset
 *   hours 00-23 and minutes 00-59 (RFC 3339's grammar);
 * - a date alone is midnight UTC, and a date-time without a zone is UTC,
 *   where the use allows them (`IsoDateOrDateTime`); `IsoDateTime` requires
 *   a time and a zone.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

export interface IsoReadOptions {
  /** Accept `2025-01-31` alone (midnight UTC). */
  readonly dateOnly: boolean
  /** Require `Z` or `±hh:mm` on a date-time; otherwise a date-time without one is UTC. */
  readonly zoneRequired: boolean
}

const FORM = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))?)?$/
const LOOSE_DATE = /^\d{1,4}-\d{1,2}-\d{1,2}(?:$|T)/

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

export const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)

export const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!

/** Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`): no `Date` quirks for years 0-99. */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

const example = (options: IsoReadOptions) =>
  options.dateOnly
    ? "expected an ISO-8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)"
    : "expected an ISO-8601 date-time with a zone, e.g. 2025-01-31T12:00:00Z"

/** Milliseconds since the epoch of `text`, or what is wrong with it (in words, naming the bad part). */
export const readIsoDateTime = (text: string, options: IsoReadOptions): Either.Either<number, string> => {
  const match = FORM.exec(text)
  if (match === null) {
    if (text.length <= 40 && LOOSE_DATE.test(text)) {
      return Either.left(`${example(options)}: the year needs four digits, the month and the day two (2026-01-05)`)
    }
    return Either.left(example(options))
  }
  const [, y, mo, d, h, mi, s, fraction, zone, sign, zh, zm] = match
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  if (month < 1 || month > 12) return Either.left(`month ${mo} does not exist (01 to 12)`)
  const days = daysInMonth(year, month)
  if (day < 1 || day > days) {
    const leap = month === 2 && day === 29 ? ` (${y} is not a leap year)` : ""
    return Either.left(`${y}-${mo}-${d} does not exist: ${MONTHS[month - 1]} ${y} has ${days} days${leap}`)
  }
  if (h === undefined) {
    return options.dateOnly ? Either.right(daysFromCivil(year, month, day) * 86_400_000) : Either.left(`${example(options)}: the time is missing`)
  }
  const hour = Number(h)
  const minute = Number(mi)
  const second = s === undefined ? 0 : Number(s)
  if (hour > 23) return Either.left(`hour ${h} is out of range (00 to 23)`)
  if (minute > 59) return Either.left(`minute ${mi} is out of range (00 to 59)`)
  if (second > 59) return Either.left(`second ${s} is out of range (00 to 59)`)
  let offsetMinutes = 0
  if (zone === undefined) {
    if (options.zoneRequired) return Either.left(`${example(options)}: the zone (Z or ±hh:mm) is missing`)
  } else if (zone !== "Z") {
    const offsetHour = Number(zh)
    const offsetMinute = Number(zm)
    if (offsetHour > 23 || offsetMinute > 59) {
      return Either.left(`offset ${sign}${zh}:${zm} is out of range (hours 00 to 23, minutes 00 to 59)`)
    }
    offsetMinutes = (sign === "-" ? -1 : 1) * (offsetHour * 60 + offsetMinute)
  }
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"))
  const local = daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + millis
  return Either.right(local - offsetMinutes * 60_000)
}

const isoSchema = (
  options: IsoReadOptions,
  annotations: {
    readonly identifier: string
    readonly description: string
    readonly format?: "date-time"
    /** Shown in the OpenAPI document: values a person would type. */
    readonly examples: ReadonlyArray<string>
  }
) =>
  Schema.transformOrFail(Schema.String, Schema.DateFromSelf, {
    strict: true,
    decode: (text, _, ast) =>
      Either.match(readIsoDateTime(text, options), {
        onLeft: (problem) => ParseResult.fail(new ParseResult.Type(ast, text, problem)),
        onRight: (ms) => ParseResult.succeed(new Date(ms))
      }),
    encode: (date, _, ast) =>
      Number.isNaN(date.getTime())
        ? ParseResult.fail(new ParseResult.Type(ast, date, "not a valid date"))
        : ParseResult.succeed(date.toISOString())
  }).annotations({
    identifier: annotations.identifier,
    description: annotations.description,
    jsonSchema: {
      type: "string",
      ...(annotations.format === undefined ? {} : { format: annotations.format }),
      description: annotations.description,
      examples: [...annotations.examples]
    }
  })

/** A date-time with a zone (`2025-01-31T12:00:00Z`, `2025-01-31T14:00+02:00`), calendar-checked, as a `Date`. */
export const IsoDateTime = isoSchema(
  { dateOnly: false, zoneRequired: true },
  {
    identifier: "IsoDateTime",
    description:
      "ISO-8601 date-time with a zone (Z or ±hh:mm), e.g. 2026-01-31T12:00:00Z or 2026-01-31T14:00:00+02:00; " +
      "impossible dates such as 2026-02-30 are refused",
    format: "date-time",
    examples: ["2026-01-31T12:00:00Z"]
  }
)

/**
 * A date (`2025-01-31`, midnight UTC) or a date-time (zone optional: UTC
 * without one), calendar-checked, as a `Date`.
 */
export const IsoDateOrDateTime = isoSchema(
  { dateOnly: true, zoneRequired: false },
  {
    identifier: "IsoDateOrDateTime",
    description:
      "ISO-8601 date, e.g. 2026-01-31 (midnight UTC), or date-time, e.g. 2026-01-31T12:00:00Z (UTC when the zone is " +
      "left out); impossible dates such as 2026-02-30 are refused",
    examples: ["2026-01-31", "2026-01-31T12:00:00Z"]
  }
)

/** Epoch milliseconds as the ISO 8601 text stored and answered everywhere (`2026-01-02T03:04:05.000Z`). */
export const isoOf = (ms: number): string => new Date(ms).toISOString()

/** `isoOf`, keeping null. */
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoOf(ms))
