/**
 * Effect's decode issues in words a person can act on. The platform says
 * `Expected "VIP", actual "Gold"` once per allowed value, `is missing`,
 * `is unexpected, expected: "a" | "b"`, and adds `Expected undefined` for
 * every optional field that failed; this module turns them into one issue
 * per field: `must be one of VIP, Supporter, Premium`, `is required`,
 * `is not a field of this body; its fields are a, b`, `must be a string`.
 *
 * The value the caller sent stays apart (`actual`), as the platform
 * formatted it: `ErrorRedaction` decides whether and how much of it to show.
 * A schema's own message (`passwords are 8 to 128 characters long`) is kept
 * as it is.
 *
 * Payloads say their failures already in the words of their fields (the
 * runtime's `DecodeIssues`, read from the schema: `must be an object with
 * fields a, b`); their one message carries those issues, read back here.
 * What is put in words here from the platform's text (a query or a path
 * parameter) never keeps the schema library's own words either
 * (`Struct (Encoded side)`, `{ readonly a: string }`, `Refinement`).
 */
import { type DecodeIssue, PLAIN_ISSUES_MARKER } from "@garrison/runtime"

export interface PlainIssue {
  /** The path, one segment per property or index. */
  readonly segments: ReadonlyArray<string>
  /** What was expected, in words, without the value. */
  readonly rule: string
  /** The value as the platform formatted it (JSON-like), when the message quoted one. */
  readonly actual: string | undefined
  /** The rule lists what the schema allows (a body's fields): shown whole. */
  readonly whole?: boolean
}

const ACTUAL = ", actual "

/** `Expected "VIP"`, `Expected 3`, `Expected true`: one allowed value of a union. */
const LITERAL = /^Expected ("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false)$/
/** The empty sides of an optional or nullable field, which say nothing about what to send. */
const EMPTY_SIDES = new Set(["Expected undefined", "Expected null"])
const UNEXPECTED = /^is unexpected, expected: (.*)$/
const UNDECODABLE_NUMBER = /^Unable to decode (.*) into a number$/

const KEYWORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  bigint: "an integer",
  object: "an object",
  null: "null",
  undefined: "left out"
}

const splitActual = (message: string): { readonly rule: string; readonly actual: string | undefined } => {
  const at = message.indexOf(ACTUAL)
  return at === -1 ? { rule: message, actual: undefined } : { rule: message.slice(0, at), actual: message.slice(at + ACTUAL.length) }
}

/** A literal as the caller would type it: strings without their quotes. */
const literalText = (literal: string): string => {
  if (!literal.startsWith('"')) return literal
  try {
    return String(JSON.parse(literal))
  } catch {
    return literal
  }
}

