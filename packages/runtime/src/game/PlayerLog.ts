/**
 * Who a listed player is, from the lines the server's logs write when
 * players come and go:
 *
 * - RPT (engine log): `Player "Name"(steamID=<Steam64>) is connected`, also
 *   `... disconnected` and `... kicked from server: <reason>`;
 * - ADM (admin log): `Player "Name" is connected (id=<DayZ ID>)`,
 *   `Player "Name"(id=<DayZ ID>) has been disconnected`.
 *
 * BattlEye's `players` list shows a GUID, an MD5 of the Steam64 that cannot
 * be turned back. Every Steam64 the logs name is hashed the same way, so a
 * listed GUID that matches one proves whose it is: names play no part, and a
 * player who names themselves like someone else gains nothing. The DayZ ID
 * follows from the Steam64; without one it is taken from the ADM log by the
 * player's name, only while exactly one id goes with that name.
 */
import { OnlinePlayer, type RconPlayer } from "./Players.js"
import { isDayzId, isSteam64, type Steam64, toBattlEyeGuid, toDayzId } from "./PlayerIds.js"

/** A player as one log line names them. */
export interface LoggedPlayer {
  readonly name: string
  readonly steam64?: Steam64
  readonly dayzId?: string
}

// The name is greedy and the ids sit in the last parentheses before the line's end, so a name
// that imitates a log line (`X"(steamID=...) is connected`) cannot push the real ids aside.
const IDS_AFTER_NAME = /Player "(.*)"\s*\(([^()]*)\)\s*(?:is connected|has been disconnected|disconnected|kicked from server:.*)\s*$/
const IDS_AFTER_CONNECTED = /Player "(.*)"\s+is connected\s*\(([^()]*)\)\s*$/
const STEAM64_FIELD = /(?:^|[\s,])steamID=(\d{17})(?=$|[\s,])/i
const DAYZ_ID_FIELD = /(?:^|[\s,])id=([A-Za-z0-9_-]{43}=)(?=$|[\s,])/

/** The player and the ids one RPT or ADM line names, or undefined for any other line. */
export const parsePlayerLogLine = (line: string): LoggedPlayer | undefined => {
  const match = IDS_AFTER_CONNECTED.exec(line) ?? IDS_AFTER_NAME.exec(line)
  if (match === null) return undefined
  const fields = match[2]!
  const steam64 = STEAM64_FIELD.exec(fields)?.[1]
  const dayzId = DAYZ_ID_FIELD.exec(fields)?.[1]
  const seen: LoggedPlayer = {
    name: match[1]!,
    ...(steam64 !== undefined && isSteam64(steam64) ? { steam64 } : {}),
    ...(dayzId !== undefined && isDayzId(dayzId) ? { dayzId } : {})
  }
  return seen.steam64 === undefined && seen.dayzId === undefined ? undefined : seen
}

export interface PlayerDirectory {
  /** Remembers what one log line says. */
  readonly learn: (seen: LoggedPlayer) => void
  /** The listed player with the ids the logs prove (null where they do not). */
  readonly identify: (player: RconPlayer) => OnlinePlayer
  /** Players remembered (GUIDs), for tests and the bound. */
  readonly size: () => number
}

/** Stands for "more than one DayZ ID was seen with this name". */
const AMBIGUOUS = ""

/** A bounded map: setting a key makes it the newest; past `capacity` the oldest go. */
const remember = <V>(map: Map<string, V>, key: string, value: V, capacity: number) => {
  map.delete(key)
  map.set(key, value)
  while (map.size > capacity) map.delete(map.keys().next().value!)
}

/**
 * What the logs taught about players, newest kept: at most `capacity`
 * Steam64s and as many names (a busy server sees a few thousand players).
 */
export const makePlayerDirectory = (capacity = 10_000): PlayerDirectory => {
  const byGuid = new Map<string, { readonly steam64: Steam64; readonly dayzId: string }>()
  const idByName = new Map<string, string>()

  const learnName = (name: string, dayzId: string) => {
    const known = idByName.get(name)
    remember(idByName, name, known === undefined || known === dayzId ? dayzId : AMBIGUOUS, capacity)
  }

  return {
    learn: (seen) => {
      if (seen.steam64 !== undefined) {
        const dayzId = toDayzId(seen.steam64)
        remember(byGuid, toBattlEyeGuid(seen.steam64), { steam64: seen.steam64, dayzId }, capacity)
        learnName(seen.name, dayzId)
      } else if (seen.dayzId !== undefined) {
        learnName(seen.name, seen.dayzId)
      }
    },
    identify: (player) => {
      const proven = player.guid === "" ? undefined : byGuid.get(player.guid)
      const byName = idByName.get(player.name)
      return new OnlinePlayer({
        ...player,
        steam64: proven?.steam64 ?? null,
        dayzId: proven?.dayzId ?? (byName === undefined || byName === AMBIGUOUS ? null : byName)
      })
    },
    size: () => byGuid.size
  }
}
