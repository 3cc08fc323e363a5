/**
 * Query integers decode from their text with their bounds, and their JSON
 * Schema says what a person types: `type: integer` with the bounds and the
 * default, not the encoded side's "a string to be decoded into a number".
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, Schema } from "effect"
import { describeQueryInteger, QueryInteger } from "../../src/http/QueryInteger.js"

describe("QueryInteger", () => {
  const limit = QueryInteger({ minimum: 1, maximum: 500, default: 50 })
  const decode = Schema.decodeUnknownEither(limit)

  it("decodes whole numbers within the bounds and refuses the rest", () => {
    expect(decode("1")).toEqual(Either.right(1))
    expect(decode("500")).toEqual(Either.right(500))
    for (const bad of ["0", "501", "1.5", "abc", "", "-3"]) expect(Either.isLeft(decode(bad)), bad).toBe(true)
    const open = Schema.decodeUnknownEither(QueryInteger({ minimum: 0 }))
    expect(open("123456789")).toEqual(Either.right(123456789))
    expect(Either.isLeft(open("-1"))).toBe(true)
  })

  it("reads as a person would in the JSON Schema", () => {
    expect(JSONSchema.make(limit)).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "integer",
      minimum: 1,
      maximum: 500,
      default: 50,
      description: "integer, 1 to 500, default 50"
    })
    expect(describeQueryInteger({ minimum: 0 })).toBe("integer, 0 or more")
    expect(describeQueryInteger({ minimum: 1, default: 65536, about: "Bytes to read" })).toBe("Bytes to read (integer, 1 or more, default 65536)")
  })
})
