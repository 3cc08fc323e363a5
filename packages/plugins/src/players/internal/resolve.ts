/** Which online player a `:playerId` names. */
import type { RconPlayer } from "@garrison/runtime"

export const findPlayer = (players: ReadonlyArray<RconPlayer>, playerId: string): RconPlayer | undefined => {
  const id = playerId.trim()
  if (/^\d+$/.test(id)) return players.find((p) => p.slot === Number(id))
  if (/^[0-9a-f]{32}$/i.test(id)) return players.find((p) => p.guid === id.toLowerCase())
  const name = id.toLowerCase()
  return players.find((p) => p.name.toLowerCase() === name)
}
