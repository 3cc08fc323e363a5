/** The leaderboard's rows: rank, player, kills, deaths, K/D, headshots and the longest kill; the ranked column marked sorted. */
import { Link } from "@dashboard/app/router.js"
import type { LEADERBOARD_SORTS, LeaderboardEntry } from "../contract/Api.js"
import { formatDistance, formatRatio } from "./shared.js"

type Sort = (typeof LEADERBOARD_SORTS)[number]

const Head = ({ sort, by, children }: { readonly sort: Sort; readonly by?: Sort; readonly children: string }) => (
  <th scope="col" aria-sort={by !== undefined && by === sort ? "descending" : undefined}>
    {children}
  </th>
)

export const LeaderboardTable = ({
  entries,
  sort,
  linkPlayers
}: {
  readonly entries: ReadonlyArray<LeaderboardEntry>
  readonly sort: Sort
  readonly linkPlayers: boolean
}) => (
  <div className="table-wrap">
    <table>
      <caption className="sr-only">Leaderboard</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Player</th>
          <Head sort={sort} by="kills">
            Kills
          </Head>
          <th scope="col" className="hide-narrow">
            Deaths
          </th>
          <Head sort={sort} by="kd">
            K/D
          </Head>
          <Head sort={sort} by="headshots">
            Headshots
          </Head>
          <Head sort={sort} by="longestKill">
            Longest kill
          </Head>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.playerId}>
            <td>{entry.rank}</td>
            <td>
              {linkPlayers ? <Link to={`/player-history/${encodeURIComponent(entry.playerId)}`}>{entry.name}</Link> : entry.name}
              {entry.platformId !== null && <div className="muted mono hide-narrow">{entry.platformId}</div>}
            </td>
            <td>{entry.kills}</td>
            <td className="hide-narrow">{entry.deaths}</td>
            <td>{formatRatio(entry.kd)}</td>
            <td>
              {entry.headshots}
              <div className="muted">{Math.round(entry.headshotPct)} %</div>
            </td>
            <td>
              {formatDistance(entry.longestKill?.distance)}
              {entry.longestKill?.weapon != null && <div className="muted">{entry.longestKill.weapon}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)
