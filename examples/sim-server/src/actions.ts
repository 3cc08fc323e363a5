/**
 * The companion mod's actions: one handler per action of the agent's
 * catalogue (`@garrison/agent/contract`), run against the world model.
 * Action names are the catalogue's, exactly (`player.heal`,
 * `vehicle.kill-engine`, `bans.add`, `priority-queue.remove`, `metrics`);
 * anything else answers "unknown action".
 *
 * A handler returns `{ok: true, data}` or `{ok: false, error}`; bad or
 * missing parameters and unknown players/vehicles/items are errors.
 */
import { modActionNames } from "@garrison/agent/contract"
import { toSteam64 } from "./ids.js"
import type { Vec3 } from "./logs.js"
import type { Population } from "./population.js"
import type { Rng } from "./rng.js"
import { type Creature, distance, type Item, type ObjectKind, type Online, type Person, World, type WorldObject } from "./world.js"

export type ActionResult = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly error: string }

export interface ServerInfo {
  readonly hostname: string
  readonly map: string
  readonly mission: string
  readonly version: string
  readonly maxPlayers: number
  readonly locked: boolean
  readonly uptimeSeconds: number
  readonly port: number
}

export interface ActionContext {
  readonly world: World
  readonly population: Population
  readonly rng: Rng
  readonly info: () => ServerInfo
  /** Re-reads ban.txt, priority.txt and the server config. */
  readonly reloadConfig: () => Record<string, unknown>
}

type Params = Readonly<Record<string, unknown>>
type Handler = (ctx: ActionContext, p: Params) => unknown

/** Thrown inside a handler to answer `ok: false` with this message. */
class ActionError extends Error {}

const fail = (message: string): never => {
  throw new ActionError(message)
}

// ---------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------

const has = (p: Params, key: string) => p[key] !== undefined && p[key] !== null && p[key] !== ""

const str = (p: Params, key: string): string => {
  const v = p[key]
  if (typeof v === "string" && v.trim() !== "") return v.trim()
  if (typeof v === "number") return String(v)
  return fail(`missing or invalid parameter "${key}" (a string)`)
}

const optStr = (p: Params, key: string, fallback: string): string => (has(p, key) ? str(p, key) : fallback)

const num = (p: Params, key: string, options: { min?: number; max?: number; int?: boolean; fallback?: number } = {}): number => {
  const raw = p[key]
  if (raw === undefined || raw === null || raw === "") {
    if (options.fallback !== undefined) return options.fallback
    return fail(`missing parameter "${key}" (a number)`)
  }
  const v = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : typeof raw === "boolean" ? (raw ? 1 : 0) : NaN
  if (!Number.isFinite(v)) return fail(`parameter "${key}" must be a number`)
  if (options.int === true && !Number.isInteger(v)) return fail(`parameter "${key}" must be an integer`)
  if (options.min !== undefined && v < options.min) return fail(`parameter "${key}" must be at least ${options.min}`)
  if (options.max !== undefined && v > options.max) return fail(`parameter "${key}" must be at most ${options.max}`)
  return v
}

const unit = (p: Params, key: string, fallback?: number) => num(p, key, { min: 0, max: 1, ...(fallback === undefined ? {} : { fallback }) })

const parseCoords = (raw: unknown): Vec3 | undefined => {
  const parts = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : undefined
  if (parts === undefined || parts.length < 2 || parts.length > 3) return undefined
  const [x, y, z] = parts.map((v) => Number(v))
  if (!Number.isFinite(x) || !Number.isFinite(y) || (z !== undefined && !Number.isFinite(z))) return undefined
  return { x: x!, y: y!, z: z ?? 0 }
}

const coords = (p: Params): Vec3 => {
  if (has(p, "coords")) return parseCoords(p["coords"]) ?? fail(`parameter "coords" must be [x, y, z] or "x,y,z"`)
  if (has(p, "x") && has(p, "y")) return { x: num(p, "x"), y: num(p, "y"), z: num(p, "z", { fallback: 0 }) }
  return fail(`missing parameter "coords" ([x, y, z])`)
}

const radius = (p: Params, fallback = 100) => num(p, "radius", { min: 0, max: 20_000, fallback })

/** The Steam64 a `platformId` names: a Steam64, Steam2 or Steam3 id, or the DayZ ID of a player the server knows. */
const platformIdOf = (ctx: ActionContext, p: Params, key = "platformId"): string => {
  const raw = str(p, key)
  const steam64 = toSteam64(raw)
  if (steam64 !== undefined) return steam64
  if (/^[A-Za-z0-9_-]{43}=$/.test(raw)) {
    for (const person of ctx.world.persons.values()) if (person.dayzId === raw) return person.steam64
    return fail(`player with DayZ ID ${raw} is unknown on this server`)
  }
  return fail(`parameter "${key}" is not a Steam64, Steam2, Steam3 or DayZ id: ${raw}`)
}

/** The online player named by `platformId` (or `key`). */
const onlinePlayer = (ctx: ActionContext, p: Params, key = "platformId"): Online => {
  const id = platformIdOf(ctx, p, key)
  return ctx.world.onlineBySteam(id) ?? fail(`player ${id} is not online`)
}

const knownPlayer = (ctx: ActionContext, p: Params): Person => {
  const id = platformIdOf(ctx, p)
  return ctx.world.persons.get(id) ?? fail(`player ${id} is unknown on this server`)
}

/** `coords` when given, else the position of the player named by `platformId`. */
const center = (ctx: ActionContext, p: Params): Vec3 => {
  if (has(p, "coords") || (has(p, "x") && has(p, "y"))) return coords(p)
  if (has(p, "platformId")) return onlinePlayer(ctx, p).person.character.position
  return fail(`give "platformId" or "coords"`)
}

