/** Text that goes into the delivery log or a chat embed: cut whole, cleaned of what must not be stored. */

/** `text` in at most `max` UTF-16 units, never splitting a character, with `…` when cut. */
export const cut = (text: string, max: number): string => {
  if (text.length <= max) return text
  let end = Math.max(0, max - 1)
  const code = text.charCodeAt(end - 1)
  // Do not leave the first half of a surrogate pair at the end.
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1
  return `${text.slice(0, end)}…`
}

/**
 * Text fit to store and show: NUL and other control characters (but tab and
 * line breaks) and lone surrogates become U+FFFD, so PostgreSQL takes it
 * and a log viewer shows it as it was meant.
 */
export const storable = (text: string): string => {
  let out = ""
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i]! + text[i + 1]!
        i++
      } else {
        out += "\uFFFD"
      }
      continue
    }
    if ((code >= 0xdc00 && code <= 0xdfff) || (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f)) {
      out += "\uFFFD"
      continue
    }
    out += text[i]!
  }
  return out
}

/** The first bytes of an answer as the log keeps them: decoded as UTF-8 (bad bytes as U+FFFD), cleaned, a character cut at the end dropped. */
export const responseExcerpt = (bytes: Buffer, complete: boolean): string => {
  const text = storable(bytes.toString("utf8"))
  // A multi-byte character cut by the byte limit decodes as U+FFFD at the very end: drop it.
  return complete ? text : text.replace(/\uFFFD$/, "")
}
