/** The list envelope's pieces: opaque keyset cursors, pages from `LIMIT n + 1` reads, limits. */
import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema } from "effect"
import { cursorCodec, effectiveLimit, pageOfRows, pageParams } from "../../src/http/Page.js"

const position = Schema.Struct({ at: Schema.String, id: Schema.String.pipe(Schema.minLength(1)) })
const cursors = cursorCodec("things", position)

describe("cursorCodec", () => {
  it("round-trips a position through an opaque, URL-safe string", () => {
    const cursor = cursors.encode({ at: "2026-01-05T12:00:00.000Z", id: "a/b+c" })
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(cursors.decode(cursor)).toEqual(Option.some({ at: "2026-01-05T12:00:00.000Z", id: "a/b+c" }))
  })

  it("refuses another list's cursor, an edited one, garbage and oversized input", () => {
    const other = cursorCodec("others", position).encode({ at: "x", id: "1" })
    const edited = Buffer.from('things:{"at":"x","id":""}').toString("base64url")
    for (const cursor of [other, edited, "", "not a cursor!", "bm90LWEtY3Vyc29y", "A".repeat(600)]) {
      expect([cursor.slice(0, 20), Option.isNone(cursors.decode(cursor))]).toEqual([cursor.slice(0, 20), true])
    }
  })
})

describe("pageOfRows", () => {
  it("keeps `limit` rows and gives the last one's cursor only when the extra row says more follow", () => {
    const cursorOf = (n: number) => `after-${n}`
    expect(pageOfRows([1, 2, 3], 2, cursorOf)).toEqual({ items: [1, 2], nextCursor: "after-2" })
    expect(pageOfRows([1, 2], 2, cursorOf)).toEqual({ items: [1, 2], nextCursor: null })
    expect(pageOfRows([], 2, cursorOf)).toEqual({ items: [], nextCursor: null })
  })
})

describe("limits", () => {
  it("takes 1 to the maximum from the query, says the range when refused, and defaults when left out", () => {
    const params = Schema.Struct(pageParams({ defaultLimit: 50, maxLimit: 500 }))
    expect(Schema.decodeUnknownEither(params)({ limit: "500" })).toEqual(Either.right({ limit: 500 }))
    const refused = Schema.decodeUnknownEither(params)({ limit: "501" })
    expect(Either.isLeft(refused) && refused.left.message).toContain("Expected an integer from 1 to 500, actual 501")
    expect(effectiveLimit(undefined, { defaultLimit: 50, maxLimit: 500 })).toBe(50)
    expect(effectiveLimit(9_999, { defaultLimit: 50, maxLimit: 500 })).toBe(500)
    expect(effectiveLimit(0, { defaultLimit: 50, maxLimit: 500 })).toBe(1)
  })
})
