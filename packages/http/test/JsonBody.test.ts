/**
 * The body checks as plain functions: the UTF-8 and JSON fault finders
 * agree with the platform's own decoder and parser on generated input
 * (fixed seed), and the shape walk neither overflows nor misses.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { parseJsonBody } from "../src/body/JsonBody.js"
import { findJsonShapeFault, hasJsonShapeFault, locateJsonShapeFault } from "../src/body/jsonShape.js"
import { findJsonSyntaxFault } from "../src/body/jsonSyntax.js"
import { findUtf8Fault } from "../src/body/utf8.js"

const SEED = 20_260_510
const fatal = new TextDecoder("utf-8", { fatal: true })
const lossy = new TextDecoder("utf-8", { ignoreBOM: true })

const decodes = (bytes: Uint8Array) => {
  try {
    fatal.decode(bytes)
    return true
  } catch {
    return false
  }
}

/** JSON.parse's verdict, and the position it names when it names one. */
const parses = (text: string): { ok: boolean; position?: number } => {
  try {
    JSON.parse(text)
    return { ok: true }
  } catch (error) {
    const match = /at position (\d+)/.exec((error as Error).message)
    return match ? { ok: false, position: Number(match[1]) } : { ok: false }
  }
}

describe("findUtf8Fault", () => {
  it("agrees with a fatal TextDecoder and names the first ill-formed sequence", () => {
    // Bytes drawn mostly from the interesting ranges: ASCII, continuations, every kind of lead.
    const byte = FastCheck.oneof(
      FastCheck.integer({ min: 0x20, max: 0x7e }),
      FastCheck.integer({ min: 0x80, max: 0xbf }),
      FastCheck.integer({ min: 0xc0, max: 0xff }),
      FastCheck.constantFrom(0xe0, 0xed, 0xf0, 0xf4)
    )
    FastCheck.assert(
      FastCheck.property(FastCheck.array(byte, { maxLength: 24 }), (list) => {
        const bytes = Uint8Array.from(list)
        const fault = findUtf8Fault(bytes)
        expect(fault === undefined).toBe(decodes(bytes))
        if (fault !== undefined) {
          const before = bytes.subarray(0, fault.offset)
          expect(decodes(before)).toBe(true)
          // The lossy decoder's first replacement character sits exactly there.
          expect(lossy.decode(bytes).startsWith(`${fatal.decode(before)}\uFFFD`)).toBe(true)
        }
      }),
      { seed: SEED, numRuns: 5_000 }
    )
  })

  it("passes every well-formed string", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.fullUnicodeString(), (text) => {
        expect(findUtf8Fault(Buffer.from(text, "utf8"))).toBeUndefined()
      }),
      { seed: SEED, numRuns: 2_000 }
    )
  })
})

describe("findJsonSyntaxFault", () => {
  it("agrees with JSON.parse, and on the position when JSON.parse names one", () => {
    const token = FastCheck.constantFrom(
      "{", "}", "[", "]", ",", ":", '"', '"a"', '"\\u00e9"', "\\", "\\u12", "\\n", "\\x", "0", "01", "-", "-0.5e+3", "1.", "1e", "2E-2",
      "true", "tru", "false", "null", "nul", " ", "\n", "\t", "\u0001", "é", "x"
    )
    const mutated = FastCheck.array(token, { maxLength: 16 }).map((tokens) => tokens.join(""))
    const generated = FastCheck.jsonValue({ maxDepth: 4 }).chain((value) => {
      const text = JSON.stringify(value)
      return FastCheck.tuple(FastCheck.nat({ max: text.length }), FastCheck.nat({ max: 3 }), token).map(
        ([at, drop, insert]) => text.slice(0, at) + insert + text.slice(at + drop)
      )
    })
    FastCheck.assert(
      FastCheck.property(FastCheck.oneof(mutated, generated), (text) => {
        const verdict = parses(text)
        const fault = findJsonSyntaxFault(text)
        expect(fault === undefined, text).toBe(verdict.ok)
        if (fault !== undefined && verdict.position !== undefined) expect(fault.position, text).toBe(verdict.position)
      }),
      { seed: SEED, numRuns: 20_000 }
    )
  })

  it("walks nesting of any depth without recursion", () => {
    expect(findJsonSyntaxFault("[".repeat(1_000_000) + "]".repeat(1_000_000))).toBeUndefined()
    expect(findJsonSyntaxFault("[".repeat(1_000_000))).toEqual({ position: 1_000_000, reason: "unexpected end of input" })
  })
})

