/**
 * A body's decode failure in the words of its fields, read from the schema
 * itself: `must be an object with fields workshopId, name, type`, `must be
 * a list (each item a string)`, `must be one of client, server`, `is not a
 * field of this body; its fields are a, b, c`. Never the schema library's
 * own words (`Struct (Encoded side)`, `{ readonly a: string }`,
 * `Refinement`, `Expected ...`): the platform's formatter names a schema by
 * its title or its TypeScript type, which a person sending JSON cannot act
 * on.
 *
 * The plan annotates each endpoint's payload with `plainDecodeMessages`
 * (see `KnownFields`): on failure, its one message carries these issues as
 * JSON behind `PLAIN_ISSUES_MARKER`, and the host's front door reads them
 * back into `details` (`{path, message}` each). A schema's own message
 * (`passwords are 8 to 128 characters long`) is kept as it is.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import type * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/** Opens the message that carries plain issues (a NUL: no schema's own message starts with one). */
export const PLAIN_ISSUES_MARKER = "\u0000garrison-plain-issues:"

export interface DecodeIssue {
  /** The field's path, one segment per property or index. */
  readonly path: ReadonlyArray<string>
  /** What is expected, in words, without the value sent. */
  readonly rule: string
  /** The value sent, formatted (JSON-like), when the rule is about it. */
  readonly actual?: string
  /** The rule lists what the schema allows (the fields of a body): shown whole, never cut. */
  readonly whole?: boolean
}

const KEYWORDS: Partial<Record<AST.AST["_tag"], string>> = {
  StringKeyword: "a string",
  NumberKeyword: "a number",
  BooleanKeyword: "true or false",
  BigIntKeyword: "an integer",
  ObjectKeyword: "an object",
  SymbolKeyword: "a symbol",
  UnknownKeyword: "any value",
  AnyKeyword: "any value",
  UndefinedKeyword: "left out",
  VoidKeyword: "left out",
  NeverKeyword: "nothing (leave it out)",
  TemplateLiteral: "a string"
}

/** A literal as a person types it: strings without quotes. */
const literalText = (literal: AST.LiteralValue): string => (literal === null ? "null" : String(literal))

/** Property names a struct takes, as the API spells them. */
export const fieldNames = (ast: AST.TypeLiteral): ReadonlyArray<string> => ast.propertySignatures.map((p) => String(p.name))

/** Built-in descriptions (`a string at least 1 character(s) long`) read as a sentence. */
const tidy = (text: string): string =>
  text
    .replace(/\(s\)/g, "s")
    .replace(/\ban array\b/g, "a list")
    .replace(/\b1 (item|character)s\b/g, "1 $1")

/**
 * A union member the value did not even have the shape of: a type mismatch, also under the base side of a
 * refinement (`a string of 1 to 128 characters` given an object). Such members say nothing about the value.
 */
const isShapeMismatch = (issue: ParseResult.ParseIssue): boolean =>
  issue._tag === "Type" || (issue._tag === "Refinement" && issue.kind === "From" && isShapeMismatch(issue.issue))

/** The literals a union allows (every member a literal, or null), or undefined. */
const literalsOf = (ast: AST.Union): ReadonlyArray<string> | undefined => {
  const values: Array<string> = []
  for (const member of ast.types) {
    const m = encodedSide(member)
    if (AST.isLiteral(m)) values.push(literalText(m.literal))
    else if (AST.isEnums(m)) values.push(...m.enums.map(([, value]) => String(value)))
    else if (!AST.isUndefinedKeyword(m)) return undefined
  }
  return values
}

/** What a client sends for `ast`: the encoded side of transformations, what a lazy schema stands for. */
const encodedSide = (ast: AST.AST, depth = 0): AST.AST =>
  depth > 20 ? ast : AST.isTransformation(ast) ? encodedSide(ast.from, depth + 1) : AST.isSuspend(ast) ? encodedSide(ast.f(), depth + 1) : ast

/** A description a schema's author wrote as words for the value (`a number between 1 and 5`), or undefined. */
const describedAs = (ast: AST.AST): string | undefined => {
  const description = Option.getOrUndefined(AST.getDescriptionAnnotation(ast))
  // A pattern's description quotes its regular expression, which is not words: the base type says enough.
  return description !== undefined && /^(an? |one of )/.test(description) && !description.includes("matching the pattern") && description.length <= 200
    ? tidy(description)
    : undefined
}

