/**
 * Every action of the spec's Agent API, declared once: its HTTP method and
 * path, the companion mod's action name, its category, whether it only
 * reads, the `Schema` of its body (POST) or query (GET), a valid example,
 * and the controller's Admin-actions route it backs, when it backs one.
 * The agent's `HttpApi` (`AgentApi.ts`) is these groups; the catalogue, the
 * capability list, the typed client and the mod's action names all come
 * from it.
 *
 * Path rule for action names: the path in dotted form (`/player/heal` is
 * `player.heal`, `/vehicle/kill-engine` is `vehicle.kill-engine`), except
 * the REST-style resources, which name their verb: `bans.list|add|remove|
 * check`, `priority-queue.list|add|remove`, and the metrics paths
 * (`metrics`, `vehicles`, `world-events`, `players`, `leaderboard`, `stats`).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import {
  BloodType,
  ClassName,
  Coordinate,
  Coords,
  CoordsFromString,
  Expiration,
  Fields,
  Flag,
  IntRange,
  Minutes,
  ObjectId,
  PlatformId,
  PriorityRole,
  QueryNumber,
  Radius,
  Range,
  STAT_RANGES,
  StatName,
  Text,
  Unit
} from "./Fields.js"

/** The groups of the catalogue (also the `HttpApi` group names, so `client.player.heal(...)`). */
export const CATEGORIES = ["player", "vehicle", "world", "spawn", "structure", "item", "config", "data", "bans", "metrics", "priority"] as const
export type Category = (typeof CATEGORIES)[number]

/**
 * The controller's Admin-actions routes (`/api/servers/:id/actions/<route>`)
 * that an agent action backs.
 */
export const ADMIN_ROUTES = [
  "heal",
  "kill",
  "teleport",
  "spawn-item",
  "unstuck",
  "freeze",
  "strip",
  "explode",
  "message",
  "player/:platformId",
  "vehicle/delete",
  "vehicle/repair",
  "vehicle/refuel",
  "vehicle/unstuck",
  "vehicle/explode",
  "world/time",
  "world/weather",
  "world/sunny",
  "world/wipe-ai",
  "world/wipe-vehicles"
] as const
export type AdminRoute = (typeof ADMIN_ROUTES)[number]

/** What the catalogue knows of an endpoint beyond its method, path and schemas. */
export interface ActionInfo {
  /** The companion mod's action name, e.g. `player.heal`. */
  readonly action: string
  readonly category: Category
  /** True when the action only reads (a GET); false when it changes the game. */
  readonly query: boolean
  /** The Admin-actions route of the controller this action backs, if any. */
  readonly adminRoute: AdminRoute | undefined
  readonly summary: string
  /**
   * A valid input as the typed client takes it (decoded: numbers are
   * numbers, `coords` a tuple): the body (POST) or the query, with any
   * path parameters merged in.
   */
  readonly example: Readonly<Record<string, unknown>>
}

/** The `ActionInfo` annotation every catalogue endpoint carries. */
export class ActionAnnotation extends Context.Tag("@garrison/agent/ActionAnnotation")<ActionAnnotation, ActionInfo>() {}

/** What every action answers on success: `{ok: true, data}`, `data` being the mod's `data` as it sent it (null when absent). */
export const AgentOk = Schema.Struct({ ok: Schema.Literal(true), data: Schema.Unknown }).annotations({
  identifier: "AgentOk",
  description: "The mod's answer: `data` as the mod sent it"
})
export type AgentOk = typeof AgentOk.Type

/** Example players and objects, used in the examples (the simulator's tests create them). */
export const EXAMPLE = {
  player: "76561198012345678",
  otherPlayer: "76561198000000042",
  vehicle: "veh-1001",
  item: "1007",
  ban: "ban-1",
  priority: "prio-1"
} as const
const P = { platformId: EXAMPLE.player }
const AT = [7500, 7500, 200] as const

interface Options {
  readonly admin?: AdminRoute
}

type Body<S extends Schema.Schema.Any> = S & HttpApiEndpoint.HttpApiEndpoint.ValidatePayload<"POST", S>
type Query<S extends Schema.Schema.Any> = S & HttpApiEndpoint.HttpApiEndpoint.ValidateUrlParams<S>

