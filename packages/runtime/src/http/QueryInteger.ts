/**
 * Whole numbers in a query string (`?limit=50`), decoded from their text
 * and described in the OpenAPI document as a person reads them: "integer,
 * 1 to 500, default 50", with `type: integer`, `minimum`, `maximum` and
 * `default`, instead of the encoded side's "a string to be decoded into a
 * number". Generated clients then take a number.
 *
 *   limit: Schema.optional(QueryInteger({ minimum: 1, maximum: 500, default: 50 }))
 *
 * `default` is documentation: the handler applies it when the parameter is
 * absent.
 */
import * as Schema from "effect/Schema"

export interface QueryIntegerOptions {
  readonly minimum: number
  readonly maximum?: number
  /** What the handler uses when the parameter is absent. */
  readonly default?: number
  /** What the number means, put before the rule ("bytes to read" gives "bytes to read (integer, 1 or more)"). */
  readonly about?: string
}

/** "integer, 1 to 500, default 50", "integer, 0 or more". */
export const describeQueryInteger = (options: QueryIntegerOptions): string => {
  const range = options.maximum === undefined ? `${options.minimum} or more` : `${options.minimum} to ${options.maximum}`
  const rule = `integer, ${range}${options.default === undefined ? "" : `, default ${options.default}`}`
  return options.about === undefined ? rule : `${options.about} (${rule})`
}

export const QueryInteger = (options: QueryIntegerOptions) => {
  const bounded =
    options.maximum === undefined
      ? Schema.NumberFromString.pipe(Schema.int(), Schema.greaterThanOrEqualTo(options.minimum))
      : Schema.NumberFromString.pipe(Schema.int(), Schema.between(options.minimum, options.maximum))
  // Only the JSON Schema is annotated: decoding and its error messages stay those of the filters.
  return bounded.annotations({
    jsonSchema: {
      type: "integer",
      minimum: options.minimum,
      ...(options.maximum === undefined ? {} : { maximum: options.maximum }),
      ...(options.default === undefined ? {} : { default: options.default }),
      description: describeQueryInteger(options)
    }
  })
}