/** What `ast` expects, in plain words (`an object with fields a, b`, `a list (each item a string)`, `one of x, y`). */
export const describeExpected = (ast: AST.AST, depth = 0): string => {
  if (depth > 6) return "a value of another shape"
  const keyword = KEYWORDS[ast._tag]
  if (keyword !== undefined) return keyword
  switch (ast._tag) {
    case "Literal":
      return literalText(ast.literal)
    case "UniqueSymbol":
      return "a symbol"
    case "Enums":
      return `one of ${ast.enums.map(([, value]) => String(value)).join(", ")}`
    case "TypeLiteral": {
      const fields = fieldNames(ast)
      return fields.length === 0 ? "an object" : `an object with ${fields.length === 1 ? "field" : "fields"} ${fields.join(", ")}`
    }
    case "TupleType": {
      if (ast.elements.length === 0 && ast.rest.length === 1) return `a list (each item ${describeExpected(ast.rest[0]!.type, depth + 1)})`
      if (ast.rest.length === 0) return `a list of ${ast.elements.length} ${ast.elements.length === 1 ? "item" : "items"}`
      return "a list"
    }
    case "Union": {
      const literals = literalsOf(ast)
      if (literals !== undefined) return literals.length === 1 ? literals[0]! : `one of ${literals.join(", ")}`
      const sides = [...new Set(ast.types.filter((t) => !AST.isUndefinedKeyword(t)).map((t) => describeExpected(t, depth + 1)))]
      return sides.length === 1 ? sides[0]! : `${sides.slice(0, -1).join(", ")} or ${sides[sides.length - 1]}`
    }
    case "Refinement":
      return describedAs(ast) ?? describeExpected(ast.from, depth + 1)
    case "Transformation":
      return describeExpected(ast.from, depth + 1)
    case "Suspend":
      return describeExpected(ast.f(), depth + 1)
    case "Declaration":
      return describedAs(ast) ?? "a value of another shape"
  }
  return "a value of another shape"
}

/**
 * The schema's own message for `issue`, as Effect's formatters take it: a
 * message on a struct or union, on the base side of a refinement or on
 * either side of a transformation speaks only when it says `override`
 * (otherwise the issue inside says what is wrong). The payload's root
 * annotation is this module's, not a message.
 */
const ownMessage = (issue: ParseResult.ParseIssue): string | undefined => {
  if (!("ast" in issue)) return undefined
  const annotation = Option.getOrUndefined(AST.getMessageAnnotation(issue.ast))
  if (annotation === undefined || annotation === plainMessage) return undefined
  const made = annotation(issue)
  const { message, override } = typeof made === "string" || Effect.isEffect(made) ? { message: made, override: false } : made
  const inner =
    issue._tag === "Composite" || (issue._tag === "Refinement" && issue.kind === "From") || (issue._tag === "Transformation" && issue.kind !== "Transformation")
  if (inner && override !== true) return undefined
  return typeof message === "string" ? message : Effect.runSync(message)
}

const UNDECODABLE_NUMBER = /^Unable to decode (.*) into a number$/

const segmentsOf = (path: ParseResult.Path): ReadonlyArray<string> => (Array.isArray(path) ? path.map(String) : [String(path)])

/** The value sent, as the host's redaction reads it: a string quoted, a container only named (it may hold a secret). */
const formatted = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value) : Array.isArray(value) ? "[…]" : typeof value === "object" && value !== null ? "{…}" : String(value)

/** A leaf: `must be <what>`, with the value sent. */
const expected = (path: ReadonlyArray<string>, ast: AST.AST, actual: unknown): DecodeIssue => ({
  path,
  rule: `must be ${describeExpected(ast)}`,
  actual: formatted(actual)
})