/** The schema library's own words, which a rule never shows (a person sending JSON cannot act on them). */
export const SCHEMA_WORDS = /\b(?:Struct|Encoded side|Type side|Refinement|Transformation|Union|readonly|Expected|ReadonlyArray|Declaration|filter)\b|\{ readonly|<declaration schema>/

/** The fields of a struct as the platform prints it (`{ readonly a: string; readonly b?: number }`), or undefined. */
const structFields = (expected: string): ReadonlyArray<string> | undefined => {
  if (!expected.startsWith("{ ")) return undefined
  const names = [...expected.matchAll(/(?:^\{ |; )(?:readonly )?("(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*)\??:/g)].map((m) => literalText(m[1]!))
  return names.length > 0 ? names : undefined
}

/** What the platform printed as expected, in words (`must be ...`). */
const expectedInWords = (expected: string): string => {
  const keyword = KEYWORDS[expected]
  if (keyword !== undefined) return `must be ${keyword}`
  if (/^an? /.test(expected) && !SCHEMA_WORDS.test(expected)) return `must be ${expected}`
  // A refinement without a description (`{ number | filter }`): what it refines.
  const refined = /^\{ (.+) \| filter \}$/.exec(expected)
  if (refined !== null) return expectedInWords(refined[1]!)
  const fields = structFields(expected)
  if (fields !== undefined) return `must be an object with ${fields.length === 1 ? "field" : "fields"} ${fields.join(", ")}`
  if (expected.startsWith("{")) return "must be an object"
  if (/^(?:Readonly)?Array<|^readonly \[|^\[/.test(expected)) return "must be a list"
  // A named schema (`Expected LoginRequest`): an object of that shape.
  if (/^[A-Z][A-Za-z0-9]*$/.test(expected) && !SCHEMA_WORDS.test(expected)) return `must be an object (${expected})`
  // One side of a schema (`Struct (Encoded side)`, `LoginRequest (Type side)`): an object, its name says nothing more.
  if (/^[A-Z][A-Za-z0-9]* \((?:Encoded|Type) side\)$/.test(expected)) return "must be an object"
  const literals = expected.split(" | ")
  if (literals.length > 1 && literals.every((l) => LITERAL.test(`Expected ${l}`))) return `must be one of ${literals.map(literalText).join(", ")}`
  return SCHEMA_WORDS.test(expected) ? "must be a value of another shape" : `must be ${expected}`
}

/** One platform rule in words; anything it does not recognise (a schema's own message) unchanged. */
const ruleInWords = (rule: string): string => {
  if (rule === "is missing") return "is required"
  const unexpected = UNEXPECTED.exec(rule)
  if (unexpected !== null) {
    const fields = unexpected[1]!.split(" | ").map(literalText)
    return `is not a field of this body; its fields are ${fields.join(", ")}`
  }
  if (rule === "is unexpected") return "is not a field of this body"
  if (!rule.startsWith("Expected ")) return SCHEMA_WORDS.test(rule) && /^(?:Encoded|Type) side|^(?:From side|Predicate) refinement|^Transformation process/.test(rule) ? "is not valid" : rule
  return expectedInWords(rule.slice("Expected ".length).replace(/\(s\)/g, "s"))
}

/** The issues a payload's message carries (see the module comment), or undefined for any other message. */
const carriedIssues = (segments: ReadonlyArray<string>, message: string): ReadonlyArray<PlainIssue> | undefined => {
  if (!message.startsWith(PLAIN_ISSUES_MARKER)) return undefined
  let issues: ReadonlyArray<DecodeIssue>
  try {
    issues = JSON.parse(message.slice(PLAIN_ISSUES_MARKER.length)) as ReadonlyArray<DecodeIssue>
  } catch {
    return [{ segments, rule: "is not valid", actual: undefined }]
  }
  return issues.map((issue) => ({
    segments: [...segments, ...issue.path.map(String)],
    rule: issue.rule,
    actual: issue.actual,
    ...(issue.whole === true ? { whole: true } : {})
  }))
}

/** The issues of one decode failure, one per field, in words (see the module comment). */
export const plainIssues = (issues: ReadonlyArray<{ readonly segments: ReadonlyArray<string>; readonly message: string }>): ReadonlyArray<PlainIssue> => {
  const carried = issues.map((issue) => carriedIssues(issue.segments, issue.message))
  if (carried.some((c) => c !== undefined)) {
    return issues.flatMap((issue, i) => carried[i] ?? platformIssues([issue]))
  }
  return platformIssues(issues)
}

/** The platform's issues (its text) in words, one per field. */
const platformIssues = (issues: ReadonlyArray<{ readonly segments: ReadonlyArray<string>; readonly message: string }>): ReadonlyArray<PlainIssue> => {
  const byPath = new Map<string, Array<{ readonly rule: string; readonly actual: string | undefined }>>()
  const order: Array<{ readonly key: string; readonly segments: ReadonlyArray<string> }> = []
  for (const issue of issues) {
    const key = JSON.stringify(issue.segments)
    let group = byPath.get(key)
    if (group === undefined) {
      group = []
      byPath.set(key, group)
      order.push({ key, segments: issue.segments })
    }
    group.push(splitActual(issue.message))
  }
  // Paths with something to say: an optional field whose value failed deeper down says it there.
  const said = order.filter(({ key }) => byPath.get(key)!.some((issue) => !EMPTY_SIDES.has(issue.rule))).map((p) => p.segments)
  const saidAtOrBelow = (segments: ReadonlyArray<string>) =>
    said.some((other) => other.length >= segments.length && segments.every((segment, i) => other[i] === segment))
  const out: Array<PlainIssue> = []
  for (const { key, segments } of order) {
    const group = byPath.get(key)!
    const meaningful = group.filter((issue) => !EMPTY_SIDES.has(issue.rule))
    if (meaningful.length === 0 && saidAtOrBelow(segments)) continue
    const kept = meaningful.length > 0 ? meaningful : group
    const literals = kept.filter((issue) => LITERAL.test(issue.rule))
    if (literals.length > 0) {
      const values = literals.map((issue) => literalText(LITERAL.exec(issue.rule)![1]!))
      const rule = values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(", ")}`
      out.push({ segments, rule, actual: literals[0]!.actual })
    }
    for (const issue of kept) {
      if (LITERAL.test(issue.rule)) continue
      const number = UNDECODABLE_NUMBER.exec(issue.rule)
      out.push(
        number !== null
          ? { segments, rule: "must be a number", actual: number[1] }
          : { segments, rule: ruleInWords(issue.rule), actual: issue.actual }
      )
    }
  }
  return out
}
