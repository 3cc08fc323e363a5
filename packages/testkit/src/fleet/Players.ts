/** What a game server says about its players: BattlEye `players` replies, and players as an actor identifies them. */
import { makePlayerDirectory, type OnlinePlayer, parsePlayerLogLine, parsePlayers } from "@garrison/runtime"

/** What `players` answers on a server nobody is on. */
export const NO_PLAYERS = "Players on server:\n(0 players in total)"

/** A `players` reply with these `[slot, guid, name]` rows. */
export const playersReply = (rows: ReadonlyArray<readonly [number, string, string]>): string =>
  [
    "Players on server:",
    "[#] [IP Address]:[Port] [Ping] [GUID] [Name]",
    "--------------------------------------------------",
    ...rows.map(([slot, guid, name]) => `${slot}   10.0.0.${slot + 1}:2304     40   ${guid}(OK) ${name}`),
    `(${rows.length} players in total)`
  ].join("\n")

/** Players as the real actor answers them: from the `players` reply and what the logs say (`PlayerLog` lines). */
export const identifiedPlayers = (reply: string, logLines: ReadonlyArray<string> = []): ReadonlyArray<OnlinePlayer> => {
  const directory = makePlayerDirectory()
  for (const line of logLines) {
    const seen = parsePlayerLogLine(line)
    if (seen !== undefined) directory.learn(seen)
  }
  return parsePlayers(reply).map((player) => directory.identify(player))
}
