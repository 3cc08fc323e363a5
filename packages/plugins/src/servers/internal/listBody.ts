/**
 * The body of `GET /api/servers`, built for polling: panels ask for it every
 * few seconds, and with 1,000 entries the per-request work is what counts.
 *
 * - Most entries have no actor (stopped and untouched since start-up), so
 *   their row depends on the entry alone: its JSON is kept per entry object
 *   (entries are immutable and replaced on update, so a row cannot go stale).
 * - The whole body is kept as bytes while nothing it shows has changed: the
 *   same entries array (ServerEntries hands out one array until a change),
 *   the same actor states (immutable, replaced on every change) and the same
 *   second (uptime is shown in whole seconds). Pollers then cost a lookup.
 */
import { initialState, type ServerEntry, type ServerState } from "@garrison/runtime"
import { summaryView } from "./view.js"

const encoder = new TextEncoder()

export interface ServerListBody {
  /** `{"servers":[...]}` in `entries` order, as UTF-8; `states` are those of the servers with an actor. */
  readonly render: (entries: ReadonlyArray<ServerEntry>, states: ReadonlyArray<ServerState>, now: number) => Uint8Array
}

export const makeServerListBody = (): ServerListBody => {
  const idleRows = new WeakMap<ServerEntry, string>()
  let last:
    | { readonly entries: ReadonlyArray<ServerEntry>; readonly states: ReadonlyArray<ServerState>; readonly second: number; readonly body: Uint8Array }
    | undefined

  const idleRow = (entry: ServerEntry): string => {
    let row = idleRows.get(entry)
    if (row === undefined) {
      row = JSON.stringify(summaryView(entry, initialState(entry.id), 0))
      idleRows.set(entry, row)
    }
    return row
  }

  const build = (entries: ReadonlyArray<ServerEntry>, states: ReadonlyArray<ServerState>, now: number): Uint8Array => {
    const byServer = new Map(states.map((state) => [state.serverId, state] as const))
    const rows = new Array<string>(entries.length)
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!
      const state = byServer.get(entry.id)
      rows[i] = state === undefined ? idleRow(entry) : JSON.stringify(summaryView(entry, state, now))
    }
    return encoder.encode(`{"servers":[${rows.join(",")}]}`)
  }

  const unchanged = (entries: ReadonlyArray<ServerEntry>, states: ReadonlyArray<ServerState>, second: number) =>
    last !== undefined &&
    last.entries === entries &&
    last.second === second &&
    last.states.length === states.length &&
    last.states.every((state, i) => state === states[i])

  return {
    render: (entries, states, now) => {
      const second = Math.floor(now / 1000)
      if (unchanged(entries, states, second)) return last!.body
      const body = build(entries, states, now)
      last = { entries, states, second, body }
      return body
    }
  }
}
