/**
 * The ports a server entry takes on its host. DayZ binds its game port and
 * the three after it, and BattlEye's RCon listens on its own port: the
 * entry's `rcon.port`, else the game port + 4, BattlEye's usual layout. Two
 * entries whose ports overlap cannot both run: the second would fail to
 * bind, or answer the first one's RCON.
 */
import type { ServerEntry } from "./ServerEntry.js"

/** Ports the game binds from its game port on. */
export const GAME_PORT_SPAN = 4
const DEFAULT_RCON_OFFSET = 4

export interface EntryPort {
  readonly port: number
  /** The entry field that gives it, as the API spells it. */
  readonly field: "gamePort" | "rcon.port"
}

/** A port to probe on the host before a start: the game's is UDP, BattlEye RCon UDP, Source RCON TCP. */
export interface HostPort {
  readonly port: number
  readonly protocol: "udp" | "tcp"
  readonly field: EntryPort["field"]
}

export const rconPortOf = (entry: ServerEntry): number => entry.rcon?.port ?? entry.gamePort + DEFAULT_RCON_OFFSET

export const portsOf = (entry: ServerEntry): ReadonlyArray<EntryPort> => [
  ...Array.from({ length: GAME_PORT_SPAN }, (_, i) => ({ port: entry.gamePort + i, field: "gamePort" as const })),
  { port: rconPortOf(entry), field: "rcon.port" as const }
]

/** What a start needs free: the game port, and the RCON port when the entry has RCON. */
export const hostPortsOf = (entry: ServerEntry): ReadonlyArray<HostPort> => [
  { port: entry.gamePort, protocol: "udp", field: "gamePort" },
  ...(entry.rcon === undefined
    ? []
    : [{ port: entry.rcon.port, protocol: entry.rcon.protocol === "source" ? "tcp" as const : "udp" as const, field: "rcon.port" as const }])
]

/** How a person reads an entry's ports: "2302-2305 and RCon 2306". */
export const describePorts = (entry: ServerEntry): string =>
  `${entry.gamePort}-${entry.gamePort + GAME_PORT_SPAN - 1} and RCon ${rconPortOf(entry)}`
