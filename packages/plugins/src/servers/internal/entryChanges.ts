/**
 * Which fields of an entry a change touched, by name, for its audit row:
 * `rcon.password` and `agent.apiKey` say that a secret changed, never what
 * it was or became.
 */
import type { ServerEntry } from "@garrison/runtime"

const SIMPLE = ["name", "installDir", "executable", "configFile", "gamePort", "profilesDir", "battleyeDir", "watchdog"] as const
const LISTS = ["mods", "serverMods", "extraArgs"] as const

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((item, i) => item === b[i])

/** The names of the fields that differ between `before` and `after`, in the entry's order. */
export const changedFields = (before: ServerEntry, after: ServerEntry): ReadonlyArray<string> => {
  const changed: Array<string> = []
  for (const field of SIMPLE) if (before[field] !== after[field]) changed.push(field)
  for (const field of LISTS) if (!sameList(before[field], after[field])) changed.push(field)
  if ((before.rcon === undefined) !== (after.rcon === undefined)) changed.push("rcon")
  else if (before.rcon !== undefined && after.rcon !== undefined) {
    for (const field of ["protocol", "host", "port", "password"] as const) if (before.rcon[field] !== after.rcon[field]) changed.push(`rcon.${field}`)
  }
  if ((before.agent === undefined) !== (after.agent === undefined)) changed.push("agent")
  else if (before.agent !== undefined && after.agent !== undefined) {
    if (before.agent.url !== after.agent.url) changed.push("agent.url")
    if (before.agent.apiKey !== after.agent.apiKey) changed.push("agent.apiKey")
  }
  if (before.stop.shutdownWaitMs !== after.stop.shutdownWaitMs) changed.push("stop.shutdownWaitMs")
  if (before.stop.terminateWaitMs !== after.stop.terminateWaitMs) changed.push("stop.terminateWaitMs")
  return changed
}