const round = (n: number) => Math.round(n * 100) / 100
const pos = (v: Vec3) => ({ x: round(v.x), y: round(v.y), z: round(v.z) })

// ---------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------

const itemView = (item: Item): unknown => ({
  persistentId: item.persistentId,
  className: item.className,
  quantity: item.quantity,
  health: item.health,
  attachments: item.attachments.map(itemView),
  cargo: item.cargo.map(itemView)
})

const flatItem = (item: Item) => ({ persistentId: item.persistentId, className: item.className, quantity: item.quantity, health: item.health })

const summary = (ctx: ActionContext, person: Person) => {
  const online = ctx.world.onlineBySteam(person.steam64)
  const c = person.character
  return {
    platformId: person.steam64,
    name: person.name,
    online: online !== undefined,
    slot: online?.slot ?? null,
    ping: online?.ping ?? null,
    position: pos(c.position),
    health: c.health,
    blood: c.blood,
    alive: c.alive
  }
}

const states = (person: Person) => {
  const c = person.character
  return {
    frozen: c.frozen,
    godmode: c.godmode,
    invisible: c.invisible,
    staminaInfinite: c.staminaInfinite,
    unconscious: c.unconscious,
    legsBroken: c.legsBroken,
    bleedingSources: c.bleedingSources,
    diseases: [...c.diseases]
  }
}

const stats = (person: Person) => {
  const c = person.character
  return {
    platformId: person.steam64,
    name: person.name,
    health: c.health,
    blood: c.blood,
    shock: c.shock,
    water: c.water,
    energy: c.energy,
    wetness: c.wetness,
    bloodType: c.bloodType,
    kills: person.kills,
    deaths: person.deaths,
    headshots: person.headshots,
    playtimeSeconds: Math.round(person.playtimeMs / 1000),
    ...c.stats
  }
}

const details = (ctx: ActionContext, person: Person) => {
  const online = ctx.world.onlineBySteam(person.steam64)
  const liveMs = online === undefined ? 0 : Date.now() - online.connectedAt
  return {
    platformId: person.steam64,
    name: person.name,
    names: [...person.names],
    guid: person.guid,
    dayzId: person.dayzId,
    online: online !== undefined,
    firstSeen: person.firstSeen ?? null,
    lastSeen: person.lastSeen ?? null,
    sessions: person.sessions,
    playtimeSeconds: Math.round((person.playtimeMs + liveMs) / 1000),
    kills: person.kills,
    deaths: person.deaths,
    headshots: person.headshots,
    longestKill: person.longestKill ?? null
  }
}

const objectView = (o: WorldObject) => ({
  persistentId: o.persistentId,
  className: o.className,
  kind: o.kind,
  position: pos(o.position),
  health: o.health,
  ...(o.kind === "building" ? { open: o.open } : {}),
  ...(o.contents.length > 0 || o.kind === "storage" ? { contents: o.contents.map(itemView) } : {})
})

const vehicleView = (ctx: ActionContext, vehicleId: string) => {
  const v = ctx.world.vehicles.get(vehicleId) ?? fail(`vehicle ${vehicleId} does not exist`)
  return { id: v.id, className: v.className, position: pos(v.position), health: v.health, fuel: v.fuel, engineOn: v.engineOn, driver: v.driver ?? null, destroyed: v.destroyed }
}

const creatureView = (c: Creature) => ({ id: c.id, className: c.className, position: pos(c.position) })

// ---------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------

/** Puts an item into the first container with room (cargo of worn gear), else into the hands. */
const giveItem = (world: World, person: Person, item: Item) => {
  const c = person.character
  const container = c.gear.find((g) => g.cargo.length < 12)
  if (container !== undefined) container.cargo.push(item)
  else if (c.hands === undefined) c.hands = item
  else c.gear.push(item)
  world.record("item.given", { platformId: person.steam64, className: item.className, quantity: item.quantity })
}

const findItem = (world: World, id: string): { item: Item | WorldObject; remove: () => void } | undefined => {
  const object = world.objects.get(id)
  if (object !== undefined) return { item: object, remove: () => world.objects.delete(id) }
  const search = (list: Array<Item>): { item: Item; remove: () => void } | undefined => {
    for (let i = 0; i < list.length; i++) {
      const item = list[i]!
      if (item.persistentId === id) return { item, remove: () => list.splice(i, 1) }
      const inner = search(item.attachments) ?? search(item.cargo)
      if (inner !== undefined) return inner
    }
    return undefined
  }
  for (const o of world.objects.values()) {
    const found = search(o.contents)
    if (found !== undefined) return found
  }
  for (const person of world.persons.values()) {
    const c = person.character
    if (c.hands?.persistentId === id) {
      const hands = c.hands
      return { item: hands, remove: () => (c.hands = undefined) }
    }
    const found = search(c.gear) ?? (c.hands === undefined ? undefined : search([c.hands]))
    if (found !== undefined) return found
  }
  return undefined
}

const place = (world: World, className: string, kind: ObjectKind, at: Vec3, contents: Array<Item> = []): WorldObject => {
  const id = world.nextId()
  const object: WorldObject = { persistentId: id, className, kind, position: { ...at }, health: 100, open: false, contents }
  world.objects.set(id, object)
  world.record("object.spawned", { persistentId: id, className, kind, position: pos(at) })
  return object
}

const within = <A>(list: Iterable<A>, at: Vec3, r: number, posOf: (a: A) => Vec3) => [...list].filter((a) => distance(posOf(a), at) <= r)

