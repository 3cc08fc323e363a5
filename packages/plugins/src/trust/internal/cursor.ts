/**
 * The export's cursor: the feed position of the last row a page answered
 * and the status filter it was read with, signed (HMAC-SHA256 with a key
 * under `DATA_DIR/secrets/trust-cursor.key`) so a client cannot forge a
 * position or change the filter under it. Opaque to clients:
 * `<base64url JSON>.<base64url MAC>`.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export interface CursorPosition {
  /** The feed tick (`updated_ms`) of the last row answered. */
  readonly after: number
  /** The statuses asked, sorted. */
  readonly statuses: ReadonlyArray<string>
}

export const CURSOR_KEY = { name: "trust-cursor", spec: { bytes: 32, what: "the key that signs the trust export's cursors", ifReplaced: "cursors handed out before are refused: partners resume with since" } } as const

const mac = (key: Uint8Array, body: string) => createHmac("sha256", key).update(body).digest("base64url")

export const encodeCursor = (key: Uint8Array, position: CursorPosition): string => {
  const body = Buffer.from(JSON.stringify({ v: 1, a: position.after, s: position.statuses })).toString("base64url")
  return `${body}.${mac(key, body)}`
}

/** The position, or undefined for a cursor this instance did not sign (altered, truncated, another key). */
export const decodeCursor = (key: Uint8Array, cursor: string): CursorPosition | undefined => {
  const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(cursor)
  if (match === null) return undefined
  const expected = Buffer.from(mac(key, match[1]!))
  const given = Buffer.from(match[2]!)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
  try {
    const parsed = JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as { v?: unknown; a?: unknown; s?: unknown }
    if (parsed.v !== 1 || typeof parsed.a !== "number" || !Number.isSafeInteger(parsed.a) || !Array.isArray(parsed.s)) return undefined
    return { after: parsed.a, statuses: parsed.s.map(String) }
  } catch {
    return undefined
  }
}
