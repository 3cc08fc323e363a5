/**
 * The action catalogue against the spec's Agent API list (written out here
 * by hand from spec/service-api.md, independently of the catalogue), the
 * naming rule for the mod's actions, the Admin-actions routes, and the
 * field rules of the bodies and queries.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  ADMIN_ROUTES,
  actionsByAdminRoute,
  actionsByName,
  AgentApi,
  type AgentAction,
  capabilities,
  catalogue,
  invalidInputFromParseError,
  modActionNames
} from "../src/index.js"

/** Every endpoint of the spec's "Agent API" section but /health, as `METHOD path`. */
const SPEC = [
  // Player actions, core
  ...["heal", "kill", "teleport", "spawnItem", "strip", "explode", "unstuck", "freeze", "message", "teleportToPlayer", "kick", "ban"].map((p) => `POST /player/${p}`),
  "GET /player/loadout",
  // Health and status
  ...["dry", "breakLegs", "makeSick", "cure", "setBloodType", "forceDrink", "forceEat", "knockout", "wake", "setBleeding", "stopBleeding"].map((p) => `POST /player/${p}`),
  // Ability and state
  ...[
    "dropGear",
    "launch",
    "setStat",
    "ragdoll",
    "setGodmode",
    "removeGodmode",
    "setInvisible",
    "removeInvisible",
    "setStaminaInfinite",
    "removeStaminaInfinite",
    "respawn",
    "clearInventory",
    "fillMagazines"
  ].map((p) => `POST /player/${p}`),
  // Player queries
  ...["position", "info", "gear", "inventory", "stats", "full", "gearFull", "handsData", "details"].map((p) => `GET /player/${p}`),
  // Vehicles
  ...["delete", "repair", "refuel", "unstuck", "explode", "kill-engine", "eject-driver", "teleport"].map((p) => `POST /vehicle/${p}`),
  // World
  ...["time", "weather", "sunny", "wipe-ai", "wipe-vehicles", "spawn-item", "set-fog", "set-wind", "flatten-trees", "clear-zombies", "delete-objects-radius"].map((p) => `POST /world/${p}`),
  // Spawns
  ...[
    "zombie",
    "animal",
    "vehicle",
    "building",
    "horde",
    "supply-crate",
    "loot-pile",
    "item-attached",
    "item-at",
    "zombie-at",
    "animal-at",
    "fire",
    "smoke",
    "heli-crash",
    "gas-zone"
  ].map((p) => `POST /spawn/${p}`),
  // Structures, items, config
  "POST /structure/open-doors",
  "POST /structure/close-doors",
  "POST /structure/loot-magnet",
  "POST /item/delete",
  "POST /item/repair",
  "POST /config/reload",
  // Data queries
  ...[
    "online-players",
    "all-players",
    "server-info",
    "nearby-vehicles",
    "vehicle-info",
    "base-objects",
    "nearby-players",
    "nearby-entities",
    "nearby-loot",
    "item-details",
    "storage-contents",
    "all-storage-objects",
    "nearby-entities-at",
    "nearby-loot-at"
  ].map((p) => `GET /data/${p}`),
  // Bans
  "GET /bans",
  "POST /bans",
  "DELETE /bans/:id",
  "GET /bans/check/:platformId",
  // Metrics and data
  "GET /metrics",
  "GET /vehicles",
  "GET /world-events",
  "GET /players",
  "GET /leaderboard",
  "GET /stats/:platformId",
  // Priority queue
  "GET /priority-queue",
  "POST /priority-queue",
  "DELETE /priority-queue/:id"
]

const byPath = (method: string, path: string): AgentAction => {
  const found = catalogue.find((a) => a.method === method && a.path === path)
  if (found === undefined) throw new Error(`no action ${method} ${path}`)
  return found
}

/** Decodes an input as the agent does (path parameters and payload); the first failure as `field: why`. */
const check = (action: AgentAction, input: Record<string, unknown>): string | undefined => {
  const schema = action.payload
  if (schema === undefined) return undefined
  const result = Schema.decodeUnknownEither(schema)(input)
  return Either.isLeft(result) ? invalidInputFromParseError(result.left, action.payloadIn ?? "input").error : undefined
}