const setFlag = (key: "frozen" | "godmode" | "invisible" | "staminaInfinite" | "unconscious" | "legsBroken", value: boolean, verb: string): Handler =>
  (ctx, p) => {
    const { person } = onlinePlayer(ctx, p)
    person.character[key] = value
    ctx.world.record(`player.${verb}`, { platformId: person.steam64 })
    return { platformId: person.steam64, name: person.name, [key]: value, message: `${verb} ${person.name}` }
  }

/** Knocking out or waking a player, with the admin log's `is unconscious` / `regained consciousness` line. */
const logged = (unconscious: boolean, handler: Handler): Handler => (ctx, p) => {
  ctx.population.consciousness(onlinePlayer(ctx, p).person, unconscious)
  return handler(ctx, p)
}

const mutate = (verb: string, change: (person: Person, p: Params, ctx: ActionContext) => Record<string, unknown> | void): Handler =>
  (ctx, p) => {
    const { person } = onlinePlayer(ctx, p)
    const extra = change(person, p, ctx) ?? {}
    ctx.world.record(`player.${verb}`, { platformId: person.steam64, ...extra })
    return { platformId: person.steam64, name: person.name, ...extra, message: `${verb}: ${person.name}` }
  }

const BLOOD_TYPES = ["O-", "O+", "A-", "A+", "B-", "B+", "AB-", "AB+"]
const STAT_LIMITS: Record<string, readonly [number, number]> = {
  health: [0, 100],
  blood: [0, 5000],
  shock: [0, 100],
  water: [0, 5000],
  energy: [0, 20000],
  wetness: [0, 1]
}

const parseExpiration = (raw: unknown): number | null => {
  if (raw === undefined || raw === null || raw === "" || raw === 0 || raw === "0" || raw === "permanent" || raw === "perm") return null
  if (typeof raw === "number") return raw < 1e12 ? Date.now() + raw * 60_000 : raw
  if (typeof raw === "string") {
    const n = Number(raw)
    if (Number.isFinite(n)) return parseExpiration(n)
    const t = Date.parse(raw)
    if (Number.isFinite(t)) return t
  }
  return fail(`"expiration" must be null, epoch milliseconds, minutes from now, or an ISO 8601 date`)
}

const activeBans = (world: World) => world.modBans.filter((b) => b.expiration === null || b.expiration > Date.now())

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

