/**
 * The body of `GET /api/servers`, built for polling: panels ask for it every
 * few seconds, and with 1,000 entries the per-request work is what counts.
 *
 * - Most entries have no actor (stopped and untouched since start-up), so
 *   their row depends on the entry alone: its JSON is kept per entry object
 *   (entries are immutable and replaced on update, so a row cannot go stale).
 * - The first page (what pollers ask for: every server, the default limit
 *   covers any real panel) is kept as bytes while nothing it shows has
 *   changed: the same entries array (ServerEntries hands out one array
 *   until a change), the same actor states (immutable, replaced on every
 *   change), the same second (uptime is shown in whole seconds) and the same
 *   limit. Pollers then cost a lookup. Later pages are built when asked.
 *
 * Pages follow the entries' order (creation order), then the stored rows
 * that cannot be read (status `invalid`). A cursor holds the id of the last
 * entry of its page and where it stood; the next page starts after that
 * entry, or, if it was deleted meanwhile, where it stood.
 */
import * as Schema from "effect/Schema"
import { cursorCodec, initialState, type ServerEntry, type ServerState } from "@garrison/runtime"
import { ServerId } from "../contract/fields.js"
import type { UnreadableEntry } from "../ServerEntries.js"
import { summaryView, unreadableView } from "./view.js"

/** What the list shows: entries, and stored rows that cannot be read. */
export type ListedEntry = ServerEntry | UnreadableEntry

const encoder = new TextEncoder()

export const serverCursor = cursorCodec(
  "servers",
  Schema.Struct({ id: ServerId, index: Schema.Int.pipe(Schema.nonNegative()) })
)

export type ServerPosition = Parameters<typeof serverCursor.encode>[0]

export interface ServerListPage {
  /** The `nextCursor` of the previous page, decoded; undefined for the first page. */
  readonly after: ServerPosition | undefined
  readonly limit: number
}

export interface ServerListBody {
  /**
   * `{"items":[...],"nextCursor":...,"total":N}` for one page of `entries`, as
   * UTF-8; `states` are those of the servers with an actor.
   */
  readonly render: (
    entries: ReadonlyArray<ListedEntry>,
    states: ReadonlyArray<ServerState>,
    now: number,
    page: ServerListPage
  ) => Uint8Array
}

export const makeServerListBody = (): ServerListBody => {
  const idleRows = new WeakMap<ListedEntry, string>()
  // Where each id stands, per entries array: built only when a later page is asked for.
  const positions = new WeakMap<ReadonlyArray<ListedEntry>, ReadonlyMap<string, number>>()
  let first:
    | {
        readonly entries: ReadonlyArray<ListedEntry>
        readonly states: ReadonlyArray<ServerState>
        readonly second: number
        readonly limit: number
        readonly body: Uint8Array
      }
    | undefined

  const idleRow = (entry: ListedEntry): string => {
    let row = idleRows.get(entry)
    if (row === undefined) {
      row = JSON.stringify("_tag" in entry ? unreadableView(entry) : summaryView(entry, initialState(entry.id), 0))
      idleRows.set(entry, row)
    }
    return row
  }

  const startOf = (entries: ReadonlyArray<ListedEntry>, after: ServerPosition | undefined): number => {
    if (after === undefined) return 0
    let byId = positions.get(entries)
    if (byId === undefined) {
      byId = new Map(entries.map((entry, index) => [entry.id, index] as const))
      positions.set(entries, byId)
    }
    const index = byId.get(after.id)
    return index !== undefined ? index + 1 : Math.min(after.index, entries.length)
  }

  const build = (entries: ReadonlyArray<ListedEntry>, states: ReadonlyArray<ServerState>, now: number, start: number, limit: number) => {
    const byServer = new Map(states.map((state) => [state.serverId, state] as const))
    const end = Math.min(start + limit, entries.length)
    const rows = new Array<string>(Math.max(end - start, 0))
    for (let i = start; i < end; i++) {
      const entry = entries[i]!
      const state = byServer.get(entry.id)
      rows[i - start] = state === undefined || "_tag" in entry ? idleRow(entry) : JSON.stringify(summaryView(entry, state, now))
    }
    const last = entries[end - 1]
    const next = end < entries.length && last !== undefined ? JSON.stringify(serverCursor.encode({ id: last.id, index: end - 1 })) : "null"
    return encoder.encode(`{"items":[${rows.join(",")}],"nextCursor":${next},"total":${entries.length}}`)
  }

  const unchanged = (entries: ReadonlyArray<ListedEntry>, states: ReadonlyArray<ServerState>, second: number, limit: number) =>
    first !== undefined &&
    first.entries === entries &&
    first.second === second &&
    first.limit === limit &&
    first.states.length === states.length &&
    first.states.every((state, i) => state === states[i])

  return {
    render: (entries, states, now, page) => {
      if (page.after !== undefined) return build(entries, states, now, startOf(entries, page.after), page.limit)
      const second = Math.floor(now / 1000)
      if (unchanged(entries, states, second, page.limit)) return first!.body
      const body = build(entries, states, now, 0, page.limit)
      first = { entries, states, second, limit: page.limit, body }
      return body
    }
  }
}
