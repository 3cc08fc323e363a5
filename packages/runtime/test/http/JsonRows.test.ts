/**
 * Streamed JSON arrays and the kept export: chunks joined into one array,
 * a failure mid-way ends the body without a closing bracket, the event loop
 * turns between chunks, and a kept array is served only for the version it
 * was read at, never when the version moved while it was read or it was too
 * large.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { Readable } from "node:stream"
import { jsonArrayResponse, type JsonChunks, makeJsonArrayCache } from "../../src/http/JsonRows.js"

const rowsOf = (...ids: ReadonlyArray<number>) => ids.map((id) => ({ json: JSON.stringify({ id }) }))

/** A table in chunks, counting the passes over it. */
const table = (chunks: ReadonlyArray<ReadonlyArray<number>>, options: { readonly failAt?: number; readonly onChunk?: (i: number) => void } = {}) => {
  let passes = 0
  const source: JsonChunks<string, never> = () => {
    passes++
    let i = 0
    return Effect.suspend(() => {
      options.onChunk?.(i)
      if (i === options.failAt) return Effect.fail("store broke")
      const chunk = chunks[i++]
      return Effect.succeed(chunk === undefined ? null : rowsOf(...chunk))
    })
  }
  return { source, passes: () => passes }
}

/** The body as the client receives it: all of it, or what came before the stream failed. */
const bodyOf = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.promise(async () => {
    const body = response.body
    if (body._tag === "Uint8Array") return { text: new TextDecoder().decode(body.body), failed: false, kept: true }
    if (body._tag !== "Raw") throw new Error(`unexpected body ${body._tag}`)
    let text = ""
    try {
      for await (const piece of body.body as Readable) text += String(piece)
      return { text, failed: false, kept: false }
    } catch {
      return { text, failed: true, kept: false }
    }
  })

describe("jsonArrayResponse", () => {
  it.effect("joins the chunks into one array, skipping empty ones", () =>
    Effect.gen(function* () {
      const { source } = table([[1, 2], [], [3]])
      const response = yield* jsonArrayResponse(source, { "content-disposition": "attachment" })
      expect(response.headers["content-disposition"]).toBe("attachment")
      const body = yield* bodyOf(response)
      expect(JSON.parse(body.text)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }])
    })
  )

  it.effect("a failure after the first chunk ends the body unclosed, so the client cannot take it for the whole array", () =>
    Effect.gen(function* () {
      const { source } = table([[1], [2], [3]], { failAt: 1 })
      const body = yield* bodyOf(yield* jsonArrayResponse(source))
      expect(body.failed).toBe(true)
      expect(body.text).toBe('[{"id":1}')
    })
  )

  it.live("lets the event loop turn between chunks: a timer set during the first chunk fires before the second is read", () =>
    Effect.gen(function* () {
      const order: Array<string> = []
      const { source } = table([[1], [2]], {
        onChunk: (i) => {
          order.push(`chunk ${i}`)
          if (i === 0) setImmediate(() => order.push("other work"))
        }
      })
      yield* bodyOf(yield* jsonArrayResponse(source))
      expect(order.slice(0, 3)).toEqual(["chunk 0", "other work", "chunk 1"])
    })
  )
})

describe("makeJsonArrayCache", () => {
  it.effect("keeps the array for its version and reads again when the version moves", () =>
    Effect.gen(function* () {
      let version = 0
      const { source, passes } = table([[1, 2], [3]])
      const cache = makeJsonArrayCache({ maxChars: 1_000 })
      const first = yield* bodyOf(yield* cache.respond(() => version, source))
      expect(first.kept).toBe(false)
      const again = yield* cache.respond(() => version, source)
      expect(again.headers["etag"]).toMatch(/^W\/"/)
      const second = yield* bodyOf(again)
      expect(second).toEqual({ text: first.text, failed: false, kept: true })
      expect(passes()).toBe(1)
      version++
      expect((yield* bodyOf(yield* cache.respond(() => version, source))).kept).toBe(false)
      expect(passes()).toBe(2)
    })
  )

  it.effect("does not keep an array whose version moved while it was read, nor one past maxChars", () =>
    Effect.gen(function* () {
      let version = 0
      const moving = table([[1], [2]], { onChunk: (i) => (i === 1 ? version++ : undefined) })
      const cache = makeJsonArrayCache({ maxChars: 1_000 })
      yield* bodyOf(yield* cache.respond(() => version, moving.source))
      expect((yield* bodyOf(yield* cache.respond(() => version, moving.source))).kept).toBe(false)

      const large = table([[1, 2, 3]])
      const small = makeJsonArrayCache({ maxChars: 10 })
      yield* bodyOf(yield* small.respond(() => 0, large.source))
      expect((yield* bodyOf(yield* small.respond(() => 0, large.source))).kept).toBe(false)
      expect(large.passes()).toBe(2)
    })
  )

  it.effect("keeps nothing from a failed read", () =>
    Effect.gen(function* () {
      const broken = table([[1], [2]], { failAt: 1 })
      const cache = makeJsonArrayCache({ maxChars: 1_000 })
      expect((yield* bodyOf(yield* cache.respond(() => 0, broken.source))).failed).toBe(true)
      expect((yield* bodyOf(yield* cache.respond(() => 0, broken.source))).kept).toBe(false)
    })
  )
})
