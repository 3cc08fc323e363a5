/**
 * A player named in any id form: a DayZ ID (the admin log's `id=`) as it
 * is, a Steam64, Steam2 or Steam3 id turned into the DayZ ID it hashes to
 * (`base64url(sha256(steam64))`), so a player is found by Steam id before
 * RCON ever linked the two.
 */
import * as Either from "effect/Either"
import { parsePlatformId, PlayerIds } from "@garrison/runtime"

export type PlayerKey = { readonly playerId: string; readonly steam64: string | null }

/** The player's key, or the reason the text names no player. */
export const playerKeyOf = (input: string): Either.Either<PlayerKey, string> => {
  const text = input.trim()
  if (PlayerIds.isDayzId(text)) return Either.right({ playerId: text, steam64: null })
  return Either.match(parsePlatformId(text), {
    onLeft: () => Either.left("expected a DayZ ID (44 characters ending in =), a Steam64, Steam2 (STEAM_0:Y:Z) or Steam3 ([U:1:n]) id"),
    onRight: (steam64) => Either.right({ playerId: PlayerIds.toDayzId(steam64), steam64 })
  })
}
