/**
 * A request body's bytes to a JSON value the rest of the controller can
 * trust: well-formed UTF-8 (decoded fatally, not with U+FFFD patches),
 * JSON by RFC 8259, nested at most `MAX_JSON_DEPTH` deep, every string
 * and key well-formed Unicode. A refusal names the byte offset or the JSON
 * path, never a piece of the body (it may hold a password).
 *
 * A leading byte order mark is accepted and dropped (RFC 8259 section 8.1
 * lets a parser ignore it; Windows tools write one). NUL (`\u0000`) is
 * well-formed Unicode and passes: fields that cannot hold it (file paths,
 * launch parameters, names) refuse it in their own schemas.
 */
import { findJsonShapeFault, type JsonPath } from "./jsonShape.js"
import { findJsonSyntaxFault } from "./jsonSyntax.js"
import { findUtf8Fault } from "./utf8.js"
import { sliceWhole } from "../text/truncate.js"

/**
 * The deepest nesting accepted. Real bodies are 2 to 5 levels deep (a ban
 * import is an array of flat rows); 64 leaves room for any configuration
 * document, while the platform's recursive decoding and error formatting
 * run well within the call stack (about 3,000 levels overflowed it).
 */
export const MAX_JSON_DEPTH = 64

export interface BodyIssue {
  readonly path: string
  readonly message: string
}

export type JsonBody =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Parsed"; readonly value: unknown; readonly text: string }
  | { readonly _tag: "Invalid"; readonly message: string; readonly details?: ReadonlyArray<BodyIssue> }

const utf8 = new TextDecoder("utf-8", { fatal: true })
/** The only way a lone surrogate gets into fatally decoded text; an escaped backslash before `u` only costs a walk. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/
const BOM = [0xef, 0xbb, 0xbf] as const

const invalid = (message: string, details?: ReadonlyArray<BodyIssue>): JsonBody =>
  details === undefined ? { _tag: "Invalid", message } : { _tag: "Invalid", message, details }

export const parseJsonBody = (bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH): JsonBody => {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    const fault = findUtf8Fault(bytes)
    return invalid(`the request body is not valid UTF-8: ${fault?.reason ?? "an ill-formed sequence"} at byte ${fault?.offset ?? 0}`)
  }
  if (text.length === 0) return { _tag: "Empty" }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return invalid(`the request body is not valid JSON: ${describeSyntaxFault(bytes, text)}`)
  }
  const fault = findJsonShapeFault(value, maxDepth, SURROGATE_ESCAPE.test(text))
  if (fault === undefined) return { _tag: "Parsed", value, text }
  const path = renderJsonPath(fault.path)
  if (fault._tag === "TooDeep") {
    return invalid(`the request body nests deeper than ${maxDepth} levels`, [
      { path, message: `nested deeper than ${maxDepth} levels` }
    ])
  }
  const message = `${fault.inKey ? "a property name" : "a string"} is not well-formed Unicode (a lone UTF-16 surrogate, from a \\uD800-\\uDFFF escape without its pair)`
  return invalid(path.length > 0 ? `${path}: ${message}` : message, [{ path, message }])
}

/** The fault's byte offset, line and column; the text itself stays out of the message. */
const describeSyntaxFault = (bytes: Uint8Array, text: string): string => {
  const fault = findJsonSyntaxFault(text) ?? { position: text.length, reason: "not a JSON value" }
  const before = text.slice(0, fault.position)
  const hasBom = BOM.every((b, k) => bytes[k] === b)
  const byteOffset = Buffer.byteLength(before, "utf8") + (hasBom ? BOM.length : 0)
  const lineStart = before.lastIndexOf("\n") + 1
  const line = before.split("\n").length
  return `${fault.reason} at byte ${byteOffset} (line ${line}, column ${fault.position - lineStart + 1})`
}

const MAX_SEGMENT = 64
const MAX_PATH = 256
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * A path as the decode issues write it (`bans.3.playerName`): lone
 * surrogates shown as `\uD800` escapes, long keys and long paths cut.
 */
export const renderJsonPath = (path: JsonPath): string => {
  const rendered = path
    .map((segment) => {
      const text = String(segment).replace(LONE_SURROGATE, (s) => `\\u${s.charCodeAt(0).toString(16).toUpperCase()}`)
      return text.length > MAX_SEGMENT ? `${sliceWhole(text, MAX_SEGMENT)}…` : text
    })
    .join(".")
  return rendered.length > MAX_PATH ? `${sliceWhole(rendered, MAX_PATH)}…` : rendered
}