const annotate = (category: Category, action: string, query: boolean, summary: string, example: Readonly<Record<string, unknown>>, options: Options): ActionInfo => ({
  action,
  category,
  query,
  adminRoute: options.admin,
  summary,
  example
})

/** A POST action with a body. */
const act =
  (category: Category) =>
  <const Name extends string, S extends Schema.Schema.Any>(
    name: Name,
    path: HttpApiEndpoint.PathSegment,
    action: string,
    summary: string,
    body: S,
    example: Readonly<Record<string, unknown>>,
    options: Options = {}
  ) =>
    HttpApiEndpoint.post(name, path)
      .setPayload(body as Body<S>)
      .addSuccess(AgentOk)
      .annotate(ActionAnnotation, annotate(category, action, false, summary, example, options))

/** A POST action without a body. */
const actBare =
  (category: Category) =>
  <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment, action: string, summary: string, options: Options = {}) =>
    HttpApiEndpoint.post(name, path).addSuccess(AgentOk).annotate(ActionAnnotation, annotate(category, action, false, summary, {}, options))

/** A GET query with query parameters. */
const ask =
  (category: Category) =>
  <const Name extends string, S extends Schema.Schema.Any>(
    name: Name,
    path: HttpApiEndpoint.PathSegment,
    action: string,
    summary: string,
    query: S,
    example: Readonly<Record<string, unknown>>,
    options: Options = {}
  ) =>
    HttpApiEndpoint.get(name, path)
      .setUrlParams(query as Query<S>)
      .addSuccess(AgentOk)
      .annotate(ActionAnnotation, annotate(category, action, true, summary, example, options))

/** A GET query without parameters. */
const askBare =
  (category: Category) =>
  <const Name extends string>(name: Name, path: HttpApiEndpoint.PathSegment, action: string, summary: string) =>
    HttpApiEndpoint.get(name, path).addSuccess(AgentOk).annotate(ActionAnnotation, annotate(category, action, true, summary, {}, {}))

// ---------------------------------------------------------------------------
// Field sets
// ---------------------------------------------------------------------------

const Player = Fields({ platformId: PlatformId })
const Reason = Text(256)
const QueryRadius = QueryNumber(Radius)
const NearPlayer = Fields({ platformId: PlatformId, radius: QueryRadius })
const NearPoint = Fields({ coords: CoordsFromString, radius: QueryRadius })
const Persistent = Fields({ persistentId: ObjectId })
const Vehicle = Fields({ vehicleId: ObjectId })
const Count = IntRange(1, 100)

/** `platformId` or `coords` (at least one), and a radius. */
const Around = (extra: Schema.Struct.Fields = {}) =>
  Fields({ platformId: Schema.optional(PlatformId), coords: Schema.optional(Coords), radius: Radius, ...extra }).pipe(
    Schema.filter((b) => (b.platformId === undefined && b.coords === undefined ? { path: ["coords"], message: "give platformId or coords" } : true))
  )

/** A spawn next to a player, or at `coords` when given. */
const SpawnNear = <F extends Schema.Struct.Fields>(fields: F) => Fields({ platformId: PlatformId, ...fields, coords: Schema.optional(Coords) })
/** A spawn at `coords`. */
const SpawnAt = <F extends Schema.Struct.Fields>(fields: F) => Fields({ ...fields, coords: Coords })

const SetStat = Fields({ platformId: PlatformId, stat: StatName, value: Coordinate }).pipe(
  Schema.filter((b) => {
    const [min, max] = STAT_RANGES[b.stat]
    return b.value >= min && b.value <= max ? true : { path: ["value"], message: `${b.stat} must be from ${min} to ${max}` }
  })
)

// ---------------------------------------------------------------------------
// Groups
// ---------------------------------------------------------------------------

const player = act("player")
const playerBare = ask("player")

