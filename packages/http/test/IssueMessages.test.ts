/**
 * Decode issues in words a person can act on: the allowed values in the
 * message, "is required", the fields a body takes, one issue per field.
 * Driven with the issues Effect itself produces for real schemas.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { plainIssues } from "../src/IssueMessages.js"
import { summarizeIssues, safeIssueList } from "../src/ErrorRedaction.js"

const Body = Schema.Struct({
  role: Schema.Literal("VIP", "Supporter", "Premium"),
  protocol: Schema.optional(Schema.Literal("battleye", "source")),
  name: Schema.String.pipe(Schema.minLength(1)),
  count: Schema.optional(Schema.Int.pipe(Schema.between(1, 5))),
  nested: Schema.optional(Schema.Struct({ a: Schema.String })),
  own: Schema.optional(Schema.String.pipe(Schema.filter((s) => s === "ok" || "own must be ok")))
}).annotations({ parseOptions: { onExcessProperty: "error" } })

/** What the front door answers for `input`: the summary and the listed issues. */
const answer = (input: unknown) => {
  const result = Schema.decodeUnknownEither(Body, { errors: "all" })(input)
  if (Either.isRight(result)) throw new Error("expected a decode failure")
  const { listed, count } = safeIssueList(ParseResult.ArrayFormatter.formatErrorSync(result.left))
  return { message: summarizeIssues(listed[0]!, count), details: listed }
}

describe("decode issues in words", () => {
  it("names the allowed values of a choice once, as the caller types them", () => {
    expect(answer({ role: "Gold", name: "x" })).toEqual({
      message: 'role must be one of VIP, Supporter, Premium (got "Gold")',
      details: [{ path: "role", message: 'must be one of VIP, Supporter, Premium (got "Gold")' }]
    })
    // Optional: the "or leave it out" side adds nothing to say.
    expect(answer({ role: "VIP", name: "x", protocol: "rcon" }).details).toEqual([
      { path: "protocol", message: 'must be one of battleye, source (got "rcon")' }
    ])
  })

  it("says a field is required, and names the fields a body takes for one it does not", () => {
    expect(answer({ name: "x" }).message).toBe("role is required")
    expect(answer({ role: "VIP", name: "x", colour: "red" }).details).toEqual([
      { path: "colour", message: "is not a field of this body; its fields are role, protocol, name, count, nested, own" }
    ])
    expect(answer({ role: "VIP", name: "x", nested: { a: "a", b: 1 } }).details).toEqual([
      { path: "nested.b", message: "is not a field of this body; its fields are a" }
    ])
  })

  it("puts types and refinements as rules, and keeps a schema's own message", () => {
    expect(answer({ role: "VIP", name: 3 }).details).toEqual([{ path: "name", message: "must be a string (got 3)" }])
    expect(answer({ role: "VIP", name: "" }).details).toEqual([
      { path: "name", message: 'must be a string at least 1 characters long (got "")' }
    ])
    expect(answer({ role: "VIP", name: "x", count: 9 }).message).toBe("count must be a number between 1 and 5 (got 9)")
    expect(answer({ role: "VIP", name: "x", own: "no" }).message).toBe("own: own must be ok")
  })

  it("never passes on the schema library's names for what it expected (a query's or path's issues, put in words from the platform's text)", () => {
    const rules = (message: string) => plainIssues([{ segments: ["x"], message }]).map((i) => i.rule)
    expect(rules("Expected Struct (Encoded side), actual 5")).toEqual(["must be an object"])
    expect(rules("Expected RolloutInput (Type side), actual 5")).toEqual(["must be an object"])
    expect(rules("Expected { readonly a: string; readonly \"b-c\"?: number | undefined }, actual 5")).toEqual(["must be an object with fields a, b-c"])
    expect(rules("Expected ReadonlyArray<string>, actual 5")).toEqual(["must be a list"])
    expect(rules('Expected "a" | "b", actual 5')).toEqual(["must be one of a, b"])
    expect(rules("Expected { number | filter }, actual 5")).toEqual(["must be a number"])
    expect(rules("Expected <declaration schema>, actual 5")).toEqual(["must be a value of another shape"])
    expect(rules("is unexpected")).toEqual(["is not a field of this body"])
  })

  it("reads a query number the platform could not decode", () => {
    expect(plainIssues([{ segments: ["limit"], message: 'Unable to decode "ten" into a number' }])).toEqual([
      { segments: ["limit"], rule: "must be a number", actual: '"ten"' }
    ])
  })
})
