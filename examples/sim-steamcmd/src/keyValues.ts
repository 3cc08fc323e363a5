/**
 * Valve's KeyValues text, the format of Steam's `.acf` files
 * (`appmanifest_<appid>.acf`, `appworkshop_221100.acf`):
 *
 * ```
 * "AppState"
 * {
 * 	"appid"		"223350"
 * 	"UserConfig"
 * 	{
 * 		"language"		"english"
 * 	}
 * }
 * ```
 *
 * Keys and values are quoted strings, a block's contents are tab-indented
 * and a key is separated from its value by two tabs, as Steam writes them.
 * Keys keep their order (Steam's files are diffed and read by people).
 */

/** A block: ordered key -> string value or nested block. */
export type KeyValues = ReadonlyArray<readonly [string, string | KeyValues]>

/** `"` and `\` are escaped with a backslash, as Steam does. */
const quote = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

const writeBlock = (block: KeyValues, depth: number): string => {
  const indent = "\t".repeat(depth)
  return block
    .map(([key, value]) =>
      typeof value === "string"
        ? `${indent}${quote(key)}\t\t${quote(value)}\n`
        : `${indent}${quote(key)}\n${indent}{\n${writeBlock(value, depth + 1)}${indent}}\n`
    )
    .join("")
}

/** The text of a file with one root block named `root`. */
export const writeKeyValues = (root: string, block: KeyValues): string => writeBlock([[root, block]], 0)

export class KeyValuesError extends Error {}

/**
 * Reads KeyValues text into `[rootName, block]`. Tolerates `//` comments
 * and unquoted tokens (both occur in Valve's files), nothing fancier.
 */
export const parseKeyValues = (text: string): readonly [string, KeyValues] => {
  let at = 0
  const token = (): string | undefined => {
    while (at < text.length) {
      if (/\s/.test(text[at]!)) at++
      else if (text.startsWith("//", at)) at = text.indexOf("\n", at) === -1 ? text.length : text.indexOf("\n", at)
      else break
    }
    if (at >= text.length) return undefined
    const c = text[at]!
    if (c === "{" || c === "}") {
      at++
      return c
    }
    if (c === '"') {
      let value = ""
      at++
      while (at < text.length && text[at] !== '"') {
        if (text[at] === "\\" && at + 1 < text.length) at++
        value += text[at]
        at++
      }
      if (at >= text.length) throw new KeyValuesError("unterminated string")
      at++
      return `"${value}`
    }
    const start = at
    while (at < text.length && !/[\s{}"]/.test(text[at]!)) at++
    return `"${text.slice(start, at)}`
  }
  // Quoted and bare words come back prefixed with `"` so they never read as a brace.
  const word = (t: string | undefined, what: string): string => {
    if (t === undefined || !t.startsWith('"')) throw new KeyValuesError(`expected ${what}, found ${t ?? "the end"}`)
    return t.slice(1)
  }
  const block = (): KeyValues => {
    const entries: Array<readonly [string, string | KeyValues]> = []
    while (true) {
      const t = token()
      if (t === "}") return entries
      const key = word(t, "a key or '}'")
      const next = token()
      if (next === "{") entries.push([key, block()])
      else entries.push([key, word(next, `a value for "${key}"`)])
    }
  }
  const root = word(token(), "the root key")
  if (token() !== "{") throw new KeyValuesError(`expected '{' after "${root}"`)
  return [root, block()]
}

/** The string value under `key` in a block (first match), if any. */
export const kvString = (block: KeyValues, key: string): string | undefined => {
  const found = block.find(([k, v]) => k.toLowerCase() === key.toLowerCase() && typeof v === "string")
  return found === undefined ? undefined : (found[1] as string)
}

/** The nested block under `key` (first match), if any. */
export const kvBlock = (block: KeyValues, key: string): KeyValues | undefined => {
  const found = block.find(([k, v]) => k.toLowerCase() === key.toLowerCase() && typeof v !== "string")
  return found === undefined ? undefined : (found[1] as KeyValues)
}