describe("findJsonShapeFault", () => {
  it("bounds depth by containers, and the walk itself has no depth limit", () => {
    expect(findJsonShapeFault({}, 1, false)).toBeUndefined()
    expect(findJsonShapeFault([[]], 1, false)).toEqual({ _tag: "TooDeep", path: [0] })
    expect(findJsonShapeFault({ a: [1, { b: {} }] }, 3, false)).toEqual({ _tag: "TooDeep", path: ["a", 1, "b"] })
    const million = JSON.parse("[".repeat(1_000_000) + "]".repeat(1_000_000)) as unknown
    expect(findJsonShapeFault(million, 2_000_000, true)).toBeUndefined()
    expect(findJsonShapeFault(million, 64, false)?.path).toHaveLength(64)
  })

  it("the lean walk finds a fault exactly when the path-naming walk does", () => {
    // JSON values with lone surrogates mixed into their strings and keys.
    const text = FastCheck.oneof(FastCheck.string({ maxLength: 3 }), FastCheck.constantFrom("\ud800", "a\udc00", "\ud83d\ude00"))
    const value = FastCheck.letrec((tie) => ({
      node: FastCheck.oneof(
        { depthSize: "small", withCrossShrink: true },
        text,
        FastCheck.integer(),
        FastCheck.constant(null),
        FastCheck.array(tie("node"), { maxLength: 4 }),
        FastCheck.dictionary(text, tie("node"), { maxKeys: 4 })
      )
    })).node
    FastCheck.assert(
      FastCheck.property(value, FastCheck.integer({ min: 0, max: 6 }), FastCheck.boolean(), (json, maxDepth, checkStrings) => {
        expect(hasJsonShapeFault(json, maxDepth, checkStrings)).toBe(locateJsonShapeFault(json, maxDepth, checkStrings) !== undefined)
      }),
      { seed: SEED, numRuns: 5_000 }
    )
  })

  it("finds the first ill-formed string or key in document order, and only when asked to look", () => {
    const value = { ok: "fine", list: ["a", { "b\udc00": 1 }, "\ud800"] }
    expect(findJsonShapeFault(value, 64, true)).toEqual({ _tag: "IllFormedString", path: ["list", 1, "b\udc00"], inKey: true })
    expect(findJsonShapeFault(value, 64, false)).toBeUndefined()
    expect(findJsonShapeFault("\udc00\ud800", 64, true)).toEqual({ _tag: "IllFormedString", path: [], inKey: false })
    expect(findJsonShapeFault(["\ud83d\ude00"], 64, true)).toBeUndefined()
  })
})

describe("parseJsonBody", () => {
  it("drops a leading byte order mark, counts it in byte offsets, and treats a body of only a BOM as empty", () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf])
    expect(parseJsonBody(Buffer.concat([bom, Buffer.from('{"a":1}')]))).toMatchObject({ _tag: "Parsed", value: { a: 1 } })
    expect(parseJsonBody(bom)).toEqual({ _tag: "Empty" })
    expect(parseJsonBody(Buffer.concat([bom, Buffer.from("{,}")]))).toEqual({
      _tag: "Invalid",
      message: "the request body is not valid JSON: a double-quoted property name expected at byte 4 (line 1, column 2)"
    })
  })

  it("looks for lone surrogates only when the text has a surrogate escape", () => {
    expect(parseJsonBody(Buffer.from('{"a":"\\uDBFF\\uDFFF"}'))).toMatchObject({ _tag: "Parsed" })
    expect(parseJsonBody(Buffer.from('{"a":"\\\\ud800"}'))).toMatchObject({ _tag: "Parsed", value: { a: "\\ud800" } })
    expect(parseJsonBody(Buffer.from('{"a":"\\uDBFF"}'))).toMatchObject({ _tag: "Invalid", details: [{ path: "a" }] })
  })
})