export const PlayerGroup = HttpApiGroup.make("player")
  // Core
  .add(player("heal", "/player/heal", "player.heal", "Heal a player fully (health, blood, shock, bleeding, legs, sickness)", Player, P, { admin: "heal" }))
  .add(player("kill", "/player/kill", "player.kill", "Kill a player", Player, P, { admin: "kill" }))
  .add(
    player("teleport", "/player/teleport", "player.teleport", "Move a player to x, y, z", Fields({ platformId: PlatformId, x: Coordinate, y: Coordinate, z: Coordinate }), { ...P, x: 4500, y: 10200, z: 300 }, { admin: "teleport" })
  )
  .add(
    player("spawnItem", "/player/spawnItem", "player.spawnItem", "Put items into a player's inventory", Fields({ platformId: PlatformId, itemClass: ClassName, quantity: Count }), { ...P, itemClass: "M4A1", quantity: 1 }, { admin: "spawn-item" })
  )
  .add(player("strip", "/player/strip", "player.strip", "Remove everything a player carries", Player, P, { admin: "strip" }))
  .add(player("explode", "/player/explode", "player.explode", "Blow a player up", Player, P, { admin: "explode" }))
  .add(player("unstuck", "/player/unstuck", "player.unstuck", "Move a stuck player a little", Player, P, { admin: "unstuck" }))
  .add(player("freeze", "/player/freeze", "player.freeze", "Freeze (frozen 1) or unfreeze (frozen 0) a player", Fields({ platformId: PlatformId, frozen: Flag }), { ...P, frozen: 1 }, { admin: "freeze" }))
  .add(player("message", "/player/message", "player.message", "Send one player a message", Fields({ platformId: PlatformId, message: Reason }), { ...P, message: "Hello from the admins" }, { admin: "message" }))
  .add(
    player("teleportToPlayer", "/player/teleportToPlayer", "player.teleportToPlayer", "Move a player next to another player", Fields({ platformId: PlatformId, targetPlatformId: PlatformId }), { platformId: EXAMPLE.otherPlayer, targetPlatformId: EXAMPLE.player })
  )
  .add(player("kick", "/player/kick", "player.kick", "Kick a player", Fields({ platformId: PlatformId, reason: Schema.optional(Reason) }), { ...P, reason: "AFK" }))
  .add(
    player("ban", "/player/ban", "player.ban", "Ban a player through the mod (duration in minutes, 0 permanent) and kick them", Fields({ platformId: PlatformId, reason: Schema.optional(Reason), duration: Schema.optional(Minutes) }), { ...P, reason: "Cheating", duration: 60 })
  )
  .add(playerBare("loadout", "/player/loadout", "player.loadout", "A player's full inventory: items, quantity and health", Player, P))
  // Health and status
  .add(player("dry", "/player/dry", "player.dry", "Dry a player's clothes", Player, P))
  .add(player("breakLegs", "/player/breakLegs", "player.breakLegs", "Break a player's legs", Player, P))
  .add(player("makeSick", "/player/makeSick", "player.makeSick", "Give a player a disease", Fields({ platformId: PlatformId, diseaseType: ClassName }), { ...P, diseaseType: "Cholera" }))
  .add(player("cure", "/player/cure", "player.cure", "Cure a player's diseases", Player, P))
  .add(player("setBloodType", "/player/setBloodType", "player.setBloodType", "Set a player's blood type", Fields({ platformId: PlatformId, bloodType: BloodType }), { ...P, bloodType: "AB+" }))
  .add(player("forceDrink", "/player/forceDrink", "player.forceDrink", "Make a player drink", Player, P))
  .add(player("forceEat", "/player/forceEat", "player.forceEat", "Make a player eat", Player, P))
  .add(player("knockout", "/player/knockout", "player.knockout", "Knock a player unconscious", Player, P))
  .add(player("wake", "/player/wake", "player.wake", "Wake an unconscious player", Player, P))
  .add(player("setBleeding", "/player/setBleeding", "player.setBleeding", "Set a player's bleeding sources", Fields({ platformId: PlatformId, sourceCount: IntRange(0, 20) }), { ...P, sourceCount: 2 }))
  .add(player("stopBleeding", "/player/stopBleeding", "player.stopBleeding", "Stop a player's bleeding", Player, P))
  // Ability and state
  .add(player("dropGear", "/player/dropGear", "player.dropGear", "Make a player drop everything on the ground", Player, P))
  .add(player("launch", "/player/launch", "player.launch", "Launch a player into the air (power in metres, angle in degrees)", Fields({ platformId: PlatformId, power: Range(0, 1000), angle: Range(-360, 360) }), { ...P, power: 10, angle: 45 }))
  .add(player("setStat", "/player/setStat", "player.setStat", "Set one of a player's stats within its range", SetStat, { ...P, stat: "water", value: 2000 }))
  .add(player("ragdoll", "/player/ragdoll", "player.ragdoll", "Ragdoll a player for some seconds", Fields({ platformId: PlatformId, duration: Range(0.1, 600, "must be a number of seconds from 0.1 to 600") }), { ...P, duration: 3 }))
  .add(player("setGodmode", "/player/setGodmode", "player.setGodmode", "Make a player invulnerable", Player, P))
  .add(player("removeGodmode", "/player/removeGodmode", "player.removeGodmode", "End a player's invulnerability", Player, P))
  .add(player("setInvisible", "/player/setInvisible", "player.setInvisible", "Make a player invisible", Player, P))
  .add(player("removeInvisible", "/player/removeInvisible", "player.removeInvisible", "Make a player visible again", Player, P))
  .add(player("setStaminaInfinite", "/player/setStaminaInfinite", "player.setStaminaInfinite", "Give a player infinite stamina", Player, P))
  .add(player("removeStaminaInfinite", "/player/removeStaminaInfinite", "player.removeStaminaInfinite", "End a player's infinite stamina", Player, P))
  .add(player("respawn", "/player/respawn", "player.respawn", "Respawn a player as a fresh character", Player, P))
  .add(player("clearInventory", "/player/clearInventory", "player.clearInventory", "Empty a player's containers and hands (clothes stay)", Player, P))
  .add(player("fillMagazines", "/player/fillMagazines", "player.fillMagazines", "Fill every magazine a player carries", Player, P))
  // Queries
  .add(playerBare("position", "/player/position", "player.position", "A player's position (x, y, z)", Player, P))
  .add(playerBare("info", "/player/info", "player.info", "A player's summary and states", Player, P))
  .add(playerBare("gear", "/player/gear", "player.gear", "What a player wears and holds (class names)", Player, P))
  .add(playerBare("inventory", "/player/inventory", "player.inventory", "Every item a player carries, flattened", Player, P))
  .add(playerBare("stats", "/player/stats", "player.stats", "A player's vital stats and counters", Player, P))
  .add(playerBare("full", "/player/full", "player.full", "Everything about a player: summary, states, stats, gear", Player, P))
  .add(playerBare("gearFull", "/player/gearFull", "player.gearFull", "A player's gear with attachments and cargo", Player, P))
  .add(playerBare("handsData", "/player/handsData", "player.handsData", "What a player holds", Player, P))
  .add(playerBare("details", "/player/details", "player.details", "A player's history: names, playtime, kills, deaths", Player, P, { admin: "player/:platformId" }))

