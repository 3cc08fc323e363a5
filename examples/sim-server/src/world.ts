/**
 * The small world model the simulated server and its companion mod act on:
 * people (with a character: position, health, blood, inventory, states),
 * who is online in which BattlEye slot, vehicles, objects on the map,
 * zombies and animals, time and weather, and the records the mod keeps
 * (events, kills, its own bans and priority list).
 */
import { battlEyeGuid, dayzId } from "./ids.js"
import type { Vec3 } from "./logs.js"
import type { Rng } from "./rng.js"

export interface Item {
  readonly persistentId: string
  className: string
  quantity: number
  /** 0 to 100. */
  health: number
  readonly attachments: Array<Item>
  readonly cargo: Array<Item>
}

export interface Character {
  position: Vec3
  health: number
  blood: number
  shock: number
  water: number
  energy: number
  bloodType: string
  alive: boolean
  unconscious: boolean
  frozen: boolean
  godmode: boolean
  invisible: boolean
  staminaInfinite: boolean
  bleedingSources: number
  legsBroken: boolean
  diseases: Array<string>
  wetness: number
  stats: Record<string, number>
  hands: Item | undefined
  /** Worn clothing and gear; containers hold `cargo`. */
  gear: Array<Item>
}

export interface Person {
  readonly steam64: string
  name: string
  readonly guid: string
  readonly dayzId: string
  readonly ip: string
  readonly port: number
  /** Whether the simulated player tries to be online (joins, rejoins after a kick). */
  wantsOnline: boolean
  readonly names: Array<string>
  firstSeen: number | undefined
  lastSeen: number | undefined
  playtimeMs: number
  sessions: number
  kills: number
  deaths: number
  headshots: number
  longestKill: { distance: number; weapon: string; victim: string; timestamp: number } | undefined
  character: Character
  rejoinTimer: NodeJS.Timeout | undefined
}

export interface Online {
  readonly person: Person
  readonly slot: number
  ping: number
  verified: boolean
  inLobby: boolean
  readonly connectedAt: number
}

export interface Vehicle {
  readonly id: string
  readonly className: string
  position: Vec3
  health: number
  /** 0 to 1. */
  fuel: number
  engineOn: boolean
  driver: string | undefined
  destroyed: boolean
}

export type ObjectKind =
  | "item"
  | "building"
  | "base"
  | "storage"
  | "fire"
  | "smoke"
  | "crate"
  | "gas-zone"
  | "heli-crash"
  | "loot-pile"
  | "tree"

export interface WorldObject {
  readonly persistentId: string
  readonly className: string
  readonly kind: ObjectKind
  position: Vec3
  health: number
  open: boolean
  readonly contents: Array<Item>
}

export interface Creature {
  readonly id: string
  readonly className: string
  position: Vec3
}

export interface WorldEvent {
  readonly type: string
  readonly timestamp: number
  readonly data: Record<string, unknown>
}

export interface KillRecord {
  readonly killer: string | undefined
  readonly killerName: string
  readonly victim: string
  readonly victimName: string
  readonly weapon: string
  readonly distance: number
  readonly headshot: boolean
  readonly timestamp: number
  readonly killerPos: Vec3 | undefined
  readonly victimPos: Vec3
}

export interface ModBan {
  readonly id: string
  readonly platformId: string
  readonly name: string
  readonly reason: string
  /** Epoch ms, or null for permanent. */
  readonly expiration: number | null
  readonly createdAt: number
}

export interface PriorityEntry {
  readonly id: string
  readonly platformId: string
  readonly name: string
  readonly role: string
  readonly expiration: number | null
  readonly createdAt: number
}

export interface Weather {
  overcast: number
  rain: number
  fog: number
  snow: number
  wind: number
  windSpeed: number
  windDirection: number
}

const MAP_SIZE = 15360
const BLOOD_TYPES = ["O-", "O+", "A-", "A+", "B-", "B+", "AB-", "AB+"] as const

export const distance = (a: Vec3, b: Vec3) => Math.hypot(a.x - b.x, a.y - b.y)

export class World {
  readonly persons = new Map<string, Person>()
  readonly online = new Map<number, Online>()
  /** Bumped whenever who is online (or how they show in `players`) changes. */
  version = 0
  readonly vehicles = new Map<string, Vehicle>()
  readonly objects = new Map<string, WorldObject>()
  zombies: Array<Creature> = []
  animals: Array<Creature> = []
  readonly time = { hour: 12, minute: 0 }
  readonly weather: Weather = { overcast: 0.3, rain: 0, fog: 0.1, snow: 0, wind: 0.2, windSpeed: 4, windDirection: 90 }
  readonly events: Array<WorldEvent> = []
  readonly kills: Array<KillRecord> = []
  modBans: Array<ModBan> = []
  priority: Array<PriorityEntry> = []
  private counter = 1000
  /** Called for every recorded event (the mod appends them to `events.jsonl`). */
  onEvent: (event: WorldEvent) => void = () => undefined

  constructor(
    readonly map: string,
    private readonly rng: Rng
  ) {}

  nextId(prefix = ""): string {
    return `${prefix}${++this.counter}`
  }

  record(type: string, data: Record<string, unknown>): WorldEvent {
    const event = { type, timestamp: Date.now(), data }
    this.events.push(event)
    if (this.events.length > 1000) this.events.splice(0, this.events.length - 1000)
    this.onEvent(event)
    return event
  }

  randomPosition(): Vec3 {
    return {
      x: this.rng.float(1500, MAP_SIZE - 1500),
      y: this.rng.float(1800, MAP_SIZE - 2500),
      z: this.rng.float(5, 400)
    }
  }

