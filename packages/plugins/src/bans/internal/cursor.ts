/**
 * Opaque page cursors: `bannedAt` and `id` of the last row of a page, so the
 * next page starts strictly after it (keyset pagination: no row is skipped
 * or repeated when bans are added in between).
 */
import * as Option from "effect/Option"

const PREFIX = "bans:"

export interface Position {
  readonly bannedAt: string
  readonly id: string
}

export const encodeCursor = (position: Position): string =>
  Buffer.from(`${PREFIX}${position.bannedAt}|${position.id}`, "utf8").toString("base64url")

export const decodeCursor = (cursor: string): Option.Option<Position> => {
  const text = Buffer.from(cursor, "base64url").toString("utf8")
  if (!text.startsWith(PREFIX)) return Option.none()
  const [bannedAt, id, ...rest] = text.slice(PREFIX.length).split("|")
  return bannedAt !== undefined && id !== undefined && id.length > 0 && rest.length === 0 && /^\d{4}-\d{2}-\d{2}T/.test(bannedAt)
    ? Option.some({ bannedAt, id })
    : Option.none()
}
