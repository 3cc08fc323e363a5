/**
 * Kills as a table: when, killer (a player's name links to their history
 * for those who may read it), victim, weapon, distance, headshot and server.
 */
import { Link } from "@dashboard/app/router.js"
import { formatTime } from "@dashboard/ui/data.js"
import type { Kill } from "../contract/Api.js"
import { formatDistance, KIND_LABELS, killerOf } from "./shared.js"

const PlayerName = ({ name, playerId, linked }: { readonly name: string; readonly playerId: string | null; readonly linked: boolean }) =>
  linked && playerId !== null ? <Link to={`/player-history/${encodeURIComponent(playerId)}`}>{name}</Link> : <>{name}</>

export const KillTable = ({
  kills,
  caption,
  serverName,
  linkPlayers,
  fresh
}: {
  readonly kills: ReadonlyArray<Kill>
  readonly caption: string
  /** The server column's text; leave it out to have no server column. */
  readonly serverName?: (serverId: string) => string
  /** Names link to player history (callers holding `players.view`). */
  readonly linkPlayers: boolean
  /** Ids of kills that arrived live, marked as new. */
  readonly fresh?: ReadonlySet<string>
}) => (
  <div className="table-wrap">
    <table>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Killer</th>
          <th scope="col">Victim</th>
          <th scope="col">Weapon</th>
          <th scope="col">Distance</th>
          {serverName !== undefined && (
            <th scope="col" className="hide-narrow">
              Server
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {kills.map((kill) => (
          <tr key={kill.id} className={fresh?.has(kill.id) === true ? "fresh" : undefined}>
            <td>
              {formatTime(kill.timestamp)}
              {fresh?.has(kill.id) === true && (
                <>
                  {" "}
                  <span className="badge status-running">new</span>
                </>
              )}
            </td>
            <td>
              {kill.killerKind === "player" ? <PlayerName name={killerOf(kill)} playerId={kill.playerId} linked={linkPlayers} /> : killerOf(kill)}
              {kill.killerKind !== "player" && kill.killerKind !== "suicide" && <div className="muted">{KIND_LABELS[kill.killerKind] ?? kill.killerKind}</div>}
            </td>
            <td>
              <PlayerName name={kill.victimName} playerId={kill.victimPlayerId} linked={linkPlayers} />
            </td>
            <td>
              {kill.weapon ?? "—"}
              {kill.headshot ? (
                <>
                  {" "}
                  <span className="badge status-crashed">headshot</span>
                </>
              ) : kill.zone !== null ? (
                <div className="muted">{kill.zone}</div>
              ) : null}
            </td>
            <td>{formatDistance(kill.distance)}</td>
            {serverName !== undefined && <td className="hide-narrow">{serverName(kill.serverId)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)