const handlers: Record<string, Handler> = {
  // Player actions, core
  "player.heal": mutate("healed", (person) => {
    const c = person.character
    Object.assign(c, { health: 100, blood: 5000, shock: 0, bleedingSources: 0, legsBroken: false, unconscious: false, water: Math.max(c.water, 1500), energy: Math.max(c.energy, 1500) })
    c.diseases = []
    return { health: c.health, blood: c.blood }
  }),
  "player.kill": mutate("killed", (person, _, ctx) => {
    ctx.population.die(person, "admin")
    return { alive: false }
  }),
  "player.teleport": mutate("teleported", (person, p) => {
    person.character.position = { x: num(p, "x"), y: num(p, "y"), z: num(p, "z", { fallback: 0 }) }
    return { position: pos(person.character.position) }
  }),
  "player.spawnItem": mutate("item spawned", (person, p, ctx) => {
    const item = ctx.world.item(str(p, "itemClass"), num(p, "quantity", { min: 1, max: 100, int: true, fallback: 1 }))
    giveItem(ctx.world, person, item)
    return { item: flatItem(item) }
  }),
  "player.strip": mutate("stripped", (person) => {
    const removed = World.allItems(person.character).length
    person.character.gear = []
    person.character.hands = undefined
    return { removed }
  }),
  "player.explode": mutate("exploded", (person, _, ctx) => {
    const at = { ...person.character.position }
    ctx.population.die(person, "explosion")
    ctx.world.record("explosion", { position: pos(at) })
    return { position: pos(at) }
  }),
  "player.unstuck": mutate("unstuck", (person) => {
    const c = person.character
    c.position = { x: c.position.x + 2, y: c.position.y + 2, z: c.position.z + 1 }
    return { position: pos(c.position) }
  }),
  "player.freeze": (ctx, p) => {
    const frozen = num(p, "frozen", { min: 0, max: 1, int: true, fallback: 1 }) === 1
    return setFlag("frozen", frozen, frozen ? "frozen" : "unfrozen")(ctx, p)
  },
  "player.message": mutate("messaged", (person, p) => ({ text: str(p, "message"), delivered: true, to: person.name })),
  "player.teleportToPlayer": (ctx, p) => {
    const { person } = onlinePlayer(ctx, p)
    const target = onlinePlayer(ctx, p, "targetPlatformId").person
    person.character.position = ctx.world.near(target.character.position, 2)
    ctx.world.record("player.teleported", { platformId: person.steam64, to: target.steam64 })
    return { platformId: person.steam64, name: person.name, target: target.steam64, position: pos(person.character.position), message: `teleported ${person.name} to ${target.name}` }
  },
  "player.kick": (ctx, p) => {
    const online = onlinePlayer(ctx, p)
    const reason = optStr(p, "reason", "Kicked by an admin")
    ctx.population.kick(online, reason)
    return { platformId: online.person.steam64, name: online.person.name, reason, message: `kicked ${online.person.name}` }
  },
  "player.ban": (ctx, p) => {
    const online = onlinePlayer(ctx, p)
    const reason = optStr(p, "reason", "Banned by an admin")
    const expiration = parseExpiration(p["duration"])
    const ban = { id: ctx.world.nextId("ban-"), platformId: online.person.steam64, name: online.person.name, reason, expiration, createdAt: Date.now() }
    ctx.world.modBans.push(ban)
    ctx.population.kick(online, reason, "Admin Ban")
    return { ban, message: `banned ${online.person.name}` }
  },
  "player.loadout": (ctx, p) => {
    const person = knownPlayer(ctx, p)
    const c = person.character
    return { platformId: person.steam64, name: person.name, hands: c.hands === undefined ? null : itemView(c.hands), gear: c.gear.map(itemView), items: World.allItems(c).map(flatItem) }
  },

  // Health and status
  "player.dry": mutate("dried", (person) => {
    person.character.wetness = 0
    return { wetness: 0 }
  }),
  "player.breakLegs": mutate("legs broken", (person) => {
    person.character.legsBroken = true
    return { legsBroken: true }
  }),
  "player.makeSick": mutate("made sick", (person, p) => {
    const disease = str(p, "diseaseType")
    if (!person.character.diseases.includes(disease)) person.character.diseases.push(disease)
    return { diseases: [...person.character.diseases] }
  }),
  "player.cure": mutate("cured", (person) => {
    person.character.diseases = []
    return { diseases: [] }
  }),
  "player.setBloodType": mutate("blood type set", (person, p) => {
    const bloodType = str(p, "bloodType").toUpperCase()
    if (!BLOOD_TYPES.includes(bloodType)) fail(`"bloodType" must be one of ${BLOOD_TYPES.join(", ")}`)
    person.character.bloodType = bloodType
    return { bloodType }
  }),
  "player.forceDrink": mutate("drank", (person) => {
    person.character.water = Math.min(5000, person.character.water + 1000)
    return { water: person.character.water }
  }),
  "player.forceEat": mutate("ate", (person) => {
    person.character.energy = Math.min(20000, person.character.energy + 1000)
    return { energy: person.character.energy }
  }),
  "player.knockout": logged(true, setFlag("unconscious", true, "knocked out")),
  "player.wake": logged(false, setFlag("unconscious", false, "woken")),
  "player.setBleeding": mutate("bleeding set", (person, p) => {
    person.character.bleedingSources = num(p, "sourceCount", { min: 0, max: 20, int: true })
    return { bleedingSources: person.character.bleedingSources }
  }),
  "player.stopBleeding": mutate("bleeding stopped", (person) => {
    person.character.bleedingSources = 0
    return { bleedingSources: 0 }
  }),

  // Ability and state
  "player.dropGear": mutate("gear dropped", (person, _, ctx) => {
    const c = person.character
    const items = [...(c.hands === undefined ? [] : [c.hands]), ...c.gear]
    for (const item of items) place(ctx.world, item.className, "item", ctx.world.near(c.position, 1), [...item.cargo, ...item.attachments])
    c.gear = []
    c.hands = undefined
    return { dropped: items.length }
  }),
  "player.launch": mutate("launched", (person, p) => {
    const power = num(p, "power", { min: 0, max: 1000 })
    const angle = num(p, "angle", { min: -360, max: 360, fallback: 45 })
    const c = person.character
    const rad = (angle * Math.PI) / 180
    c.position = { x: c.position.x + Math.cos(rad) * power, y: c.position.y, z: c.position.z + Math.max(0, Math.sin(rad) * power) }
    return { power, angle, position: pos(c.position) }
  }),
  "player.setStat": mutate("stat set", (person, p) => {
    const stat = str(p, "stat")
    const limits = STAT_LIMITS[stat] ?? fail(`unknown stat "${stat}"; one of ${Object.keys(STAT_LIMITS).join(", ")}`)
    const value = num(p, "value", { min: limits[0], max: limits[1] })
    ;(person.character as unknown as Record<string, number>)[stat] = value
    return { stat, value }
  }),
  "player.ragdoll": mutate("ragdolled", (_person, p) => ({ duration: num(p, "duration", { min: 0, max: 600, fallback: 5 }) })),
  "player.setGodmode": setFlag("godmode", true, "godmode on"),
  "player.removeGodmode": setFlag("godmode", false, "godmode off"),
  "player.setInvisible": setFlag("invisible", true, "invisible"),
  "player.removeInvisible": setFlag("invisible", false, "visible"),
  "player.setStaminaInfinite": setFlag("staminaInfinite", true, "infinite stamina on"),
  "player.removeStaminaInfinite": setFlag("staminaInfinite", false, "infinite stamina off"),
  "player.respawn": mutate("respawned", (person, _, ctx) => {
    person.character = ctx.world.freshCharacter()
    return { position: pos(person.character.position) }
  }),
  "player.clearInventory": mutate("inventory cleared", (person) => {
    const c = person.character
    let removed = c.hands === undefined ? 0 : 1
    c.hands = undefined
    for (const g of c.gear) {
      removed += g.cargo.length + g.attachments.length
      g.cargo.length = 0
      g.attachments.length = 0
    }
    return { removed }
  }),
  "player.fillMagazines": mutate("magazines filled", (person) => {
    const mags = World.allItems(person.character).filter((i) => i.className.startsWith("Mag_"))
    for (const mag of mags) mag.quantity = /_(\d+)Rnd/.exec(mag.className)?.[1] !== undefined ? Number(/_(\d+)Rnd/.exec(mag.className)![1]) : 30
    return { filled: mags.length }
  }),

  // Player queries
  "player.position": (ctx, p) => {
    const { person } = onlinePlayer(ctx, p)
    return { platformId: person.steam64, ...pos(person.character.position) }
  },
  "player.info": (ctx, p) => ({ ...summary(ctx, knownPlayer(ctx, p)), ...states(knownPlayer(ctx, p)) }),
  "player.gear": (ctx, p) => {
    const c = knownPlayer(ctx, p).character
    return { hands: c.hands?.className ?? null, gear: c.gear.map((g) => g.className) }
  },
  "player.inventory": (ctx, p) => ({ items: World.allItems(knownPlayer(ctx, p).character).map(flatItem) }),
  "player.stats": (ctx, p) => stats(knownPlayer(ctx, p)),
  "player.full": (ctx, p) => {
    const person = knownPlayer(ctx, p)
    const c = person.character
    return { ...summary(ctx, person), ...states(person), stats: stats(person), hands: c.hands === undefined ? null : itemView(c.hands), gear: c.gear.map(itemView) }
  },
  "player.gearFull": (ctx, p) => {
    const c = knownPlayer(ctx, p).character
    return { hands: c.hands === undefined ? null : itemView(c.hands), gear: c.gear.map(itemView) }
  },
  "player.handsData": (ctx, p) => {
    const c = knownPlayer(ctx, p).character
    return { hands: c.hands === undefined ? null : itemView(c.hands) }
  },
  "player.details": (ctx, p) => details(ctx, knownPlayer(ctx, p)),

  // Vehicles
  "vehicle.delete": (ctx, p) => {
    const id = str(p, "vehicleId")
    vehicleView(ctx, id)
    ctx.world.vehicles.delete(id)
    ctx.world.record("vehicle.deleted", { vehicleId: id })
    return { vehicleId: id, deleted: true }
  },
  "vehicle.repair": (ctx, p) => vehicleChange(ctx, p, "repaired", (v) => Object.assign(v, { health: 100, destroyed: false })),
  "vehicle.refuel": (ctx, p) => vehicleChange(ctx, p, "refuelled", (v) => (v.fuel = 1)),
  "vehicle.unstuck": (ctx, p) => vehicleChange(ctx, p, "unstuck", (v) => (v.position = { x: v.position.x + 3, y: v.position.y, z: v.position.z + 1 })),
  "vehicle.explode": (ctx, p) => vehicleChange(ctx, p, "exploded", (v) => Object.assign(v, { health: 0, destroyed: true, engineOn: false, driver: undefined })),
  "vehicle.kill-engine": (ctx, p) => vehicleChange(ctx, p, "engine killed", (v) => (v.engineOn = false)),
  "vehicle.eject-driver": (ctx, p) => vehicleChange(ctx, p, "driver ejected", (v) => (v.driver = undefined)),
  "vehicle.teleport": (ctx, p) => vehicleChange(ctx, p, "teleported", (v) => (v.position = { x: num(p, "x"), y: num(p, "y"), z: num(p, "z", { fallback: 0 }) })),

  // World
  "world.time": (ctx, p) => {
    ctx.world.time.hour = num(p, "hour", { min: 0, max: 23, int: true })
    ctx.world.time.minute = num(p, "minute", { min: 0, max: 59, int: true, fallback: 0 })
    ctx.world.record("world.time", { ...ctx.world.time })
    return { ...ctx.world.time }
  },
  "world.weather": (ctx, p) => {
    const keys = ["overcast", "rain", "fog", "snow", "wind"] as const
    if (!keys.some((k) => has(p, k))) fail(`give at least one of ${keys.join(", ")} (0.0 to 1.0)`)
    const next = Object.fromEntries(keys.map((k) => [k, unit(p, k, ctx.world.weather[k])]))
    Object.assign(ctx.world.weather, next)
    ctx.world.record("world.weather", { ...ctx.world.weather })
    return { ...ctx.world.weather }
  },
  "world.sunny": (ctx) => {
    Object.assign(ctx.world.weather, { overcast: 0, rain: 0, fog: 0, snow: 0 })
    ctx.world.record("world.weather", { ...ctx.world.weather })
    return { ...ctx.world.weather }
  },
  "world.wipe-ai": (ctx) => {
    const removed = ctx.world.zombies.length + ctx.world.animals.length
    ctx.world.zombies = []
    ctx.world.animals = []
    ctx.world.record("world.wipe-ai", { removed })
    return { removed }
  },
  "world.wipe-vehicles": (ctx) => {
    const removed = ctx.world.vehicles.size
    ctx.world.vehicles.clear()
    ctx.world.record("world.wipe-vehicles", { removed })
    return { removed }
  },
  "world.spawn-item": (ctx, p) => objectView(place(ctx.world, str(p, "itemClass"), "item", coords(p))),
  "world.set-fog": (ctx, p) => {
    ctx.world.weather.fog = unit(p, "density")
    return { fog: ctx.world.weather.fog }
  },
  "world.set-wind": (ctx, p) => {
    ctx.world.weather.windSpeed = num(p, "speed", { min: 0, max: 100 })
    ctx.world.weather.windDirection = num(p, "direction", { min: 0, max: 360, fallback: ctx.world.weather.windDirection })
    return { windSpeed: ctx.world.weather.windSpeed, windDirection: ctx.world.weather.windDirection }
  },
  "world.flatten-trees": (ctx, p) => removeObjects(ctx, center(ctx, p), radius(p), (o) => o.kind === "tree"),
  "world.clear-zombies": (ctx, p) => {
    const at = center(ctx, p)
    const r = radius(p)
    const before = ctx.world.zombies.length
    ctx.world.zombies = ctx.world.zombies.filter((z) => distance(z.position, at) > r)
    return { removed: before - ctx.world.zombies.length }
  },
  "world.delete-objects-radius": (ctx, p) => {
    const type = optStr(p, "objectType", "").toLowerCase()
    return removeObjects(ctx, center(ctx, p), radius(p), (o) => type === "" || o.className.toLowerCase() === type || o.kind === type)
  },

  // Spawns
  "spawn.zombie": (ctx, p) => spawnCreatures(ctx, "zombies", "ZmbM_HermitSkinny_Beige", center(ctx, p), num(p, "count", { min: 1, max: 100, int: true, fallback: 1 })),
  "spawn.animal": (ctx, p) => spawnCreatures(ctx, "animals", str(p, "animalType"), center(ctx, p), 1),
  "spawn.vehicle": (ctx, p) => {
    const id = ctx.world.nextId("veh-")
    ctx.world.vehicles.set(id, { id, className: str(p, "vehicleClass"), position: ctx.world.near(center(ctx, p), 5), health: 100, fuel: 1, engineOn: false, driver: undefined, destroyed: false })
    ctx.world.record("vehicle.spawned", { vehicleId: id })
    return vehicleView(ctx, id)
  },
  "spawn.building": (ctx, p) => objectView(place(ctx.world, str(p, "buildingClass"), "building", center(ctx, p))),
  "spawn.horde": (ctx, p) => {
    const { person } = onlinePlayer(ctx, p)
    return spawnCreatures(ctx, "zombies", "ZmbM_SoldierNormal", person.character.position, num(p, "count", { min: 1, max: 100, int: true, fallback: 10 }))
  },
  "spawn.supply-crate": (ctx, p) => {
    const w = ctx.world
    return objectView(place(w, optStr(p, "crateType", "SupplyCrate"), "crate", coords(p), [w.item("BandageDressing", 4), w.item("Mag_STANAG_30Rnd", 2), w.item("TacticalBaconCan", 3)]))
  },
  "spawn.loot-pile": (ctx, p) => {
    const w = ctx.world
    const loot = optStr(p, "lootType", "military")
    return objectView(place(w, `LootPile_${loot}`, "loot-pile", center(ctx, p), [w.item("Ammo_556x45", 20), w.item("Canteen"), w.item("Morphine")]))
  },
  "spawn.item-attached": mutate("item spawned", (person, p, ctx) => {
    const raw = p["attachments"]
    if (raw !== undefined && !(Array.isArray(raw) && raw.every((a) => typeof a === "string"))) fail(`"attachments" must be an array of class names`)
    const attachments = ((raw as Array<string> | undefined) ?? []).map((a) => ctx.world.item(a))
    const item = ctx.world.item(str(p, "itemClass"), 1, [], attachments)
    const previous = person.character.hands
    if (previous !== undefined) giveItem(ctx.world, person, previous)
    person.character.hands = item
    return { item: itemView(item) }
  }),
  "spawn.item-at": (ctx, p) => objectView(place(ctx.world, str(p, "itemClass"), "item", coords(p))),
  "spawn.zombie-at": (ctx, p) => spawnCreatures(ctx, "zombies", "ZmbM_HermitSkinny_Beige", coords(p), num(p, "count", { min: 1, max: 100, int: true, fallback: 1 })),
  "spawn.animal-at": (ctx, p) => spawnCreatures(ctx, "animals", str(p, "animalType"), coords(p), 1),
  "spawn.fire": (ctx, p) => objectView(place(ctx.world, optStr(p, "fireType", "Fireplace"), "fire", center(ctx, p))),
  "spawn.smoke": (ctx, p) => objectView(place(ctx.world, `M18SmokeGrenade_${optStr(p, "color", "White")}`, "smoke", center(ctx, p))),
  "spawn.heli-crash": (ctx, p) => objectView(place(ctx.world, optStr(p, "heliType", "Wreck_UH1Y"), "heli-crash", coords(p), [ctx.world.item("M4A1"), ctx.world.item("PlateCarrierVest")])),
  "spawn.gas-zone": (ctx, p) => objectView(place(ctx.world, `ContaminatedArea_${optStr(p, "zoneType", "Static")}`, "gas-zone", coords(p))),

  // Structures and items
  "structure.open-doors": (ctx, p) => doors(ctx, p, true),
  "structure.close-doors": (ctx, p) => doors(ctx, p, false),
  "structure.loot-magnet": (ctx, p) => {
    const { person } = onlinePlayer(ctx, p)
    const items = within(ctx.world.objects.values(), person.character.position, radius(p, 50), (o) => o.position).filter((o) => o.kind === "item")
    for (const o of items) o.position = ctx.world.near(person.character.position, 1)
    return { moved: items.length }
  },
  "item.delete": (ctx, p) => {
    const id = str(p, "persistentId")
    const found = findItem(ctx.world, id) ?? fail(`item ${id} does not exist`)
    found.remove()
    return { persistentId: id, deleted: true }
  },
  "item.repair": (ctx, p) => {
    const id = str(p, "persistentId")
    const found = findItem(ctx.world, id) ?? fail(`item ${id} does not exist`)
    found.item.health = 100
    return { persistentId: id, health: 100 }
  },
  "config.reload": (ctx) => ctx.reloadConfig(),

  // Data queries
  "data.online-players": (ctx) => ({ players: ctx.world.onlineSorted().map((o) => summary(ctx, o.person)) }),
  "data.all-players": (ctx) => ({ players: [...ctx.world.persons.values()].map((person) => summary(ctx, person)) }),
  "data.server-info": (ctx) => ({ ...ctx.info(), players: ctx.world.online.size, time: { ...ctx.world.time }, weather: { ...ctx.world.weather } }),
  "data.nearby-vehicles": (ctx, p) => ({
    vehicles: within(ctx.world.vehicles.values(), center(ctx, p), radius(p), (v) => v.position).map((v) => vehicleView(ctx, v.id))
  }),
  "data.vehicle-info": (ctx, p) => {
    if (has(p, "vehicleId")) return vehicleView(ctx, str(p, "vehicleId"))
    const at = center(ctx, p)
    const nearest = [...ctx.world.vehicles.values()].sort((a, b) => distance(a.position, at) - distance(b.position, at))[0]
    if (nearest === undefined || distance(nearest.position, at) > radius(p)) return fail("no vehicle in range")
    return vehicleView(ctx, nearest.id)
  },
  "data.base-objects": (ctx, p) => ({
    objects: within(ctx.world.objects.values(), center(ctx, p), radius(p), (o) => o.position)
      .filter((o) => o.kind === "base" || o.kind === "storage")
      .map(objectView)
  }),
  "data.nearby-players": (ctx, p) => {
    const at = center(ctx, p)
    const self = has(p, "platformId") ? platformIdOf(ctx, p) : undefined
    return {
      players: within(ctx.world.onlineSorted(), at, radius(p), (o) => o.person.character.position)
        .filter((o) => o.person.steam64 !== self)
        .map((o) => ({ ...summary(ctx, o.person), distance: round(distance(o.person.character.position, at)) }))
    }
  },
  "data.nearby-entities": (ctx, p) => entities(ctx, center(ctx, p), radius(p)),
  "data.nearby-entities-at": (ctx, p) => entities(ctx, coords(p), radius(p)),
  "data.nearby-loot": (ctx, p) => loot(ctx, center(ctx, p), radius(p), num(p, "limit", { min: 1, max: 1000, int: true, fallback: 50 })),
  "data.nearby-loot-at": (ctx, p) => loot(ctx, coords(p), radius(p), num(p, "limit", { min: 1, max: 1000, int: true, fallback: 50 })),
  "data.item-details": (ctx, p) => {
    const id = str(p, "persistentId")
    const found = findItem(ctx.world, id) ?? fail(`item ${id} does not exist`)
    return "kind" in found.item ? objectView(found.item) : itemView(found.item)
  },
  "data.storage-contents": (ctx, p) => {
    const id = str(p, "persistentId")
    const object = ctx.world.objects.get(id) ?? fail(`storage ${id} does not exist`)
    return { persistentId: id, className: object.className, contents: object.contents.map(itemView) }
  },
  "data.all-storage-objects": (ctx) => ({ objects: [...ctx.world.objects.values()].filter((o) => o.kind === "storage").map(objectView) }),

  // Bans, metrics, priority queue
  "bans.list": (ctx) => ({ bans: activeBans(ctx.world) }),
  "bans.add": (ctx, p) => {
    const platformId = platformIdOf(ctx, p)
    const ban = { id: ctx.world.nextId("ban-"), platformId, name: optStr(p, "name", ctx.world.persons.get(platformId)?.name ?? ""), reason: optStr(p, "reason", ""), expiration: parseExpiration(p["expiration"]), createdAt: Date.now() }
    ctx.world.modBans = ctx.world.modBans.filter((b) => b.platformId !== platformId)
    ctx.world.modBans.push(ban)
    const online = ctx.world.onlineBySteam(platformId)
    if (online !== undefined) ctx.population.kick(online, ban.reason === "" ? "Banned" : ban.reason, "Admin Ban")
    return { ban }
  },
  "bans.remove": (ctx, p) => {
    const id = has(p, "id") ? str(p, "id") : platformIdOf(ctx, p)
    const before = ctx.world.modBans.length
    ctx.world.modBans = ctx.world.modBans.filter((b) => b.id !== id && b.platformId !== id)
    if (ctx.world.modBans.length === before) fail(`ban ${id} does not exist`)
    return { id, removed: true }
  },
  "bans.check": (ctx, p) => {
    const platformId = platformIdOf(ctx, p)
    const ban = activeBans(ctx.world).find((b) => b.platformId === platformId)
    return { platformId, banned: ban !== undefined, ban: ban ?? null }
  },
  "metrics": (ctx) => {
    const info = ctx.info()
    return {
      players: ctx.world.online.size,
      maxPlayers: info.maxPlayers,
      uptimeSeconds: info.uptimeSeconds,
      fps: 60,
      zombies: ctx.world.zombies.length,
      animals: ctx.world.animals.length,
      vehicles: ctx.world.vehicles.size,
      objects: ctx.world.objects.size,
      memoryBytes: process.memoryUsage().rss
    }
  },
  "vehicles": (ctx) => ({ vehicles: [...ctx.world.vehicles.keys()].map((id) => vehicleView(ctx, id)) }),
  "world-events": (ctx, p) => {
    const limit = num(p, "limit", { min: 1, max: 1000, int: true, fallback: 100 })
    return { events: ctx.world.events.slice(-limit) }
  },
  "players": (ctx) => ({ players: [...ctx.world.persons.values()].map((person) => ({ ...summary(ctx, person), ...details(ctx, person) })) }),
  "leaderboard": (ctx, p) => {
    const limit = num(p, "limit", { min: 1, max: 1000, int: true, fallback: 20 })
    const sortBy = optStr(p, "sortBy", "kills")
    const entries = [...ctx.world.persons.values()].map((person) => ({
      platformId: person.steam64,
      name: person.name,
      kills: person.kills,
      deaths: person.deaths,
      headshots: person.headshots,
      longestKill: person.longestKill ?? null,
      kd: person.deaths === 0 ? person.kills : round(person.kills / person.deaths),
      headshotPct: person.kills === 0 ? 0 : round((100 * person.headshots) / person.kills)
    }))
    const key = (e: (typeof entries)[number]) =>
      sortBy === "headshots" ? e.headshots : sortBy === "longestKill" ? e.longestKill?.distance ?? 0 : sortBy === "kd" ? e.kd : e.kills
    entries.sort((a, b) => key(b) - key(a) || a.name.localeCompare(b.name))
    return { entries: entries.slice(0, limit) }
  },
  "stats": (ctx, p) => ({ ...details(ctx, knownPlayer(ctx, p)), ...stats(knownPlayer(ctx, p)) }),
  "priority-queue.list": (ctx) => ({ entries: ctx.world.priority }),
  "priority-queue.add": (ctx, p) => {
    const platformId = platformIdOf(ctx, p)
    const role = optStr(p, "role", "VIP")
    if (!["VIP", "Supporter", "Premium"].includes(role)) fail(`"role" must be VIP, Supporter or Premium`)
    const entry = { id: ctx.world.nextId("prio-"), platformId, name: optStr(p, "name", ""), role, expiration: parseExpiration(p["expiration"]), createdAt: Date.now() }
    ctx.world.priority = [...ctx.world.priority.filter((e) => e.platformId !== platformId), entry]
    return { entry }
  },
  "priority-queue.remove": (ctx, p) => {
    const id = has(p, "id") ? str(p, "id") : platformIdOf(ctx, p)
    const before = ctx.world.priority.length
    ctx.world.priority = ctx.world.priority.filter((e) => e.id !== id && e.platformId !== id)
    if (ctx.world.priority.length === before) fail(`priority entry ${id} does not exist`)
    return { id, removed: true }
  }
}