describe("the action catalogue", () => {
  it("has every endpoint of the spec's Agent API, and nothing else", () => {
    expect(SPEC).toHaveLength(113)
    expect(catalogue.map((a) => `${a.method} ${a.path}`).sort()).toEqual([...SPEC].sort())
    expect(new Set(catalogue.map((a) => `${a.method} ${a.path}`)).size).toBe(catalogue.length)
    // /health is in the API too, beside the catalogue.
    expect(Object.keys(AgentApi.groups)).toContain("health")
  })

  it("names each action by its path, in dotted form, or by its verb for the REST-style resources", () => {
    const rest: Record<string, string> = {
      "GET /bans": "bans.list",
      "POST /bans": "bans.add",
      "DELETE /bans/:id": "bans.remove",
      "GET /bans/check/:platformId": "bans.check",
      "GET /priority-queue": "priority-queue.list",
      "POST /priority-queue": "priority-queue.add",
      "DELETE /priority-queue/:id": "priority-queue.remove",
      "GET /stats/:platformId": "stats"
    }
    for (const action of catalogue) {
      const key = `${action.method} ${action.path}`
      expect(action.name, key).toBe(rest[key] ?? action.path.slice(1).replace(/\//g, "."))
    }
    expect(new Set(modActionNames).size).toBe(catalogue.length)
    expect(capabilities).toEqual([...modActionNames].sort())
    expect(actionsByName.get("vehicle.kill-engine")?.path).toBe("/vehicle/kill-engine")
  })

  it("marks GETs as queries and everything else as changes, in the categories of the spec", () => {
    for (const action of catalogue) expect(action.query, action.name).toBe(action.method === "GET")
    const counts = Object.fromEntries(["player", "vehicle", "world", "spawn", "structure", "item", "config", "data", "bans", "metrics", "priority"].map((c) => [c, catalogue.filter((a) => a.category === c).length]))
    expect(counts).toEqual({ player: 46, vehicle: 8, world: 11, spawn: 15, structure: 3, item: 2, config: 1, data: 14, bans: 4, metrics: 6, priority: 3 })
  })

  it("backs each Admin-actions route of the controller with exactly one action", () => {
    expect([...actionsByAdminRoute.keys()].sort()).toEqual([...ADMIN_ROUTES].sort())
    expect(catalogue.filter((a) => a.adminRoute !== undefined)).toHaveLength(ADMIN_ROUTES.length)
    expect(actionsByAdminRoute.get("heal")?.name).toBe("player.heal")
    expect(actionsByAdminRoute.get("spawn-item")?.name).toBe("player.spawnItem")
    expect(actionsByAdminRoute.get("player/:platformId")?.name).toBe("player.details")
    expect(actionsByAdminRoute.get("vehicle/explode")?.name).toBe("vehicle.explode")
    expect(actionsByAdminRoute.get("world/wipe-vehicles")?.name).toBe("world.wipe-vehicles")
  })

  it("gives every action an example its own schemas accept, and a summary", () => {
    for (const action of catalogue) {
      expect(action.summary.length, action.name).toBeGreaterThan(5)
      const pathNames = [...action.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!)
      const rest = Object.fromEntries(Object.entries(action.example).filter(([k]) => !pathNames.includes(k)))
      if (action.payload !== undefined) {
        const encoded = Schema.encodeUnknownEither(action.payload)(rest)
        expect(Either.isRight(encoded), `${action.name} example: ${Either.isLeft(encoded) ? encoded.left.message : ""}`).toBe(true)
        if (Either.isRight(encoded)) expect(check(action, encoded.right as Record<string, unknown>), action.name).toBeUndefined()
      } else expect(rest, action.name).toEqual({})
      if (action.pathParams !== undefined) {
        const params = Object.fromEntries(pathNames.map((n) => [n, action.example[n]]))
        expect(Either.isRight(Schema.decodeUnknownEither(action.pathParams)(params)), action.name).toBe(true)
      }
    }
  })
})

describe("field rules", () => {
  const player = "76561198012345678"
  const weather = byPath("POST", "/world/weather")
  const sunny = { overcast: 0, rain: 0, fog: 0, snow: 0, wind: 0 }

  it("weather values are 0.0 to 1.0, each of the five required", () => {
    expect(check(weather, sunny)).toBeUndefined()
    expect(check(weather, { ...sunny, rain: 1.5 })).toBe("rain: must be a number from 0.0 to 1.0")
    expect(check(weather, { ...sunny, fog: -0.1 })).toBe("fog: must be a number from 0.0 to 1.0")
    expect(check(weather, { ...sunny, wind: "0.5" })).toBe("wind: must be a number from 0.0 to 1.0")
    const { snow: _, ...noSnow } = sunny
    expect(check(weather, noSnow)).toBe("snow: is required")
  })

  it("coords is [x, y, z] of finite numbers; in a query, x,y,z", () => {
    const at = byPath("POST", "/spawn/item-at")
    expect(check(at, { itemClass: "Apple", coords: [1, 2, 3] })).toBeUndefined()
    expect(check(at, { itemClass: "Apple", coords: [1, 2] })).toBe("coords: must be [x, y, z], three finite numbers")
    expect(check(at, { itemClass: "Apple", coords: [1, 2, 3, 4] })).toBe("coords: must be [x, y, z], three finite numbers")
    expect(check(at, { itemClass: "Apple", coords: [1, "2", 3] })).toBe("coords: must be [x, y, z], three finite numbers")
    const near = byPath("GET", "/data/nearby-loot-at")
    expect(check(near, { coords: "1,2,3", radius: "50" })).toBeUndefined()
    expect(check(near, { coords: "1,2", radius: "50" })).toBe('coords: must be "x,y,z", three finite numbers')
    expect(check(near, { coords: "1,2,x", radius: "50" })).toBe('coords: must be "x,y,z", three finite numbers')
    expect(check(near, { coords: "1,2,3", radius: "0" })).toBe("radius: must be a number of metres above 0 and at most 20000")
    expect(check(near, { coords: "1,2,3", radius: "far" })).toBe("radius: must be a number")
  })

  it("spawn quantity and counts are whole numbers from 1 to 100", () => {
    const spawn = byPath("POST", "/player/spawnItem")
    expect(check(spawn, { platformId: player, itemClass: "M4A1", quantity: 100 })).toBeUndefined()
    expect(check(spawn, { platformId: player, itemClass: "M4A1", quantity: 0 })).toBe("quantity: must be an integer from 1 to 100")
    expect(check(spawn, { platformId: player, itemClass: "M4A1", quantity: 101 })).toBe("quantity: must be an integer from 1 to 100")
    expect(check(spawn, { platformId: player, itemClass: "M4A1", quantity: 2.5 })).toBe("quantity: must be an integer from 1 to 100")
    expect(check(spawn, { platformId: player, itemClass: "M4 A1", quantity: 1 })).toBe("itemClass: must be a class name: 1 to 128 letters, digits or _")
    expect(check(byPath("POST", "/spawn/zombie-at"), { count: 0, coords: [1, 2, 3] })).toBe("count: must be an integer from 1 to 100")
  })

  it("platformId is a Steam64 or a 44-character DayZ ID", () => {
    const heal = byPath("POST", "/player/heal")
    expect(check(heal, { platformId: player })).toBeUndefined()
    expect(check(heal, { platformId: "yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc=" })).toBeUndefined()
    for (const bad of ["7656119801234567", "86561198012345678", "STEAM_0:0:26039975", "yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc", Number(player)]) {
      expect(check(heal, { platformId: bad })).toBe("platformId: must be a Steam64 (17 digits starting 7656119) or a 44-character DayZ ID")
    }
    expect(check(heal, {})).toBe("platformId: is required")
  })

  it("frozen is 0 or 1; time, bleeding, stats and blood types have their ranges", () => {
    const freeze = byPath("POST", "/player/freeze")
    expect(check(freeze, { platformId: player, frozen: 0 })).toBeUndefined()
    expect(check(freeze, { platformId: player, frozen: true })).toBe("frozen: must be 1 (freeze) or 0 (unfreeze)")
    expect(check(freeze, { platformId: player, frozen: 2 })).toBe("frozen: must be 1 (freeze) or 0 (unfreeze)")
    expect(check(byPath("POST", "/world/time"), { hour: 24, minute: 0 })).toBe("hour: must be an integer from 0 to 23")
    expect(check(byPath("POST", "/player/setBleeding"), { platformId: player, sourceCount: -1 })).toBe("sourceCount: must be an integer from 0 to 20")
    expect(check(byPath("POST", "/player/setStat"), { platformId: player, stat: "health", value: 101 })).toBe("value: health must be from 0 to 100")
    expect(check(byPath("POST", "/player/setStat"), { platformId: player, stat: "mana", value: 1 })).toBe("stat: must be one of health, blood, shock, water, energy, wetness")
    expect(check(byPath("POST", "/player/setBloodType"), { platformId: player, bloodType: "C+" })).toBe("bloodType: must be one of O-, O+, A-, A+, B-, B+, AB-, AB+")
  })

  it("refuses unknown fields, so a typo never looks like success", () => {
    const spawn = byPath("POST", "/player/spawnItem")
    expect(check(spawn, { platformId: player, itemClass: "M4A1", quantity: 1, quantitiy: 5 })).toBe(
      "quantitiy: is not a field of this request (expected platformId, itemClass, quantity)"
    )
    expect(check(byPath("GET", "/player/info"), { platformId: player, verbose: "1" })).toMatch(/^verbose: is not a field/)
  })

  it("takes platformId or coords where the spec says either, and bans' expiration as ISO 8601, epoch ms or null", () => {
    const clear = byPath("POST", "/world/clear-zombies")
    expect(check(clear, { platformId: player, radius: 10 })).toBeUndefined()
    expect(check(clear, { coords: [1, 2, 3], radius: 10 })).toBeUndefined()
    expect(check(clear, { radius: 10 })).toBe("coords: give platformId or coords")
    const ban = byPath("POST", "/bans")
    for (const expiration of [null, "2027-01-31T12:00:00Z", "2027-01-31", 1_800_000_000_000]) expect(check(ban, { platformId: player, expiration })).toBeUndefined()
    for (const expiration of ["tomorrow", "2027-13-01", -5]) {
      expect(check(ban, { platformId: player, expiration })).toBe("expiration: must be an ISO 8601 date-time, epoch milliseconds or null (permanent)")
    }
    expect(check(byPath("POST", "/player/message"), { platformId: player, message: "x".repeat(257) })).toBe(
      "message: must be text of 1 to 256 characters without control characters"
    )
  })

  it("a body that is not an object is named as a whole", () => {
    expect(check(byPath("POST", "/player/heal"), [] as unknown as Record<string, unknown>)).toBe("the body must be a JSON object")
  })
})
