/**
 * Which online player a `:playerId` (or any player argument) names: the
 * BattlEye player number (`0`, `12`), the 32-hex BattlEye GUID, a Steam64
 * (matched by the GUID it hashes to, so it works before the logs named the
 * player), the 44-character DayZ ID, or else the exact name
 * (case-insensitive; when several players share it, the one spelled
 * exactly so, else it names no one in particular). The routes answer it
 * with `resolvePlayer` (`../http/resolvePlayer.ts`).
 */
import { PlayerIds } from "@garrison/runtime"

/** What matching needs of a listed player; ids the logs did not prove are null (or absent). */
export interface FindablePlayer {
  readonly slot: number
  readonly guid: string
  readonly name: string
  readonly steam64?: string | null
  readonly dayzId?: string | null
}

/** Every listed player `playerId` may name: none, one, or (for a name several share) more. */
export const matchPlayers = <P extends FindablePlayer>(players: ReadonlyArray<P>, playerId: string): ReadonlyArray<P> => {
  const id = playerId.trim()
  const one = (player: P | undefined) => (player === undefined ? [] : [player])
  if (PlayerIds.isSteam64(id)) {
    const guid = PlayerIds.toBattlEyeGuid(id)
    return one(players.find((p) => p.steam64 === id || p.guid === guid))
  }
  if (/^\d+$/.test(id)) return one(players.find((p) => p.slot === Number(id)))
  if (/^[0-9a-f]{32}$/i.test(id)) return one(players.find((p) => p.guid === id.toLowerCase()))
  if (PlayerIds.isDayzId(id)) {
    const byId = players.find((p) => p.dayzId === id)
    if (byId !== undefined) return [byId]
  }
  const name = id.toLowerCase()
  const named = players.filter((p) => p.name.toLowerCase() === name)
  if (named.length <= 1) return named
  // "Bravo" and "bravo" both online: the exact spelling picks one.
  const exact = named.filter((p) => p.name === id)
  return exact.length === 1 ? exact : named
}

/** The one player `playerId` names, or undefined when it names no one, or several. */
export const findPlayer = <P extends FindablePlayer>(players: ReadonlyArray<P>, playerId: string): P | undefined => {
  const found = matchPlayers(players, playerId)
  return found.length === 1 ? found[0] : undefined
}
