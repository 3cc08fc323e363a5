/**
 * The one form text takes in the audit store. A JavaScript string may hold
 * lone UTF-16 surrogates, which have no UTF-8 form: SQLite would store
 * bytes that read back as something else, and the row would no longer match
 * its hash. And it may hold NUL (U+0000), which SQLite keeps inside TEXT but
 * PostgreSQL refuses, so the row could not be written at all. So every text
 * is made storable first (each lone surrogate and each NUL becomes U+FFFD,
 * the way `TextEncoder` and `Buffer.from` treat a lone surrogate), on every
 * engine alike, and cuts never split a surrogate pair. What comes out
 * encodes to UTF-8 and back unchanged and is stored as it is by SQLite and
 * PostgreSQL; noncharacters (U+FFFE, U+FFFF) are valid UTF-8 and are kept
 * as they are.
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** `text` with every lone surrogate and every NUL replaced by U+FFFD. */
export const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, "\ufffd").replaceAll("\u0000", "\ufffd")

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff

/**
 * At most `max` UTF-16 code units of well-formed `text`, cut at a code point
 * boundary, with `…` appended when anything was cut.
 */
export const clampText = (text: string, max: number): string => {
  if (text.length <= max) return text
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max
  return `${text.slice(0, end)}…`
}
