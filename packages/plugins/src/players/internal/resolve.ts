/**
 * Which online player a `:playerId` names: the BattlEye player number
 * (`0`, `12`), the 32-hex BattlEye GUID, a Steam64 (matched by the GUID it
 * hashes to, so it works before the logs named the player), the 44-character
 * DayZ ID, or else the exact name (case-insensitive).
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

export const findPlayer = <P extends FindablePlayer>(players: ReadonlyArray<P>, playerId: string): P | undefined => {
  const id = playerId.trim()
  if (PlayerIds.isSteam64(id)) {
    const guid = PlayerIds.toBattlEyeGuid(id)
    return players.find((p) => p.steam64 === id || p.guid === guid)
  }
  if (/^\d+$/.test(id)) return players.find((p) => p.slot === Number(id))
  if (/^[0-9a-f]{32}$/i.test(id)) return players.find((p) => p.guid === id.toLowerCase())
  if (PlayerIds.isDayzId(id)) {
    const byId = players.find((p) => p.dayzId === id)
    if (byId !== undefined) return byId
  }
  const name = id.toLowerCase()
  return players.find((p) => p.name.toLowerCase() === name)
}
