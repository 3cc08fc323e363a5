/**
 * Where a JSON text first breaks the grammar (RFC 8259), and what was
 * expected there. `JSON.parse` says so too, but some of its messages quote
 * the text around the fault, and a body may hold a password: this names a
 * position and a rule, never the text. Only called once `JSON.parse` has
 * failed. Iterative (a stack of open containers), so nesting depth costs
 * memory, not call stack.
 */

export interface JsonSyntaxFault {
  /** Index into the text, in UTF-16 code units. */
  readonly position: number
  readonly reason: string
}

const ARRAY = 0
const OBJECT = 1

const isWhitespace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)

/** The first grammar fault in `text`, or `undefined` when it is one well-formed JSON value. */
export const findJsonSyntaxFault = (text: string): JsonSyntaxFault | undefined => {
  const end = text.length
  const open: Array<number> = []
  let i = 0
  const at = (position: number, reason: string): JsonSyntaxFault =>
    position >= end ? { position: end, reason: "unexpected end of input" } : { position, reason }
  const skipWhitespace = () => {
    while (i < end && isWhitespace(text.charCodeAt(i))) i++
  }

  /** A string starting at `i` (a quote); moves past it, or returns the fault. */
  const string = (): JsonSyntaxFault | undefined => {
    i++
    while (i < end) {
      const c = text.charCodeAt(i)
      if (c === 0x22) {
        i++
        return undefined
      }
      if (c < 0x20) return at(i, "a control character inside a string (escape it)")
      if (c === 0x5c) {
        const e = text.charCodeAt(i + 1)
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) return at(i + k, "\\u needs four hex digits")
          i += 6
          continue
        }
        // " \ / b f n r t
        if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2
          continue
        }
        return at(i + 1, "an invalid escape in a string")
      }
      i++
    }
    return at(end, "unterminated string")
  }

  /** A number starting at `i`; moves past it, or returns the fault. */
  const number = (): JsonSyntaxFault | undefined => {
    if (text.charCodeAt(i) === 0x2d) i++
    if (text.charCodeAt(i) === 0x30) i++
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++
    else return at(i, "a digit expected in a number")
    if (text.charCodeAt(i) === 0x2e) {
      i++
      if (!isDigit(text.charCodeAt(i))) return at(i, "a digit expected after the decimal point")
      while (isDigit(text.charCodeAt(i))) i++
    }
    const e = text.charCodeAt(i)
    if (e === 0x65 || e === 0x45) {
      i++
      const sign = text.charCodeAt(i)
      if (sign === 0x2b || sign === 0x2d) i++
      if (!isDigit(text.charCodeAt(i))) return at(i, "a digit expected in the exponent")
      while (isDigit(text.charCodeAt(i))) i++
    }
    return undefined
  }

  /** An object key and its colon, with `i` on the key's opening quote expected. */
  const key = (): JsonSyntaxFault | undefined => {
    if (text.charCodeAt(i) !== 0x22) return at(i, "a double-quoted property name expected")
    const fault = string()
    if (fault) return fault
    skipWhitespace()
    if (text.charCodeAt(i) !== 0x3a) return at(i, "':' expected after a property name")
    i++
    return undefined
  }

  for (;;) {
    // A value at `i`.
    skipWhitespace()
    const c = text.charCodeAt(i)
    let fault: JsonSyntaxFault | undefined
    let scalar = true
    if (c === 0x7b || c === 0x5b) {
      i++
      skipWhitespace()
      if (text.charCodeAt(i) === (c === 0x7b ? 0x7d : 0x5d)) i++
      else {
        open.push(c === 0x7b ? OBJECT : ARRAY)
        if (c === 0x7b) {
          fault = key()
          if (fault) return fault
        }
        scalar = false
      }
    } else if (c === 0x22) fault = string()
    else if (c === 0x2d || isDigit(c)) fault = number()
    else {
      const literal = c === 0x74 ? "true" : c === 0x66 ? "false" : c === 0x6e ? "null" : undefined
      if (literal === undefined) return at(i, "a value expected")
      for (let k = 0; k < literal.length; k++) {
        if (text.charCodeAt(i + k) !== literal.charCodeAt(k)) return at(i + k, "an invalid literal (true, false or null expected)")
      }
      i += literal.length
    }
    if (fault) return fault
    if (!scalar) continue

    // After a complete value: close containers, or a comma and the next value.
    for (;;) {
      skipWhitespace()
      const container = open[open.length - 1]
      if (container === undefined) return i < end ? at(i, "unexpected data after the value") : undefined
      const next = text.charCodeAt(i)
      if (next === 0x2c) {
        i++
        if (container === OBJECT) {
          skipWhitespace()
          fault = key()
          if (fault) return fault
        }
        break
      }
      if (next === (container === OBJECT ? 0x7d : 0x5d)) {
        open.pop()
        i++
        continue
      }
      return at(i, container === OBJECT ? "',' or '}' expected after a property value" : "',' or ']' expected after an array element")
    }
  }
}
