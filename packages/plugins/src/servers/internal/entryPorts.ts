/**
 * Checks between entries over the ports each takes (`portsOf` in the
 * runtime: game port and the three after it, and the RCon port).
 */
import { type EntryPort, GAME_PORT_SPAN, portsOf, ServerEntry } from "@garrison/runtime"

export interface PortClash {
  readonly entry: ServerEntry
  readonly port: EntryPort
  readonly other: ServerEntry
}

/**
 * The first clash involving one of `incoming`, walking `all` (which
 * includes `incoming`) in order with one index of the ports seen so far: a
 * restore of thousands of entries is not quadratic. The later of two
 * entries is the one refused, as with install folders; a clash between two
 * entries outside `incoming` (stored before this rule) is not this write's.
 */
export const firstPortClash = (incoming: ReadonlyArray<ServerEntry>, all: Iterable<ServerEntry>): PortClash | undefined => {
  const incomingIds = new Set(incoming.map((entry) => entry.id))
  const owners = new Map<number, ServerEntry>()
  for (const entry of all) {
    for (const port of portsOf(entry)) {
      const earlier = owners.get(port.port)
      if (earlier === undefined || earlier.id === entry.id) owners.set(port.port, entry)
      else if (incomingIds.has(entry.id)) return { entry, port, other: earlier }
      else if (incomingIds.has(earlier.id)) {
        return { entry: earlier, port: portsOf(earlier).find((p) => p.port === port.port) ?? port, other: entry }
      }
    }
  }
  return undefined
}

/** Servers on one host usually sit 100 ports apart (2302, 2402, ...): room for the four game ports and RCon. */
export const PORT_SLOT_STEP = 100
const HIGHEST_PORT = 65535

/**
 * `entry` on the first game port from its own upwards, in steps of 100, whose
 * ports no entry of `others` takes. Used when a create leaves the game port
 * out: a second server gets 2402, as people lay out several servers on one
 * host. When a fixed RCon port (from the BattlEye config) is taken wherever
 * the game port goes, the first slot with free game ports, so the clash
 * that is left to report is the RCon port's.
 */
export const onFreeSlot = (entry: ServerEntry, others: Iterable<ServerEntry>): ServerEntry => {
  const taken = new Set<number>()
  for (const other of others) if (other.id !== entry.id) for (const { port } of portsOf(other)) taken.add(port)
  let gamePortsFree: ServerEntry | undefined
  for (let gamePort = entry.gamePort; gamePort + GAME_PORT_SPAN - 1 <= HIGHEST_PORT; gamePort += PORT_SLOT_STEP) {
    const candidate = gamePort === entry.gamePort ? entry : new ServerEntry({ ...entry, gamePort })
    const free = portsOf(candidate).map(({ field, port }) => ({ field, free: port <= HIGHEST_PORT && !taken.has(port) }))
    if (free.every((port) => port.free)) return candidate
    if (gamePortsFree === undefined && free.every((port) => port.free || port.field === "rcon.port")) gamePortsFree = candidate
  }
  return gamePortsFree ?? entry
}