function vehicleChange(ctx: ActionContext, p: Params, verb: string, change: (v: NonNullable<ReturnType<World["vehicles"]["get"]>>) => unknown) {
  const id = str(p, "vehicleId")
  const vehicle = ctx.world.vehicles.get(id) ?? fail(`vehicle ${id} does not exist`)
  change(vehicle)
  ctx.world.record(`vehicle.${verb.replace(/ /g, "-")}`, { vehicleId: id })
  return { ...vehicleView(ctx, id), message: `vehicle ${id} ${verb}` }
}

function removeObjects(ctx: ActionContext, at: Vec3, r: number, match: (o: WorldObject) => boolean) {
  const doomed = within(ctx.world.objects.values(), at, r, (o) => o.position).filter(match)
  for (const o of doomed) ctx.world.objects.delete(o.persistentId)
  return { removed: doomed.length }
}

function spawnCreatures(ctx: ActionContext, kind: "zombies" | "animals", className: string, at: Vec3, count: number) {
  const spawned: Array<Creature> = []
  for (let i = 0; i < count; i++) {
    const creature = { id: ctx.world.nextId(kind === "zombies" ? "z-" : "a-"), className, position: ctx.world.near(at, 15) }
    ctx.world[kind].push(creature)
    spawned.push(creature)
  }
  ctx.world.record(`spawn.${kind}`, { count, className, position: pos(at) })
  return { spawned: spawned.map(creatureView) }
}