const vehicle = act("vehicle")
const V = { vehicleId: EXAMPLE.vehicle }

export const VehicleGroup = HttpApiGroup.make("vehicle")
  .add(vehicle("delete", "/vehicle/delete", "vehicle.delete", "Delete a vehicle", Vehicle, V, { admin: "vehicle/delete" }))
  .add(vehicle("repair", "/vehicle/repair", "vehicle.repair", "Repair a vehicle fully", Vehicle, V, { admin: "vehicle/repair" }))
  .add(vehicle("refuel", "/vehicle/refuel", "vehicle.refuel", "Fill a vehicle's tank", Vehicle, V, { admin: "vehicle/refuel" }))
  .add(vehicle("unstuck", "/vehicle/unstuck", "vehicle.unstuck", "Move a stuck vehicle a little", Vehicle, V, { admin: "vehicle/unstuck" }))
  .add(vehicle("explode", "/vehicle/explode", "vehicle.explode", "Blow a vehicle up", Vehicle, V, { admin: "vehicle/explode" }))
  .add(vehicle("killEngine", "/vehicle/kill-engine", "vehicle.kill-engine", "Stop a vehicle's engine", Vehicle, V))
  .add(vehicle("ejectDriver", "/vehicle/eject-driver", "vehicle.eject-driver", "Throw the driver out of a vehicle", Vehicle, V))
  .add(vehicle("teleport", "/vehicle/teleport", "vehicle.teleport", "Move a vehicle to x, y, z", Fields({ vehicleId: ObjectId, x: Coordinate, y: Coordinate, z: Coordinate }), { ...V, x: 7500, y: 7500, z: 200 }))

