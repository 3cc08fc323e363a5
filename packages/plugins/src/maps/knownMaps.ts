/**
 * The DayZ maps Garrison knows: the id their tiles are served under, the
 * name people call them, the size of their world and the mission templates
 * that run on them. Other plugins (a live map, the kill feed) read it from
 * here, so a server's map is named and sized the same everywhere.
 *
 * World sizes are the side of the square terrain in metres, as the engine
 * reports it (`GetGame().GetWorld().GetWorldSize()`): world coordinates run
 * from 0 to that size on both axes. Only maps whose size at least two
 * independent public sources agree on are listed. The sources:
 *
 * - [T] the map-tile metadata DayZ server tools generate from the engine
 *   (woozymasta/metricz, `MetricZ_Geo`: every map below);
 * - [E] the DayZ economy editor's size-by-mission table (Chernarus,
 *   Livonia, Namalsk, Deer Isle, Esseker, Takistan, Banov, Rostow, Iztek);
 * - [P] a server panel's world table, as its tests pin it (Chernarus, Livonia,
 *   Sakhal, Namalsk, Deer Isle, Takistan, Banov, Pripyat, Rostow,
 *   Chiemsee).
 *
 * Sakhal's land is about 80 km², but its world (the sea around the islands
 * included) is 15360 m wide [T, P]. Esseker here is the DayZ port, 12800 m
 * [T, E], not Arma 3's 12288 m original. Left out: Alteria (one source
 * only), Deadfall (no mission template to vouch for) and the many maps
 * only [T] lists.
 *
 * Mission templates: the vanilla ones (`dayzOffline.<world>`) from
 * `serverDZ.cfg`; community ones as their mission repositories and server
 * tools name them. `mapOfMission` matches the part after the last `.`, so
 * any prefix (`dayzOffline.`, `regular.`, `empty.`, `expansion.`) finds
 * the map.
 */

export interface KnownMap {
  /** The id tiles are served under (`/api/maps/tiles/<id>/...`): the world's name, lower case. */
  readonly id: string
  /** What people call it. */
  readonly name: string
  /** The side of the square world, in metres (world coordinates run from 0 to this). */
  readonly worldSize: number
  /** Mission template names (`class Missions { class DayZ { template = ... } }`) that run on this map. */
  readonly missions: ReadonlyArray<string>
}

/** Map styles tiles are served in. */
export const MAP_STYLES = ["topographic", "satellite"] as const
export type MapStyle = (typeof MAP_STYLES)[number]

export const KNOWN_MAPS: ReadonlyArray<KnownMap> = [
  { id: "chernarusplus", name: "Chernarus", worldSize: 15360, missions: ["dayzOffline.chernarusplus", "expansion.ChernarusPlusGloom"] },
  { id: "enoch", name: "Livonia", worldSize: 12800, missions: ["dayzOffline.enoch", "expansion.EnochGloom"] },
  { id: "sakhal", name: "Sakhal", worldSize: 15360, missions: ["dayzOffline.sakhal"] },
  { id: "namalsk", name: "Namalsk", worldSize: 12800, missions: ["regular.namalsk", "hardcore.namalsk"] },
  { id: "deerisle", name: "Deer Isle", worldSize: 16384, missions: ["empty.deerisle"] },
  { id: "esseker", name: "Esseker", worldSize: 12800, missions: ["dayzOffline.Esseker"] },
  { id: "takistanplus", name: "Takistan Plus", worldSize: 12800, missions: ["dayzOffline.TakistanPlus"] },
  { id: "banov", name: "Banov", worldSize: 15360, missions: ["empty.banov", "regular.banovfrost"] },
  { id: "pripyat", name: "Pripyat", worldSize: 20480, missions: ["serverMission.Pripyat"] },
  { id: "rostow", name: "Rostow", worldSize: 14336, missions: ["Offline.rostow"] },
  { id: "chiemsee", name: "Chiemsee", worldSize: 10240, missions: ["dayzOffline.chiemsee"] },
  { id: "iztek", name: "Iztek", worldSize: 8192, missions: ["empty.Iztek"] }
]

const byId: ReadonlyMap<string, KnownMap> = new Map(KNOWN_MAPS.map((map) => [map.id, map]))

/** The last part of a template (`dayzOffline.enoch` → `enoch`), lower case. */
const worldOf = (template: string): string => {
  const dot = template.lastIndexOf(".")
  return template.slice(dot + 1).trim().toLowerCase()
}

/** Each map by its id and by the world part of each of its templates (`chernarusplusgloom`). */
const byWorld: ReadonlyMap<string, KnownMap> = new Map(
  KNOWN_MAPS.flatMap((map) => [[map.id, map] as const, ...map.missions.map((mission) => [worldOf(mission), map] as const)])
)

/** The map with this tile id (exactly, lower case), or undefined. */
export const knownMap = (id: string): KnownMap | undefined => byId.get(id)

/** Whether `style` is one of `MAP_STYLES`. */
export const isMapStyle = (style: string): style is MapStyle => (MAP_STYLES as ReadonlyArray<string>).includes(style)

/**
 * The map a mission template runs on, from the part after its last `.`,
 * case-insensitively: `dayzOffline.enoch` and `expansion.Enoch` are
 * Livonia, `regular.Namalsk` Namalsk. Undefined for a map not listed.
 */
export const mapOfMission = (template: string): KnownMap | undefined => {
  const world = worldOf(template)
  return world === "" ? undefined : byWorld.get(world)
}
