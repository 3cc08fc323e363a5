/**
 * One player's history (`players.view`; the player by any id form): ids,
 * first and last seen, playtime, kills and deaths, the names used, each
 * server played with its sessions and playtime, and their last kills and
 * deaths. A link puts them on the watchlist.
 */
import { Fragment } from "react"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import type { PlayerDetail } from "../contract/Api.js"
import { KillTable } from "./KillTable.js"
import { formatHours, formatRatio, useServers } from "./shared.js"

const RECENT_KILLS = 20

const Summary = ({ player }: { readonly player: PlayerDetail }) => (
  <dl className="kv card">
    {(
      [
        ["DayZ ID", <span className="mono break-anywhere">{player.playerId}</span>],
        ["Steam64", player.platformId === null ? "not linked yet" : <span className="mono">{player.platformId}</span>],
        ["First seen", formatTime(player.firstSeen)],
        ["Last seen", formatTime(player.lastSeen)],
        ["Playtime", formatHours(player.playtimeHours)],
        ["Kills", String(player.kills)],
        ["Deaths", String(player.deaths)],
        ["K/D", formatRatio(player.kills / Math.max(player.deaths, 1))]
      ] as const
    ).map(([term, value]) => (
      <Fragment key={term}>
        <dt>{term}</dt>
        <dd>{value}</dd>
      </Fragment>
    ))}
  </dl>
)

const PlayerDetailPage = ({ params }: { readonly params: Readonly<Record<string, string>> }) => {
  const id = params["player"] ?? ""
  const servers = useServers()
  const player = useResource(() => api((c) => c.playerHistory.player({ path: { player: id } })), [id])
  const kills = useResource(() => api((c) => c.gameFeed.killfeed({ urlParams: { player: id, limit: RECENT_KILLS } })), [id])

  return (
    <section className="stack">
      <p>
        <Link to="/player-history">← Player history</Link>
      </p>
      <h1>{player.data?.name ?? "Player"}</h1>
      <Loaded resource={player}>
        {(p) => (
          <>
            <Summary player={p} />
            <p>
              <Link to={`/watchlist?player=${encodeURIComponent(p.platformId ?? p.playerId)}`}>Put on the watchlist…</Link>
            </p>
            <h2>Names used</h2>
            <ul aria-label="Names used">
              {p.names.map((n) => (
                <li key={n.name}>
                  <strong>{n.name}</strong> <span className="muted">{formatTime(n.firstSeen)} – {formatTime(n.lastSeen)}</span>
                </li>
              ))}
            </ul>
            <h2>Servers</h2>
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Servers played</caption>
                <thead>
                  <tr>
                    <th scope="col">Server</th>
                    <th scope="col">Playtime</th>
                    <th scope="col">Sessions</th>
                    <th scope="col" className="hide-narrow">
                      Seen
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {p.servers.map((s) => (
                    <tr key={s.serverId}>
                      <td>
                        {servers.nameOf(s.serverId)} {s.online && <span className="badge status-running">online</span>}
                      </td>
                      <td>{formatHours(s.playtimeHours)}</td>
                      <td>{s.sessions}</td>
                      <td className="hide-narrow">
                        {formatTime(s.firstSeen)} – {formatTime(s.lastSeen)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Loaded>
      {player.data !== undefined && (
        <>
          <h2>Last kills and deaths</h2>
          <Loaded resource={kills}>
            {(page) =>
              page.items.length === 0 ? (
                <p className="notice">No kills or deaths recorded.</p>
              ) : (
                <KillTable kills={page.items} caption="Last kills and deaths of the player" serverName={servers.nameOf} linkPlayers />
              )
            }
          </Loaded>
        </>
      )}
    </section>
  )
}

export default PlayerDetailPage