function doors(ctx: ActionContext, p: Params, open: boolean) {
  const { person } = onlinePlayer(ctx, p)
  const buildings = within(ctx.world.objects.values(), person.character.position, radius(p, 50), (o) => o.position).filter((o) => o.kind === "building")
  for (const b of buildings) b.open = open
  return { buildings: buildings.length, open }
}

function entities(ctx: ActionContext, at: Vec3, r: number) {
  return {
    players: within(ctx.world.onlineSorted(), at, r, (o) => o.person.character.position).map((o) => summary(ctx, o.person)),
    zombies: within(ctx.world.zombies, at, r, (z) => z.position).map(creatureView),
    animals: within(ctx.world.animals, at, r, (a) => a.position).map(creatureView),
    vehicles: within(ctx.world.vehicles.values(), at, r, (v) => v.position).map((v) => vehicleView(ctx, v.id))
  }
}

function loot(ctx: ActionContext, at: Vec3, r: number, limit: number) {
  const items = within(ctx.world.objects.values(), at, r, (o) => o.position)
    .filter((o) => o.kind === "item" || o.kind === "loot-pile" || o.kind === "crate")
    .sort((a, b) => distance(a.position, at) - distance(b.position, at))
    .slice(0, limit)
  return { items: items.map(objectView) }
}

