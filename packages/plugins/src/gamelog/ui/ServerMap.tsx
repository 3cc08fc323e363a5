/**
 * One server's live map: its map (`GET /api/servers/:id/map`: tiles when
 * Garrison knows the map, else a plain grid and a message), the players'
 * positions from `GET .../map/players` and then the stream
 * (`.../map/stream`, an event `positions` at once and on every change),
 * each player a marker labelled with their name and the sighting's age
 * (ticking between events), and the same players as a table.
 */
import { useEffect, useMemo, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import type { MapPositions } from "../contract/Api.js"
import { MAP_STYLES, type MapStyle } from "../../maps/knownMaps.js"
import { LeafletMap, type MapMarker } from "./LeafletMap.js"
import { gridSizeFor, gridStep } from "./mapGeometry.js"
import { formatAge, LiveStatus } from "./shared.js"
import { useEventStream } from "./useEventStream.js"

type Positions = (typeof MapPositions)["Type"]

interface Received {
  readonly data: Positions
  readonly at: number
}

const useNow = (everyMs: number): number => {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs)
    return () => window.clearInterval(timer)
  }, [everyMs])
  return now
}

const PlayersTable = ({ positions, ageOf }: { readonly positions: Positions; readonly ageOf: (ageSeconds: number) => string }) =>
  positions.players.length === 0 ? (
    <p className="notice">No player on the map: nobody is online, or the admin log has not shown where they are yet.</p>
  ) : (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">Players on the map</caption>
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col">Position (x, y)</th>
            <th scope="col">Seen</th>
          </tr>
        </thead>
        <tbody>
          {positions.players.map((p) => (
            <tr key={p.playerId ?? p.name}>
              <td>{p.name}</td>
              <td className="mono">
                {Math.round(p.x)}, {Math.round(p.y)}
              </td>
              <td>{ageOf(p.ageSeconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )

export const ServerMap = ({ serverId, serverName }: { readonly serverId: string; readonly serverName: string }) => {
  const info = useResource(() => api((c) => c.gameServer.map({ path: { id: serverId } })), [serverId])
  const [positions, setPositions] = useState<Received | undefined>()
  const [style, setStyle] = useState<MapStyle>("topographic")
  const [tilesFailed, setTilesFailed] = useState(false)
  const now = useNow(5000)
  // Positions once the server is known to be there (a server the caller may not see answers 404, and has no stream).
  const known = info.data !== undefined
  useEffect(() => {
    if (!known) return
    let current = true
    // The first snapshot, unless the stream's came first.
    void api((c) => c.gameServer.mapPlayers({ path: { id: serverId }, urlParams: {} }))
      .then((data) => current && setPositions((held) => held ?? { data, at: Date.now() }))
      .catch(() => undefined)
    return () => void (current = false)
  }, [serverId, known])
  const stream = useEventStream<Positions>(known ? `/api/servers/${encodeURIComponent(serverId)}/map/stream` : undefined, "positions", (data) =>
    setPositions({ data, at: Date.now() })
  )

  const ageOf = (ageSeconds: number) => `${formatAge(ageSeconds + (positions === undefined ? 0 : Math.max(0, now - positions.at) / 1000))} ago`
  const players = useMemo<ReadonlyArray<MapMarker>>(
    () => (positions?.data.players ?? []).map((p) => ({ key: p.playerId ?? p.name, label: `${p.name} · ${ageOf(p.ageSeconds)}`, x: p.x, y: p.y })),
    [positions, now]
  )
  const vehicles = useMemo<ReadonlyArray<MapMarker>>(() => (positions?.data.vehicles ?? []).map((v) => ({ key: v.id, label: v.type, x: v.x, y: v.y })), [positions])

  return (
    <Loaded resource={info}>
      {(map) => {
        const worldSize = map.map?.worldSize ?? gridSizeFor(positions?.data.players ?? [])
        return (
          <div className="stack">
            <div className="row">
              <LiveStatus state={stream}>
                {map.source === "agent" ? "Positions from the server's agent, live." : "Positions from the admin log: each player's last sighting."}
              </LiveStatus>
              <div className="spacer" />
              {map.map !== null && (
                <label>
                  Style
                  <select value={style} onChange={(e) => (setStyle(e.target.value as MapStyle), setTilesFailed(false))}>
                    {MAP_STYLES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </select>
                </label>
              )}
            </div>
            {map.map === null && (
              <p className="notice" role="note">
                Garrison does not know this server's map{map.mission === null ? "" : ` (mission ${map.mission})`}: positions are drawn on a plain{" "}
                {(worldSize / 1000).toFixed(1)} km square grid, {gridStep(worldSize) / 1000} km a square.
              </p>
            )}
            {tilesFailed && <p className="notice warn">Some map tiles could not be loaded (the controller may have no tile source): the positions are still shown.</p>}
            {map.map === null && positions === undefined ? (
              // The grid's size comes from the positions: drawn once they are read.
              <p className="muted">Reading the positions…</p>
            ) : (
              <LeafletMap
                label={`Map of ${serverName}${map.map === null ? "" : ` (${map.map.name})`}`}
                worldSize={worldSize}
                tiles={map.map === null ? null : { map: map.map.id, style }}
                players={players}
                vehicles={vehicles}
                onTileError={() => setTilesFailed(true)}
              />
            )}
            {positions === undefined ? null : <PlayersTable positions={positions.data} ageOf={ageOf} />}
          </div>
        )
      }}
    </Loaded>
  )
}
