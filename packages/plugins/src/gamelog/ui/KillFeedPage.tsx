/**
 * The kill feed (any signed-in user; a caller scoped to some servers sees
 * theirs): deaths read from the admin logs, newest first, filtered by
 * server, player, killer kind and time, with older pages on demand. Live:
 * the page follows `GET /api/killfeed/stream` and puts each new kill that
 * matches the filters at the top, marked new, without a reload.
 */
import { useCallback, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowedAnywhere, useSession } from "@dashboard/app/session.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { Spinner, useFeedback } from "@dashboard/ui/feedback.js"
import { KILL_PAGE, type Kill } from "../contract/Api.js"
import { KillFilters, killParamsOf, type KillFilterValues, NO_KILL_FILTERS } from "./KillFilters.js"
import { KillTable } from "./KillTable.js"
import { LiveStatus, useServers } from "./shared.js"
import { useEventStream, withQuery } from "./useEventStream.js"

/** Kills kept from the stream on top of the first page. */
const MAX_LIVE = 500

/** Whether a kill from the stream belongs in the feed as filtered (a player matches by an id as typed). */
const matches = (kill: Kill, f: KillFilterValues): boolean => {
  const player = f.player.trim()
  return (
    (f.kind === "" || kill.killerKind === f.kind) &&
    (player === "" || [kill.playerId, kill.platformId, kill.victimPlayerId, kill.victimPlatformId].includes(player)) &&
    (f.since === "" || Date.parse(kill.timestamp) >= new Date(f.since).getTime()) &&
    (f.until === "" || Date.parse(kill.timestamp) < new Date(f.until).getTime())
  )
}

const KillFeedPage = () => {
  const { me } = useSession()
  const servers = useServers()
  const feedback = useFeedback()
  const [filters, setFilters] = useState<KillFilterValues>(NO_KILL_FILTERS)
  const [live, setLive] = useState<ReadonlyArray<Kill>>([])
  const [older, setOlder] = useState<ReadonlyArray<Kill>>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [loadingMore, setLoadingMore] = useState(false)
  const first = useResource(async () => {
    // Kills the stream brings while the page is read stay (the page's copies are dropped as duplicates).
    setLive([])
    setOlder([])
    const page = await api((c) => c.gameFeed.killfeed({ urlParams: { ...killParamsOf(filters), limit: KILL_PAGE.defaultLimit } }))
    setCursor(page.nextCursor)
    return page
  }, [filters])

  const onKill = useCallback(
    (kill: Kill) => {
      if (!matches(kill, filters)) return
      setLive((all) => (all.some((k) => k.id === kill.id) ? all : [kill, ...all].slice(0, MAX_LIVE)))
    },
    [filters]
  )
  const stream = useEventStream<Kill>(withQuery("/api/killfeed/stream", { serverId: filters.serverId }), "kill", onKill, () => void first.reload())

  const loadOlder = async () => {
    if (cursor === null) return
    setLoadingMore(true)
    try {
      const next = await api((c) => c.gameFeed.killfeed({ urlParams: { ...killParamsOf(filters), limit: KILL_PAGE.defaultLimit, cursor } }))
      setOlder((rows) => [...rows, ...next.items])
      setCursor(next.nextCursor)
    } catch (error) {
      feedback.error(error)
    } finally {
      setLoadingMore(false)
    }
  }

  return (
    <section className="stack">
      <h1>Kill feed</h1>
      <KillFilters servers={servers.list} applied={filters} onApply={setFilters} />
      <LiveStatus state={stream}>New deaths appear at the top as the servers' admin logs are read.</LiveStatus>
      <Loaded resource={first}>
        {(page) => {
          const seen = new Set(live.map((k) => k.id))
          const kills = [...live, ...page.items.filter((k) => !seen.has(k.id)), ...older]
          return kills.length === 0 ? (
            <p className="notice">No deaths match yet.</p>
          ) : (
            <>
              <KillTable
                kills={kills}
                caption="Kills, newest first"
                serverName={filters.serverId === "" ? servers.nameOf : undefined}
                linkPlayers={allowedAnywhere(me, "players.view")}
                fresh={seen}
              />
              {cursor !== null && (
                <button type="button" disabled={loadingMore} onClick={() => void loadOlder()}>
                  {loadingMore && <Spinner label="Loading" />}Older kills
                </button>
              )}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

export default KillFeedPage