// ---------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------

/**
 * The table by the catalogue's action names: exactly one handler per
 * catalogue action, checked when the module loads (a catalogue action
 * without a handler, or a handler the catalogue does not name, is a bug).
 */
const table: ReadonlyMap<string, Handler> = (() => {
  const missing = modActionNames.filter((name) => handlers[name] === undefined)
  const extra = Object.keys(handlers).filter((name) => !modActionNames.includes(name))
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`the simulated mod and the agent's catalogue disagree: no handler for ${missing.join(", ") || "-"}; not in the catalogue: ${extra.join(", ") || "-"}`)
  }
  return new Map(modActionNames.map((name) => [name, handlers[name]!]))
})()

/** Every action name the mod answers: the agent catalogue's, in its order. */
export const actionNames = (): ReadonlyArray<string> => [...table.keys()]

export const runAction = (ctx: ActionContext, action: string, params: Params): ActionResult => {
  const handler = table.get(action)
  if (handler === undefined) return { ok: false, error: `unknown action "${action}"` }
  try {
    return { ok: true, data: handler(ctx, params) }
  } catch (error) {
    if (error instanceof ActionError) return { ok: false, error: error.message }
    return { ok: false, error: `action "${action}" failed: ${error instanceof Error ? error.message : String(error)}` }
  }
}
