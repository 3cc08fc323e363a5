/**
 * The live map's drawing: Leaflet in `CRS.Simple` (see `mapGeometry.ts`)
 * over the maps plugin's tiles (`/api/maps/tiles/<map>/<style>/{z}/{x}/{y}.webp`),
 * or, for a map Garrison does not know, a plain square grid of the world's
 * size; the players' and vehicles' markers on top (`mapLayers.ts`). A tile
 * that fails (no tile source, the source down) is reported once through
 * `onTileError`: the markers stay.
 */
import "leaflet/dist/leaflet.css"
import * as L from "leaflet"
import { useEffect, useRef } from "react"
import { worldBounds } from "./mapGeometry.js"
import { drawVehicles, gridLayer, type MapMarker, playerMarkers, worldEdge } from "./mapLayers.js"

export type { MapMarker } from "./mapLayers.js"

const MAX_ZOOM = 10

interface Drawn {
  readonly players: ReturnType<typeof playerMarkers>
  readonly vehicles: L.LayerGroup
}

const tileLayer = (tiles: { readonly map: string; readonly style: string }, bounds: L.LatLngBounds, onError: () => void) => {
  let reported = false
  return L.tileLayer(`/api/maps/tiles/${encodeURIComponent(tiles.map)}/${encodeURIComponent(tiles.style)}/{z}/{x}/{y}.webp`, {
    bounds,
    noWrap: true,
    minZoom: -2,
    minNativeZoom: 0,
    maxZoom: MAX_ZOOM,
    maxNativeZoom: MAX_ZOOM
  }).on("tileerror", () => {
    if (!reported) onError()
    reported = true
  })
}

export const LeafletMap = ({
  label,
  worldSize,
  tiles,
  players,
  vehicles,
  onTileError
}: {
  readonly label: string
  readonly worldSize: number
  /** The tile set, or null to draw the grid. */
  readonly tiles: { readonly map: string; readonly style: string } | null
  readonly players: ReadonlyArray<MapMarker>
  readonly vehicles: ReadonlyArray<MapMarker>
  readonly onTileError?: () => void
}) => {
  const box = useRef<HTMLDivElement>(null)
  const drawn = useRef<Drawn | undefined>(undefined)
  const latest = useRef({ players, vehicles, onTileError })
  latest.current = { players, vehicles, onTileError }

  // The map, made again when the world or the tiles change (with the markers as they are now).
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const bounds = L.latLngBounds(worldBounds())
    const map = L.map(element, { crs: L.CRS.Simple, minZoom: -2, maxZoom: MAX_ZOOM, zoomSnap: 0.25, attributionControl: false, maxBounds: bounds.pad(0.25) })
    map.fitBounds(bounds)
    if (tiles === null) gridLayer(worldSize).addTo(map)
    else tileLayer(tiles, bounds, () => latest.current.onTileError?.()).addTo(map)
    if (tiles !== null) worldEdge().addTo(map)
    const vehicleGroup = L.layerGroup().addTo(map)
    const current: Drawn = { players: playerMarkers(L.layerGroup().addTo(map), worldSize), vehicles: vehicleGroup }
    current.players.update(latest.current.players)
    drawVehicles(vehicleGroup, worldSize, latest.current.vehicles)
    drawn.current = current
    return () => {
      drawn.current = undefined
      map.remove()
    }
  }, [worldSize, tiles?.map, tiles?.style])

  useEffect(() => drawn.current?.players.update(players), [players])
  useEffect(() => {
    if (drawn.current !== undefined) drawVehicles(drawn.current.vehicles, worldSize, vehicles)
  }, [vehicles])

  return <div ref={box} className="live-map" role="region" aria-label={label} />
}
