/**
 * The live map's Leaflet layers: the world's edge, the plain grid drawn
 * for a map Garrison does not know, and the markers. Player markers are
 * kept by key and moved and relabelled in place on each update (a marker
 * re-made each time would make its label fade out and in); labels are
 * text nodes, never HTML (names come from the game) and point inwards, so
 * those near the east edge stay on the map.
 */
import * as L from "leaflet"
import { gridStep, toLatLng, worldBounds } from "./mapGeometry.js"

export interface MapMarker {
  readonly key: string
  readonly label: string
  readonly x: number
  readonly y: number
}

export const worldEdge = (): L.Rectangle => L.rectangle(worldBounds(), { className: "map-grid-edge", weight: 2, fill: false, interactive: false })

/** Lines every 1 km (more on a large world) and the edge. */
export const gridLayer = (worldSize: number): L.LayerGroup => {
  const group = L.layerGroup()
  const step = gridStep(worldSize)
  const style: L.PolylineOptions = { className: "map-grid", weight: 1, interactive: false }
  for (let at = 0; at <= worldSize; at += step) {
    group.addLayer(L.polyline([toLatLng(worldSize, at, 0), toLatLng(worldSize, at, worldSize)], style))
    group.addLayer(L.polyline([toLatLng(worldSize, 0, at), toLatLng(worldSize, worldSize, at)], style))
  }
  group.addLayer(worldEdge())
  return group
}

interface Placed {
  readonly marker: L.CircleMarker
  readonly text: HTMLSpanElement
  readonly east: boolean
}

const labelOptions = (east: boolean): L.TooltipOptions => ({ permanent: true, direction: east ? "left" : "right", offset: [east ? -8 : 8, 0], className: "map-label" })

/** The players' markers on `group`, brought in line with a new list by `update`. */
export const playerMarkers = (group: L.LayerGroup, worldSize: number) => {
  const placed = new Map<string, Placed>()
  const add = (player: MapMarker, east: boolean): Placed => {
    const text = document.createElement("span")
    text.textContent = player.label
    const marker = L.circleMarker(toLatLng(worldSize, player.x, player.y), { radius: 6, className: "map-player", weight: 2, fillOpacity: 0.9, interactive: false })
      .bindTooltip(text, labelOptions(east))
      .addTo(group)
    marker.getElement()?.setAttribute("data-player", player.key)
    return { marker, text, east }
  }
  const update = (players: ReadonlyArray<MapMarker>) => {
    const seen = new Set<string>()
    for (const player of players) {
      seen.add(player.key)
      const east = player.x > worldSize * 0.6
      const held = placed.get(player.key)
      if (held === undefined || held.east !== east) {
        held?.marker.remove()
        placed.set(player.key, add(player, east))
        continue
      }
      held.marker.setLatLng(toLatLng(worldSize, player.x, player.y))
      if (held.text.textContent !== player.label) {
        held.text.textContent = player.label
        held.marker.getTooltip()?.update()
      }
    }
    for (const [key, held] of placed) {
      if (seen.has(key)) continue
      held.marker.remove()
      placed.delete(key)
    }
  }
  return { update }
}

/** Vehicles: small dots, their type on hover. */
export const drawVehicles = (group: L.LayerGroup, worldSize: number, vehicles: ReadonlyArray<MapMarker>): void => {
  group.clearLayers()
  for (const vehicle of vehicles) {
    const text = document.createElement("span")
    text.textContent = vehicle.label
    L.circleMarker(toLatLng(worldSize, vehicle.x, vehicle.y), { radius: 4, className: "map-vehicle", weight: 1, fillOpacity: 0.8 }).bindTooltip(text, { direction: "top" }).addTo(group)
  }
}
