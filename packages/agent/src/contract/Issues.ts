/**
 * A schema failure as one line naming the field: `rain: must be a number
 * from 0.0 to 1.0`, `coords: must be [x, y, z], three finite numbers`,
 * `platformId: is required`. The agent answers its 400s with it, and the
 * client reports input it refuses to send the same way.
 */
import * as ParseResult from "effect/ParseResult"
import { AgentInvalidInput } from "./Errors.js"

/** One issue as the platform's `HttpApiDecodeError` and `ArrayFormatter` list them. */
export interface Issue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** `["coords", 2]` as `coords[2]`, `["a", "b"]` as `a.b`. */
export const fieldOfPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((acc, segment) => {
    if (typeof segment === "number") return `${acc}[${segment}]`
    const name = String(segment)
    return acc === "" ? name : `${acc}.${name}`
  }, "")

const MAX_MESSAGE = 300

const clip = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 3)}...` : text)

const reword = (issue: Issue, whole: string): string => {
  if (issue._tag === "Missing") return "is required"
  if (issue._tag === "Unexpected") {
    const expected = /expected: (.*)$/s.exec(issue.message)?.[1]
    const names = expected === undefined ? [] : expected.split(" | ").map((n) => n.replace(/^"|"$/g, ""))
    return names.length > 0 ? `is not a field of this request (expected ${names.join(", ")})` : "is not a field of this request"
  }
  if (issue.path.length === 0 && /^Expected \{/.test(issue.message)) return `the ${whole} must be a JSON object`
  // The platform's own messages quote the value ("actual ..."): keep them short.
  return clip(issue.message)
}

/** The first issue as `AgentInvalidInput`; `whole` names the input when the issue is about all of it. */
export const invalidInputFromIssues = (issues: ReadonlyArray<Issue>, whole: "body" | "query" | "path" | "input"): AgentInvalidInput => {
  const issue = issues[0]
  if (issue === undefined) return new AgentInvalidInput({ error: `${whole}: does not match the expected schema`, field: whole })
  const field = issue.path.length === 0 ? whole : fieldOfPath(issue.path)
  const text = reword(issue, whole)
  return new AgentInvalidInput({ error: text.startsWith("the ") ? text : `${field}: ${text}`, field })
}

/** A `ParseError` as `AgentInvalidInput`. */
export const invalidInputFromParseError = (error: ParseResult.ParseError, whole: "body" | "query" | "path" | "input"): AgentInvalidInput =>
  invalidInputFromIssues(ParseResult.ArrayFormatter.formatErrorSync(error), whole)