const world = act("world")
const worldBare = actBare("world")

export const WorldGroup = HttpApiGroup.make("world")
  .add(world("time", "/world/time", "world.time", "Set the time of day", Fields({ hour: IntRange(0, 23), minute: IntRange(0, 59) }), { hour: 6, minute: 30 }, { admin: "world/time" }))
  .add(
    world("weather", "/world/weather", "world.weather", "Set the weather (each value 0.0 to 1.0)", Fields({ overcast: Unit, rain: Unit, fog: Unit, snow: Unit, wind: Unit }), { overcast: 0.5, rain: 0.8, fog: 0.1, snow: 0, wind: 0.3 }, { admin: "world/weather" })
  )
  .add(worldBare("sunny", "/world/sunny", "world.sunny", "Clear the weather", { admin: "world/sunny" }))
  .add(worldBare("wipeAi", "/world/wipe-ai", "world.wipe-ai", "Remove every zombie and animal", { admin: "world/wipe-ai" }))
  .add(worldBare("wipeVehicles", "/world/wipe-vehicles", "world.wipe-vehicles", "Remove every vehicle", { admin: "world/wipe-vehicles" }))
  .add(world("spawnItem", "/world/spawn-item", "world.spawn-item", "Put an item on the ground at x, y, z", Fields({ itemClass: ClassName, x: Coordinate, y: Coordinate, z: Coordinate }), { itemClass: "Hammer", x: 7500, y: 7500, z: 200 }))
  .add(world("setFog", "/world/set-fog", "world.set-fog", "Set the fog density (0.0 to 1.0)", Fields({ density: Unit }), { density: 0.4 }))
  .add(world("setWind", "/world/set-wind", "world.set-wind", "Set the wind (speed in m/s, direction in degrees)", Fields({ speed: Range(0, 100), direction: Range(0, 360) }), { speed: 8, direction: 180 }))
  .add(world("flattenTrees", "/world/flatten-trees", "world.flatten-trees", "Fell the trees around a player or a point", Around(), { coords: AT, radius: 50 }))
  .add(world("clearZombies", "/world/clear-zombies", "world.clear-zombies", "Remove the zombies around a player or a point", Around(), { ...P, radius: 100 }))
  .add(
    world("deleteObjectsRadius", "/world/delete-objects-radius", "world.delete-objects-radius", "Delete the objects of a type around a player or a point", Around({ objectType: ClassName }), { coords: AT, radius: 5, objectType: "Hammer" })
  )

const spawn = act("spawn")

