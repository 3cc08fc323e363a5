/**
 * The one answer of every route that takes a player argument (the kick, the
 * bans plugin's player ban, the actions plugin's admin actions, the chat
 * bot's kick): the online player it names (`matchPlayers`: player number,
 * GUID, Steam64, DayZ ID or exact name), else 404 `no player "x" is online
 * on this server`, or 409 when a name is shared by several players online,
 * naming their player numbers. A request-edge helper: it builds the
 * runtime's HTTP errors on purpose.
 */
import { Conflict, NotFound } from "@garrison/runtime"
import * as Either from "effect/Either"
import { type FindablePlayer, matchPlayers } from "../internal/resolve.js"

export const resolvePlayer = <P extends FindablePlayer>(players: ReadonlyArray<P>, playerId: string): Either.Either<P, NotFound | Conflict> => {
  const found = matchPlayers(players, playerId)
  if (found.length === 1) return Either.right(found[0]!)
  if (found.length === 0) return Either.left(new NotFound({ message: `no player "${playerId}" is online on this server` }))
  return Either.left(
    new Conflict({
      message:
        `${found.length} players named "${playerId.trim()}" are online on this server (player numbers ${found.map((p) => p.slot).join(", ")}): ` +
        "name one by its player number, GUID or Steam64",
      details: { playerId, players: found.map((p) => ({ slot: p.slot, name: p.name })) }
    })
  )
}
