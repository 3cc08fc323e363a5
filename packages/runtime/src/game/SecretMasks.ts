/**
 * The game's secrets in text files, masked wherever a file leaves Garrison
 * for someone who is not an admin (the file editor, backup downloads), and
 * put back when a masked text is written again.
 *
 * By content, not by file name, so copies count too (`serverDZ.cfg.bak`,
 * a BattlEye config under the profiles folder):
 * - `serverDZ.cfg` syntax: `password = "..."` and `passwordAdmin = "..."`;
 * - BattlEye syntax (`Key value` lines): `RConPassword value`.
 * Keys are matched without regard to case, as both games read them. An
 * empty value is not a secret and stays as it is.
 */

/** What every view shows instead of a secret's value. */
export const SECRET_MASK = "********"

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The text of a file's bytes, or undefined when it is not text (NUL bytes, or not UTF-8). */
export const textOf = (bytes: Uint8Array): string | undefined => {
  if (bytes.includes(0)) return undefined
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

interface SecretSyntax {
  /** Groups: 1 the text before the value, 2 the key, 3 the value, 4 what follows it. */
  readonly line: RegExp
  /** The value as it is written in place of the secret. */
  readonly masked: string
  readonly isMask: (value: string) => boolean
  readonly isEmpty: (value: string) => boolean
}

const CONFIG: SecretSyntax = {
  // `password = "x";`, `passwordAdmin="x" ;  // comment`: the value is a quoted string or runs to `;`.
  line: /^([ \t]*(password|passwordAdmin)[ \t]*=[ \t]*)("(?:[^"\r\n]|"")*"|[^;\r\n]*?)([ \t]*(?:;.*)?)$/gim,
  masked: `"${SECRET_MASK}"`,
  isMask: (value) => value === `"${SECRET_MASK}"` || value === SECRET_MASK,
  isEmpty: (value) => value === "" || value === '""'
}

const BATTLEYE: SecretSyntax = {
  line: /^([ \t]*(RConPassword)[ \t]+)(\S(?:.*\S)?)([ \t]*)$/gim,
  masked: SECRET_MASK,
  isMask: (value) => value === SECRET_MASK,
  isEmpty: (value) => value === ""
}

const SYNTAXES = [CONFIG, BATTLEYE] as const

/** A text with its secrets masked, and the keys that were (in order, as written). */
export interface MaskedText {
  readonly text: string
  readonly masked: ReadonlyArray<string>
}

/** `text` with every secret's value replaced by the mask. */
export const maskSecrets = (text: string): MaskedText => {
  const masked: Array<string> = []
  let out = text
  for (const syntax of SYNTAXES) {
    out = out.replace(syntax.line, (whole, before: string, key: string, value: string, after: string) => {
      if (syntax.isEmpty(value) || syntax.isMask(value)) return whole
      masked.push(key)
      return `${before}${syntax.masked}${after}`
    })
  }
  return { text: out, masked }
}

/** Why a masked text cannot be written back: a mask where the file has no such secret to put back. */
export interface UnmaskProblem {
  readonly key: string
  readonly line: number
}

/**
 * `edited` (a text read masked, then changed) with each mask replaced by
 * the value the same key has in `current` (the file as it is now): the n-th
 * masked `password` gets the n-th `password` value of `current`. A mask
 * with nothing to stand for is a problem, named by key and line.
 */
export const unmaskSecrets = (edited: string, current: string): { readonly text: string } | { readonly problem: UnmaskProblem } => {
  let out = edited
  for (const syntax of SYNTAXES) {
    const values = new Map<string, Array<string>>()
    for (const match of current.matchAll(syntax.line)) {
      const key = match[2]!.toLowerCase()
      values.set(key, [...(values.get(key) ?? []), match[3]!])
    }
    const used = new Map<string, number>()
    let problem: UnmaskProblem | undefined
    out = out.replace(syntax.line, (whole, before: string, key: string, value: string, after: string, offset: number) => {
      if (problem !== undefined || !syntax.isMask(value)) return whole
      const lower = key.toLowerCase()
      const index = used.get(lower) ?? 0
      used.set(lower, index + 1)
      const original = values.get(lower)?.[index]
      if (original === undefined || syntax.isMask(original)) {
        problem = { key, line: out.slice(0, offset).split("\n").length }
        return whole
      }
      return `${before}${original}${after}`
    })
    if (problem !== undefined) return { problem }
  }
  return { text: out }
}
