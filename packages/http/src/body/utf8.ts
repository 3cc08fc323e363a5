/**
 * Where a byte sequence stops being well-formed UTF-8 (Unicode 15, table
 * 3-7), and why. Only called once a fatal decoder has refused the bytes, to
 * name the offset in the error; the fast path is `TextDecoder`.
 */

export interface Utf8Fault {
  /** Offset of the first byte of the ill-formed sequence. */
  readonly offset: number
  readonly reason: string
}

const isContinuation = (byte: number | undefined) => byte !== undefined && byte >= 0x80 && byte <= 0xbf

/** The first ill-formed sequence in `bytes`, or `undefined` when they are all well-formed. */
export const findUtf8Fault = (bytes: Uint8Array): Utf8Fault | undefined => {
  let i = 0
  while (i < bytes.length) {
    const lead = bytes[i]!
    if (lead < 0x80) {
      i += 1
      continue
    }
    const fault = (reason: string): Utf8Fault => ({ offset: i, reason })
    if (lead < 0xc0) return fault("a continuation byte without a lead byte")
    if (lead < 0xc2) return fault("an overlong encoding")
    if (lead >= 0xf8) return fault("a byte that never appears in UTF-8")
    if (lead >= 0xf5) return fault("a code point above U+10FFFF")
    const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
    const second = bytes[i + 1]
    // The second byte's range narrows for the leads that could encode too little or too much.
    if (lead === 0xe0 && second !== undefined && second < 0xa0 && second >= 0x80) return fault("an overlong encoding")
    if (lead === 0xf0 && second !== undefined && second < 0x90 && second >= 0x80) return fault("an overlong encoding")
    if (lead === 0xed && second !== undefined && second >= 0xa0 && second <= 0xbf) return fault("an encoded UTF-16 surrogate")
    if (lead === 0xf4 && second !== undefined && second >= 0x90 && second <= 0xbf) return fault("a code point above U+10FFFF")
    for (let k = 1; k < length; k++) {
      if (!isContinuation(bytes[i + k])) return fault("a truncated sequence")
    }
    i += length
  }
  return undefined
}
