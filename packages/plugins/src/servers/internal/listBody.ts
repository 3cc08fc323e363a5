/**
 * The body of `GET /api/servers`, built for polling: panels ask for it every
 * few seconds, and with 1,000 entries the per-request work is what counts.
 *
 * Most entries have no actor (stopped, never touched since start-up), so
 * their row depends on the entry alone: its JSON is kept per entry object
 * (entries are immutable and replaced on update, so a stale row cannot be
 * served). Rows of servers with an actor are built fresh every time.
 */
import { initialState, type ServerEntry, type ServerState } from "@garrison/runtime"
import { summaryView } from "./view.js"

const idleRows = new WeakMap<ServerEntry, string>()

const idleRow = (entry: ServerEntry): string => {
  let row = idleRows.get(entry)
  if (row === undefined) {
    row = JSON.stringify(summaryView(entry, initialState(entry.id), 0))
    idleRows.set(entry, row)
  }
  return row
}

/** `{"servers":[...]}` in `entries` order; `states` holds the servers that have an actor. */
export const serverListJson = (
  entries: ReadonlyArray<ServerEntry>,
  states: ReadonlyMap<string, ServerState>,
  now: number
): string => {
  const rows = new Array<string>(entries.length)
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    const state = states.get(entry.id)
    rows[i] = state === undefined ? idleRow(entry) : JSON.stringify(summaryView(entry, state, now))
  }
  return `{"servers":[${rows.join(",")}]}`
}
