/**
 * The BattlEye `players` reply:
 *
 * ```
 * Players on server:
 * [#] [IP Address]:[Port] [Ping] [GUID] [Name]
 * --------------------------------------------------
 * 0   76.108.91.78:2304     63   80a5885ebe2420bab5e158a310fcbc7d(OK) Bravo17
 * (1 players in total)
 * ```
 *
 * GUID suffix `(OK)` is verified, `(?)` not yet; a name may end in
 * ` (Lobby)`; ping may be `-1`. Lines that do not look like a player are
 * skipped, so headers and totals in other spellings do no harm.
 */
import * as Schema from "effect/Schema"

export class RconPlayer extends Schema.Class<RconPlayer>("RconPlayer")({
  /** The player number BattlEye uses in `kick <#>` and `say <#>`. */
  slot: Schema.Int,
  ip: Schema.String,
  port: Schema.Int,
  /** Milliseconds; -1 while unknown. */
  ping: Schema.Int,
  /** 32 lowercase hex digits, or empty while BattlEye has none yet. */
  guid: Schema.String,
  verified: Schema.Boolean,
  name: Schema.String,
  inLobby: Schema.Boolean
}) {}

const PLAYER_LINE = /^(\d+)\s+(\S+):(\d+)\s+(-?\d+)\s+([0-9a-fA-F]{32}|-)?\((OK|\?)\)\s+(.*)$/
const LOBBY = " (Lobby)"

/**
 * A player the server lists, with the ids Garrison could prove from the
 * server's logs (see `PlayerDirectory`): `steam64` when a Steam64 seen in
 * the RPT hashes to the player's BattlEye GUID, `dayzId` (the 44-character
 * id of the admin log) derived from it, or read from the ADM log by name
 * when the Steam64 is not known. `null` while unknown.
 */
export class OnlinePlayer extends RconPlayer.extend<OnlinePlayer>("OnlinePlayer")({
  steam64: Schema.NullOr(Schema.String),
  dayzId: Schema.NullOr(Schema.String)
}) {}

/** One player line, or undefined when the line is not one. */
export const parsePlayerLine = (line: string): RconPlayer | undefined => {
  const match = PLAYER_LINE.exec(line.trim())
  if (match === null) return undefined
  const rawName = match[7]!.trimEnd()
  const inLobby = rawName.endsWith(LOBBY)
  const guid = match[5] === undefined || match[5] === "-" ? "" : match[5].toLowerCase()
  return new RconPlayer({
    slot: Number(match[1]),
    ip: match[2]!,
    port: Number(match[3]),
    ping: Number(match[4]),
    guid,
    verified: match[6] === "OK",
    name: inLobby ? rawName.slice(0, -LOBBY.length) : rawName,
    inLobby
  })
}

/** Every player in a `players` reply, in the order listed. */
export const parsePlayers = (reply: string): ReadonlyArray<RconPlayer> => {
  const players: Array<RconPlayer> = []
  for (const line of reply.split(/\r?\n/)) {
    const player = parsePlayerLine(line)
    if (player !== undefined) players.push(player)
  }
  return players
}

/** The `(N players in total)` figure, when present. */
export const parsePlayerTotal = (reply: string): number | undefined => {
  const match = /\((\d+) players in total\)/.exec(reply)
  return match === null ? undefined : Number(match[1])
}