export const SpawnGroup = HttpApiGroup.make("spawn")
  .add(spawn("zombie", "/spawn/zombie", "spawn.zombie", "Spawn zombies near a player (or at coords)", SpawnNear({ count: Count }), { ...P, count: 3 }))
  .add(spawn("animal", "/spawn/animal", "spawn.animal", "Spawn an animal near a player (or at coords)", SpawnNear({ animalType: ClassName }), { ...P, animalType: "Animal_CervusElaphus" }))
  .add(spawn("vehicle", "/spawn/vehicle", "spawn.vehicle", "Spawn a vehicle near a player (or at coords)", SpawnNear({ vehicleClass: ClassName }), { ...P, vehicleClass: "OffroadHatchback", coords: AT }))
  .add(spawn("building", "/spawn/building", "spawn.building", "Place a building near a player (or at coords)", SpawnNear({ buildingClass: ClassName }), { ...P, buildingClass: "Land_Shed_W4", coords: AT }))
  .add(spawn("horde", "/spawn/horde", "spawn.horde", "Spawn a horde around a player", Fields({ platformId: PlatformId, count: Count }), { ...P, count: 5 }))
  .add(spawn("supplyCrate", "/spawn/supply-crate", "spawn.supply-crate", "Drop a supply crate at coords", SpawnAt({ crateType: ClassName }), { crateType: "AirdropCrate", coords: AT }))
  .add(spawn("lootPile", "/spawn/loot-pile", "spawn.loot-pile", "Place a loot pile near a player (or at coords)", SpawnNear({ lootType: ClassName }), { ...P, lootType: "military", coords: AT }))
  .add(
    spawn("itemAttached", "/spawn/item-attached", "spawn.item-attached", "Put an item with attachments into a player's hands", Fields({ platformId: PlatformId, itemClass: ClassName, attachments: Schema.Array(ClassName).pipe(Schema.maxItems(16)) }), { ...P, itemClass: "M4A1", attachments: ["ACOGOptic", "Mag_STANAG_30Rnd"] })
  )
  .add(spawn("itemAt", "/spawn/item-at", "spawn.item-at", "Put an item on the ground at coords", SpawnAt({ itemClass: ClassName }), { itemClass: "Apple", coords: AT }))
  .add(spawn("zombieAt", "/spawn/zombie-at", "spawn.zombie-at", "Spawn zombies at coords", SpawnAt({ count: Count }), { count: 2, coords: AT }))
  .add(spawn("animalAt", "/spawn/animal-at", "spawn.animal-at", "Spawn an animal at coords", SpawnAt({ animalType: ClassName }), { animalType: "Animal_CanisLupus_Grey", coords: AT }))
  .add(spawn("fire", "/spawn/fire", "spawn.fire", "Light a fire near a player (or at coords)", SpawnNear({ fireType: ClassName }), { ...P, fireType: "Fireplace", coords: AT }))
  .add(spawn("smoke", "/spawn/smoke", "spawn.smoke", "Pop smoke near a player (or at coords)", SpawnNear({ color: ClassName }), { ...P, color: "Red", coords: AT }))
  .add(spawn("heliCrash", "/spawn/heli-crash", "spawn.heli-crash", "Place a helicopter crash at coords", SpawnAt({ heliType: ClassName }), { heliType: "Wreck_UH1Y", coords: AT }))
  .add(spawn("gasZone", "/spawn/gas-zone", "spawn.gas-zone", "Place a gas zone at coords", SpawnAt({ zoneType: ClassName }), { zoneType: "Dynamic", coords: AT }))

const structure = act("structure")
const AroundPlayer = Fields({ platformId: PlatformId, radius: Radius })

export const StructureGroup = HttpApiGroup.make("structure")
  .add(structure("openDoors", "/structure/open-doors", "structure.open-doors", "Open the doors around a player", AroundPlayer, { ...P, radius: 50 }))
  .add(structure("closeDoors", "/structure/close-doors", "structure.close-doors", "Close the doors around a player", AroundPlayer, { ...P, radius: 50 }))
  .add(structure("lootMagnet", "/structure/loot-magnet", "structure.loot-magnet", "Pull the loot around a player to their feet", AroundPlayer, { ...P, radius: 50 }))

const item = act("item")

export const ItemGroup = HttpApiGroup.make("item")
  .add(item("delete", "/item/delete", "item.delete", "Delete an item by persistent id", Persistent, { persistentId: EXAMPLE.item }))
  .add(item("repair", "/item/repair", "item.repair", "Repair an item by persistent id", Persistent, { persistentId: EXAMPLE.item }))

export const ConfigGroup = HttpApiGroup.make("config").add(actBare("config")("reload", "/config/reload", "config.reload", "Make the mod re-read its configuration"))

const data = ask("data")
const dataBare = askBare("data")
const NEAR = { ...P, radius: 1000 }

