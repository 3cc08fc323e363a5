/**
 * The watchlist (any signed-in user): watched players with their note, who
 * added them and when, and their last join since (on a server the caller
 * may see); adding one, and removing one after a confirmation. Read again
 * every 30 s, so a join shows without a reload.
 */
import { useMemo } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton } from "@dashboard/ui/feedback.js"
import type { WatchlistEntry } from "../contract/Api.js"
import { AddEntryForm } from "./AddEntryForm.js"

const POLL_MS = 30_000

const nameOf = (entry: WatchlistEntry) => entry.name ?? entry.identifier

const EntryRow = ({ entry, serverName, onRemoved }: { readonly entry: WatchlistEntry; readonly serverName: (id: string) => string; readonly onRemoved: () => Promise<void> }) => (
  <tr>
    <td>
      {entry.name ?? <span className="muted">not seen yet</span>}
      <div className="muted mono break-anywhere">{entry.identifier}</div>
      {entry.platformId !== null && entry.platformId !== entry.identifier && <div className="muted mono">{entry.platformId}</div>}
    </td>
    <td className="break-anywhere">{entry.note === "" ? <span className="muted">—</span> : entry.note}</td>
    <td className="hide-narrow">
      {entry.createdBy}
      <div className="muted">{formatTime(entry.createdAt)}</div>
    </td>
    <td>
      {entry.lastJoinedAt === null ? (
        <span className="muted">not since added</span>
      ) : (
        <>
          {formatTime(entry.lastJoinedAt)}
          {entry.lastJoinedServerId !== null && <div className="muted">{serverName(entry.lastJoinedServerId)}</div>}
        </>
      )}
    </td>
    <td>
      <ActionButton
        className="danger"
        ariaLabel={`Remove ${nameOf(entry)} from the watchlist`}
        confirm={{ title: `Stop watching ${nameOf(entry)}?`, body: "Their joins will no longer be notified.", confirmLabel: "Remove", danger: true }}
        done="Removed from the watchlist"
        run={async () => {
          await api((c) => c.watchlist.remove({ path: { id: entry.id } }))
          await onRemoved()
        }}
      >
        Remove
      </ActionButton>
    </td>
  </tr>
)

const WatchlistPage = () => {
  const entries = useResource(() => api((c) => c.watchlist.list()), [], { pollMs: POLL_MS })
  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [])
  const serverName = useMemo(() => {
    const names = new Map((servers.data?.items ?? []).map((s) => [s.id, s.name]))
    return (id: string) => names.get(id) ?? id
  }, [servers.data])

  return (
    <section className="stack">
      <h1>Watchlist</h1>
      <AddEntryForm onAdded={() => entries.reload()} />
      <h2>Watched players</h2>
      <Loaded resource={entries}>
        {(list) =>
          list.items.length === 0 ? (
            <p className="notice">Nobody is watched.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Watched players</caption>
                <thead>
                  <tr>
                    <th scope="col">Player</th>
                    <th scope="col">Note</th>
                    <th scope="col" className="hide-narrow">
                      Added
                    </th>
                    <th scope="col">Last joined</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((entry) => (
                    <EntryRow key={entry.id} entry={entry} serverName={serverName} onRemoved={() => entries.reload()} />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </section>
  )
}

export default WatchlistPage
