/** Opaque page cursors: the position of the last notification of a page (keyset pagination). */
import * as Option from "effect/Option"

const PREFIX = "notifications:"

export const encodeCursor = (seq: number): string => Buffer.from(`${PREFIX}${seq}`, "utf8").toString("base64url")

export const decodeCursor = (cursor: string): Option.Option<number> => {
  const text = Buffer.from(cursor, "base64url").toString("utf8")
  if (!text.startsWith(PREFIX)) return Option.none()
  const digits = text.slice(PREFIX.length)
  const seq = Number(digits)
  return /^[1-9][0-9]{0,15}$/.test(digits) && Number.isSafeInteger(seq) ? Option.some(seq) : Option.none()
}