export const DataGroup = HttpApiGroup.make("data")
  .add(dataBare("onlinePlayers", "/data/online-players", "data.online-players", "Who is online, where, and how they are"))
  .add(dataBare("allPlayers", "/data/all-players", "data.all-players", "Every player the server knows"))
  .add(dataBare("serverInfo", "/data/server-info", "data.server-info", "The server: name, map, version, players, time and weather"))
  .add(data("nearbyVehicles", "/data/nearby-vehicles", "data.nearby-vehicles", "Vehicles around a player", NearPlayer, NEAR))
  .add(data("vehicleInfo", "/data/vehicle-info", "data.vehicle-info", "The vehicle nearest a player, within the radius", NearPlayer, { ...P, radius: 20000 }))
  .add(data("baseObjects", "/data/base-objects", "data.base-objects", "Base building and storage around a player", NearPlayer, { ...P, radius: 20000 }))
  .add(data("nearbyPlayers", "/data/nearby-players", "data.nearby-players", "Other players around a player", NearPlayer, NEAR))
  .add(data("nearbyEntities", "/data/nearby-entities", "data.nearby-entities", "Players, zombies, animals and vehicles around a player", NearPlayer, NEAR))
  .add(
    data("nearbyLoot", "/data/nearby-loot", "data.nearby-loot", "Loot around a player, nearest first", Fields({ platformId: PlatformId, radius: QueryRadius, limit: Schema.optional(QueryNumber(IntRange(1, 1000))) }), { ...NEAR, limit: 5 })
  )
  .add(data("itemDetails", "/data/item-details", "data.item-details", "An item by persistent id", Persistent, { persistentId: EXAMPLE.item }))
  .add(data("storageContents", "/data/storage-contents", "data.storage-contents", "What a storage object holds", Persistent, { persistentId: EXAMPLE.item }))
  .add(dataBare("allStorageObjects", "/data/all-storage-objects", "data.all-storage-objects", "Every storage object on the map"))
  .add(data("nearbyEntitiesAt", "/data/nearby-entities-at", "data.nearby-entities-at", "Players, zombies, animals and vehicles around a point", NearPoint, { coords: AT, radius: 500 }))
  .add(data("nearbyLootAt", "/data/nearby-loot-at", "data.nearby-loot-at", "Loot around a point, nearest first", NearPoint, { coords: AT, radius: 500 }))

const BanBody = Fields({ platformId: PlatformId, name: Schema.optional(Text(64)), reason: Schema.optional(Reason), expiration: Schema.optional(Expiration) })
const PriorityBody = Fields({ platformId: PlatformId, name: Schema.optional(Text(64)), role: PriorityRole, expiration: Schema.optional(Expiration) })
const IdPath = Fields({ id: ObjectId })
const PlayerPath = Fields({ platformId: PlatformId })

export const BansGroup = HttpApiGroup.make("bans")
  .add(askBare("bans")("list", "/bans", "bans.list", "The mod's bans in force"))
  .add(act("bans")("add", "/bans", "bans.add", "Ban a player through the mod (kicks them when online)", BanBody, { ...P, name: "Bravo17", reason: "Cheating", expiration: null }))
  .add(
    HttpApiEndpoint.del("remove", "/bans/:id")
      .setPath(IdPath)
      .addSuccess(AgentOk)
      .annotate(ActionAnnotation, annotate("bans", "bans.remove", false, "Lift a ban by its id", { id: EXAMPLE.ban }, {}))
  )
  .add(
    HttpApiEndpoint.get("check", "/bans/check/:platformId")
      .setPath(PlayerPath)
      .addSuccess(AgentOk)
      .annotate(ActionAnnotation, annotate("bans", "bans.check", true, "Whether a player is banned by the mod", P, {}))
  )

export const MetricsGroup = HttpApiGroup.make("metrics")
  .add(askBare("metrics")("metrics", "/metrics", "metrics", "Server metrics: players, FPS, entities, memory"))
  .add(askBare("metrics")("vehicles", "/vehicles", "vehicles", "Every vehicle on the map"))
  .add(askBare("metrics")("worldEvents", "/world-events", "world-events", "The mod's recent world events"))
  .add(askBare("metrics")("players", "/players", "players", "Every player with their history"))
  .add(ask("metrics")("leaderboard", "/leaderboard", "leaderboard", "Players by kills", Fields({ limit: Schema.optional(QueryNumber(IntRange(1, 1000))) }), { limit: 5 }))
  .add(
    HttpApiEndpoint.get("stats", "/stats/:platformId")
      .setPath(PlayerPath)
      .addSuccess(AgentOk)
      .annotate(ActionAnnotation, annotate("metrics", "stats", true, "A player's stats and history", P, {}))
  )

export const PriorityGroup = HttpApiGroup.make("priority")
  .add(askBare("priority")("list", "/priority-queue", "priority-queue.list", "The mod's priority queue"))
  .add(act("priority")("add", "/priority-queue", "priority-queue.add", "Give a player priority", PriorityBody, { platformId: EXAMPLE.otherPlayer, name: "Bob", role: "VIP", expiration: null }))
  .add(
    HttpApiEndpoint.del("remove", "/priority-queue/:id")
      .setPath(IdPath)
      .addSuccess(AgentOk)
      .annotate(ActionAnnotation, annotate("priority", "priority-queue.remove", false, "Remove a priority entry by its id", { id: EXAMPLE.priority }, {}))
  )
