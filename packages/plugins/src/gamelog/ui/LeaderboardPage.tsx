/**
 * The leaderboard (any signed-in user, for the servers they may see): the
 * top players by kills, headshots, longest kill or K/D; every visible
 * server's current season together, or one server's current or past
 * season (the season picker). Those holding `leaderboard.manage` on the
 * chosen server may start a new season there. Read again every 15 s.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, allowedAnywhere, useSession } from "@dashboard/app/session.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { LEADERBOARD_MANAGE, LEADERBOARD_SORTS, type Season } from "../contract/Api.js"
import { LeaderboardTable } from "./LeaderboardTable.js"
import { NewSeasonForm } from "./NewSeasonForm.js"
import { ServerSelect, useServers } from "./shared.js"

type Sort = (typeof LEADERBOARD_SORTS)[number]

const SORT_LABELS: Record<Sort, string> = { kills: "Kills", headshots: "Headshots", longestKill: "Longest kill", kd: "K/D ratio" }
const POLL_MS = 15_000
const LIMIT = 50

const seasonLabel = (season: Season): string =>
  `Season ${season.number}${season.endedAt === null ? " (current)" : ""}: ${formatTime(season.startedAt)}${season.endedAt === null ? "" : ` – ${formatTime(season.endedAt)}`} · ${season.reason}`

const LeaderboardPage = () => {
  const { me } = useSession()
  const servers = useServers()
  const [serverId, setServerId] = useState("")
  const [seasonId, setSeasonId] = useState("")
  const [sort, setSort] = useState<Sort>("kills")
  const [starting, setStarting] = useState(false)
  const seasons = useResource(
    () => (serverId === "" ? Promise.resolve({ items: [] as ReadonlyArray<Season> }) : api((c) => c.gameFeed.seasons({ urlParams: { serverId } }))),
    [serverId]
  )
  const board = useResource(
    () =>
      api((c) =>
        c.gameFeed.leaderboard({
          urlParams: { sort, limit: LIMIT, ...(serverId === "" ? {} : { serverId }), ...(seasonId === "" ? {} : { season: seasonId }) }
        })
      ),
    [serverId, seasonId, sort],
    { pollMs: POLL_MS }
  )
  const canStart = serverId !== "" && allowed(me, LEADERBOARD_MANAGE, serverId)

  return (
    <section className="stack">
      <h1>Leaderboard</h1>
      <div className="card grid" role="group" aria-label="Leaderboard view">
        <ServerSelect
          servers={servers.list}
          value={serverId}
          onChange={(id) => (setServerId(id), setSeasonId(""), setStarting(false))}
          anyLabel="All servers (current seasons)"
        />
        <label>
          Season
          <select value={seasonId} onChange={(e) => setSeasonId(e.target.value)} disabled={serverId === ""}>
            <option value="">{serverId === "" ? "Current seasons" : "Current season"}</option>
            {(seasons.data?.items ?? [])
              .filter((s) => s.endedAt !== null)
              .map((s) => (
                <option key={s.id} value={s.id}>
                  {seasonLabel(s)}
                </option>
              ))}
          </select>
        </label>
        <label>
          Rank by
          <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {LEADERBOARD_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {canStart && !starting && (
        <div className="row">
          <button type="button" onClick={() => setStarting(true)}>
            New season…
          </button>
        </div>
      )}
      {canStart && starting && (
        <NewSeasonForm
          serverId={serverId}
          serverName={servers.nameOf(serverId)}
          onCancel={() => setStarting(false)}
          onStarted={async () => {
            setStarting(false)
            setSeasonId("")
            await Promise.all([seasons.reload(), board.reload()])
          }}
        />
      )}
      {serverId === "" && allowedAnywhere(me, LEADERBOARD_MANAGE) && <p className="muted">Choose a server to start a new season on it.</p>}
      <Loaded resource={board}>
        {(data) => (
          <>
            <p className="muted" role="status">
              {data.season === null
                ? serverId === ""
                  ? "Every server's current season, together."
                  : "No season yet: the first kill read starts one."
                : seasonLabel(data.season)}
            </p>
            {data.entries.length === 0 ? (
              <p className="notice">No kills in this season yet.</p>
            ) : (
              <LeaderboardTable entries={data.entries} sort={data.sort as Sort} linkPlayers={allowedAnywhere(me, "players.view")} />
            )}
          </>
        )}
      </Loaded>
    </section>
  )
}

export default LeaderboardPage