/** The issues of one decode failure, one per field that failed, in plain words. */
export const decodeIssues = (issue: ParseResult.ParseIssue): ReadonlyArray<DecodeIssue> => {
  const out: Array<DecodeIssue> = []
  const walk = (issue: ParseResult.ParseIssue, path: ReadonlyArray<string>, parent: AST.AST | undefined): void => {
    switch (issue._tag) {
      case "Pointer":
        // The struct the pointer is into stays the parent: an unknown key is a pointer to an `Unexpected`.
        return walk(issue.issue, [...path, ...segmentsOf(issue.path)], parent)
      case "Missing": {
        const own = Option.getOrUndefined(AST.getMissingMessageAnnotation(issue.ast))?.()
        out.push({ path, rule: typeof own === "string" ? own : own !== undefined ? Effect.runSync(own) : "is required" })
        return
      }
      case "Unexpected": {
        const struct = parent === undefined ? undefined : encodedSide(parent)
        if (struct !== undefined && AST.isTypeLiteral(struct)) {
          const fields = fieldNames(struct)
          out.push({
            path,
            rule: fields.length === 0 ? "is not a field of this body; it takes none" : `is not a field of this body; its fields are ${fields.join(", ")}`,
            whole: true
          })
        } else if (struct !== undefined && AST.isTupleType(struct) && struct.rest.length === 0) {
          const n = struct.elements.length
          out.push({ path, rule: `is one item too many: the list takes ${n} ${n === 1 ? "item" : "items"}` })
        } else out.push({ path, rule: "is not a field of this body" })
        return
      }
      case "Forbidden":
        out.push({ path, rule: "could not be checked" })
        return
      case "Type": {
        const own = ownMessage(issue)
        if (own !== undefined) return void out.push({ path, rule: own })
        if (issue.message !== undefined) {
          const number = UNDECODABLE_NUMBER.exec(issue.message)
          out.push(number !== null ? { path, rule: "must be a number", actual: number[1]! } : { path, rule: issue.message })
          return
        }
        out.push(expected(path, issue.ast, issue.actual))
        return
      }
      case "Refinement": {
        const own = ownMessage(issue)
        if (own !== undefined) return void out.push({ path, rule: own })
        if (issue.kind === "From") return walk(issue.issue, path, parent)
        // A predicate that said why (a filter returning its message, or issues of its own) says it.
        const inner = issue.issue
        if (inner._tag !== "Type" || inner.message !== undefined || ownMessage(inner) !== undefined) return walk(inner, path, parent)
        // Otherwise: the refinement's description, or its base type.
        out.push(expected(path, issue.ast, issue.actual))
        return
      }
      case "Transformation": {
        const own = ownMessage(issue)
        if (own !== undefined) return void out.push({ path, rule: own })
        // The encoded side is what the client sent: a struct's unknown fields are its fields.
        return walk(issue.issue, path, issue.kind === "Encoded" ? issue.ast.from : issue.kind === "Type" ? issue.ast.to : parent)
      }
      case "Composite": {
        const own = ownMessage(issue)
        if (own !== undefined) return void out.push({ path, rule: own })
        const issues = Array.isArray(issue.issues) ? (issue.issues as ReadonlyArray<ParseResult.ParseIssue>) : [issue.issues as ParseResult.ParseIssue]
        if (AST.isUnion(issue.ast)) {
          // A member that got past its shape says what is wrong deeper; otherwise the union says what it takes.
          // (A member refused only under a refinement's base side counts when it is the only one left.)
          const past = issues.filter((i) => !isShapeMismatch(i))
          const deeper = past.length > 0 ? past : issues.filter((i) => i._tag !== "Type")
          if (deeper.length === 1) return walk(deeper[0]!, path, issue.ast)
          out.push(expected(path, issue.ast, issue.actual))
          return
        }
        for (const child of issues) walk(child, path, issue.ast)
        return
      }
    }
  }
  walk(issue, [], undefined)
  return out
}

/**
 * `schema`, whose decode failures say `decodeIssues` (behind
 * `PLAIN_ISSUES_MARKER`) instead of the platform's words. Only the root is
 * annotated: its message stands for the whole failure.
 */
export const plainDecodeMessages = <S extends Schema.Schema.Any>(schema: S): S => schema.annotations({ message: plainMessage }) as S

/** The root's message: the whole failure's issues, for the host to read back. */
function plainMessage(issue: ParseResult.ParseIssue) {
  return { message: PLAIN_ISSUES_MARKER + JSON.stringify(decodeIssues(issue)), override: true }
}

/** Whether `schema` already says its failures in plain words. */
export const hasPlainDecodeMessages = (schema: Schema.Schema.Any): boolean => Option.isSome(AST.getMessageAnnotation(schema.ast))
