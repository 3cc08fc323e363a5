/**
 * What each wipe deletes, in the mission's persistence folder
 * (`mpmissions/<template>/storage_<instanceId>/`, both from the server's
 * configuration): `players` the characters (`players.db` and its journal
 * files), `economy` the world (`data/`: buildings, vehicles, loot state),
 * `full` everything in the storage folder.
 */
export const WIPE_PRESETS = [
  { id: "players", name: "Players", description: "Every character: inventories, positions, stats (players.db)", paths: ["players.db", "players.db-journal", "players.db-wal", "players.db-shm"] },
  { id: "economy", name: "Economy", description: "The world: bases, tents, vehicles and the loot economy's state (data/*.bin)", paths: ["data"] },
  { id: "full", name: "Full", description: "Everything persistent: characters and world (the whole storage folder's contents)", paths: [""] }
] as const

export type WipePresetId = (typeof WIPE_PRESETS)[number]["id"]
