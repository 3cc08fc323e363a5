/**
 * Player history (`players.view`): every player the admin logs named, last
 * seen first; the search finds a name used (any case, part of it) or any id
 * form (DayZ ID, Steam64, Steam2, Steam3), optionally on one server. Each
 * player opens their history (`/player-history/:player`).
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { Spinner, useFeedback } from "@dashboard/ui/feedback.js"
import { HISTORY_PAGE, type PlayerSummary } from "../contract/Api.js"
import { formatHours, ServerSelect, useServers } from "./shared.js"

interface Search {
  readonly q: string
  readonly serverId: string
}

const paramsOf = (s: Search) => ({
  limit: HISTORY_PAGE.defaultLimit,
  ...(s.q.trim() === "" ? {} : { q: s.q.trim() }),
  ...(s.serverId === "" ? {} : { serverId: s.serverId })
})

const PlayerRows = ({ players }: { readonly players: ReadonlyArray<PlayerSummary> }) => (
  <div className="table-wrap">
    <table>
      <caption className="sr-only">Players seen, last seen first</caption>
      <thead>
        <tr>
          <th scope="col">Player</th>
          <th scope="col">Last seen</th>
          <th scope="col" className="hide-narrow">
            First seen
          </th>
          <th scope="col">Playtime</th>
          <th scope="col" className="hide-narrow">
            Servers
          </th>
        </tr>
      </thead>
      <tbody>
        {players.map((p) => (
          <tr key={p.playerId}>
            <td>
              <Link to={`/player-history/${encodeURIComponent(p.playerId)}`}>{p.name}</Link>
              <div className="muted mono break-anywhere">{p.platformId ?? p.playerId}</div>
            </td>
            <td>{formatTime(p.lastSeen)}</td>
            <td className="hide-narrow">{formatTime(p.firstSeen)}</td>
            <td>{formatHours(p.playtimeHours)}</td>
            <td className="hide-narrow">{p.serversPlayed}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)

const PlayerHistoryPage = () => {
  const servers = useServers()
  const feedback = useFeedback()
  const [draft, setDraft] = useState<Search>({ q: "", serverId: "" })
  const [search, setSearch] = useState<Search>(draft)
  const [more, setMore] = useState<ReadonlyArray<PlayerSummary>>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [loadingMore, setLoadingMore] = useState(false)
  const found = useResource(async () => {
    setMore([])
    const page = await api((c) => c.playerHistory.search({ urlParams: paramsOf(search) }))
    setCursor(page.nextCursor)
    return page
  }, [search])

  const loadMore = async () => {
    if (cursor === null) return
    setLoadingMore(true)
    try {
      const next = await api((c) => c.playerHistory.search({ urlParams: { ...paramsOf(search), cursor } }))
      setMore((rows) => [...rows, ...next.items])
      setCursor(next.nextCursor)
    } catch (error) {
      feedback.error(error)
    } finally {
      setLoadingMore(false)
    }
  }

  return (
    <section className="stack">
      <h1>Player history</h1>
      <form
        className="card grid"
        role="search"
        aria-label="Search players"
        onSubmit={(e) => {
          e.preventDefault()
          setSearch(draft)
        }}
      >
        <label>
          Name or id (DayZ ID, Steam64, Steam2, Steam3)
          <input type="search" value={draft.q} onChange={(e) => setDraft({ ...draft, q: e.target.value })} maxLength={100} autoComplete="off" spellCheck={false} />
        </label>
        <ServerSelect servers={servers.list} value={draft.serverId} onChange={(serverId) => setDraft({ ...draft, serverId })} anyLabel="All servers" />
        <div className="row">
          <button type="submit" className="primary">
            Search
          </button>
        </div>
      </form>
      <Loaded resource={found}>
        {(page) => {
          const players = [...page.items, ...more]
          return players.length === 0 ? (
            <p className="notice">{search.q.trim() === "" ? "No player seen yet." : `No player matches “${search.q.trim()}”.`}</p>
          ) : (
            <>
              <PlayerRows players={players} />
              {cursor !== null && (
                <button type="button" disabled={loadingMore} onClick={() => void loadMore()}>
                  {loadingMore && <Spinner label="Loading" />}More players
                </button>
              )}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

export default PlayerHistoryPage