  near(center: Vec3, spread = 30): Vec3 {
    return {
      x: Math.round((center.x + this.rng.float(-spread, spread)) * 10) / 10,
      y: Math.round((center.y + this.rng.float(-spread, spread)) * 10) / 10,
      z: center.z
    }
  }

  item(className: string, quantity = 1, cargo: Array<Item> = [], attachments: Array<Item> = []): Item {
    return { persistentId: this.nextId(), className, quantity, health: 100, attachments, cargo }
  }

  /** A fresh spawn: civilian clothes, a rag, a light, some food. */
  freshCharacter(): Character {
    return {
      position: this.randomPosition(),
      health: 100,
      blood: 5000,
      shock: 0,
      water: 1500,
      energy: 1200,
      bloodType: this.rng.pick(BLOOD_TYPES),
      alive: true,
      unconscious: false,
      frozen: false,
      godmode: false,
      invisible: false,
      staminaInfinite: false,
      bleedingSources: 0,
      legsBroken: false,
      diseases: [],
      wetness: 0,
      stats: { distanceWalked: 0, zombiesKilled: 0, playersKilled: 0 },
      hands: undefined,
      gear: [
        this.item("TShirt_Beige", 1, [this.item("Rag", 4), this.item("Apple", 1)]),
        this.item("Jeans_Blue", 1, [this.item("Chemlight_White", 1)]),
        this.item("AthleticShoes_Black")
      ]
    }
  }

  person(steam64: string, name: string, ip: string, port = 2304): Person {
    const existing = this.persons.get(steam64)
    if (existing !== undefined) {
      if (existing.name !== name) {
        existing.name = name
        this.version++
        if (!existing.names.includes(name)) existing.names.push(name)
      }
      return existing
    }
    const person: Person = {
      steam64,
      name,
      guid: battlEyeGuid(steam64),
      dayzId: dayzId(steam64),
      ip,
      port,
      wantsOnline: false,
      names: [name],
      firstSeen: undefined,
      lastSeen: undefined,
      playtimeMs: 0,
      sessions: 0,
      kills: 0,
      deaths: 0,
      headshots: 0,
      longestKill: undefined,
      character: this.freshCharacter(),
      rejoinTimer: undefined
    }
    this.persons.set(steam64, person)
    return person
  }

  onlineBySteam(steam64: string): Online | undefined {
    for (const online of this.online.values()) if (online.person.steam64 === steam64) return online
    return undefined
  }

  /** Finds a person by Steam64 or exact (then case-insensitive) name. */
  findPerson(who: string): Person | undefined {
    const byId = this.persons.get(who)
    if (byId !== undefined) return byId
    for (const p of this.persons.values()) if (p.name === who) return p
    const lower = who.toLowerCase()
    for (const p of this.persons.values()) if (p.name.toLowerCase() === lower) return p
    return undefined
  }

  freeSlot(): number {
    let slot = 0
    while (this.online.has(slot)) slot++
    return slot
  }

  onlineSorted(): Array<Online> {
    return [...this.online.values()].sort((a, b) => a.slot - b.slot)
  }

  /** Every item a character carries, flattened (hands, gear, attachments, cargo). */
  static allItems(character: Character): Array<Item> {
    const out: Array<Item> = []
    const walk = (item: Item) => {
      out.push(item)
      item.attachments.forEach(walk)
      item.cargo.forEach(walk)
    }
    if (character.hands !== undefined) walk(character.hands)
    character.gear.forEach(walk)
    return out
  }

  seedWorld(): void {
    const classes = ["OffroadHatchback", "CivilianSedan", "Hatchback_02", "Sedan_02", "Truck_01_Covered", "Offroad_02"]
    for (let i = 0; i < 6; i++) {
      const id = this.nextId("veh-")
      this.vehicles.set(id, {
        id,
        className: classes[i % classes.length]!,
        position: this.randomPosition(),
        health: this.rng.int(40, 100),
        fuel: this.rng.float(0, 1, 2),
        engineOn: false,
        driver: undefined,
        destroyed: false
      })
    }
    const baseParts = ["Fence", "Watchtower", "WoodenCrate", "SeaChest", "TentMedium", "BarrelHoles_Blue"] as const
    for (let i = 0; i < 8; i++) {
      const className = baseParts[i % baseParts.length]!
      const kind: ObjectKind = className === "Fence" || className === "Watchtower" ? "base" : "storage"
      const id = this.nextId()
      this.objects.set(id, {
        persistentId: id,
        className,
        kind,
        position: this.randomPosition(),
        health: 100,
        open: false,
        contents: kind === "storage" ? [this.item("NailBox", 1), this.item("BakedBeansCan", 2)] : []
      })
    }
    for (let i = 0; i < 12; i++) {
      const id = this.nextId()
      this.objects.set(id, {
        persistentId: id,
        className: this.rng.pick(["Hammer", "BandageDressing", "WaterBottle", "Mag_AKM_30Rnd", "Ammo_9x19", "Hatchet"]),
        kind: "item",
        position: this.randomPosition(),
        health: this.rng.int(30, 100),
        open: false,
        contents: []
      })
    }
    for (let i = 0; i < 20; i++) {
      this.zombies.push({ id: this.nextId("z-"), className: this.rng.pick(["ZmbM_HermitSkinny_Beige", "ZmbF_CitizenANormal_Blue", "ZmbM_SoldierNormal"]), position: this.randomPosition() })
    }
    for (let i = 0; i < 6; i++) {
      this.animals.push({ id: this.nextId("a-"), className: this.rng.pick(["Animal_CanisLupus_Grey", "Animal_CervusElaphus", "Animal_GallusGallusDomesticus"]), position: this.randomPosition() })
    }
  }
}
