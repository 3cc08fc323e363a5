/**
 * The companion mod side of the simulator: command files in
 * `<profiles>/<modDir>/commands/`, response files in `responses/`, written
 * atomically, the command file deleted, at most 10 per poll, and a handler
 * for every action of the agent's catalogue (the spec's Agent API).
 *
 * Needs the build (`npx tsc -b`).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import {
  installSim,
  killAllSims,
  launchSim,
  modChannel,
  type ModResponseFile,
  readAdm,
  type SimInstall,
  type SimSettings,
  simControl,
  stopSim,
  waitFor
} from "../support/sim.js"

const A = "76561198012345678"
const B = "76561198000000042"

const installs: Array<SimInstall> = []
afterAll(() => {
  killAllSims()
  for (const install of installs) install.remove()
})

const start = async (settings: SimSettings = {}) => {
  const install = await installSim()
  installs.push(install)
  const sim = await launchSim(install, { settings: { modPoll: 5, ...settings } })
  simControl(install, `join ${A} Alice`, `join ${B} Bob`)
  await waitFor(() => readAdm(install).split("is connected").length - 1 === 2, 10_000)
  return sim
}

const record = (value: unknown): Record<string, unknown> => {
  if (typeof value !== "object" || value === null) throw new Error(`not an object: ${JSON.stringify(value)}`)
  return value as Record<string, unknown>
}

describe("simulated companion mod", () => {
  it("answers command files for several actions, then deletes them", async () => {
    const sim = await start()
    const mod = modChannel(sim.install)
    const ask = async (action: string, params: Record<string, unknown> = {}) => mod.response(mod.send(action, params))

    const heal = await ask("player.heal", { platformId: A })
    expect(heal).toMatchObject({ ok: true, data: { platformId: A, name: "Alice", health: 100, blood: 5000 } })
    expect(typeof heal.timestamp).toBe("number")

    expect(await ask("player.teleport", { platformId: A, x: 4500, y: 10200, z: 300 })).toMatchObject({ ok: true })
    expect(await ask("player.position", { platformId: A })).toMatchObject({ ok: true, data: { x: 4500, y: 10200, z: 300 } })

    const spawned = await ask("player.spawnItem", { platformId: A, itemClass: "M4A1", quantity: 1 })
    expect(spawned.ok).toBe(true)
    const loadout = await ask("player.loadout", { platformId: A })
    expect((record(loadout.data)["items"] as Array<{ className: string }>).map((i) => i.className)).toContain("M4A1")

    expect(await ask("player.freeze", { platformId: B, frozen: 1 })).toMatchObject({ ok: true, data: { frozen: true } })
    expect(await ask("player.info", { platformId: B })).toMatchObject({ ok: true, data: { frozen: true, online: true } })

    expect(await ask("world.time", { hour: 6, minute: 30 })).toMatchObject({ ok: true, data: { hour: 6, minute: 30 } })
    expect(await ask("world.weather", { rain: 0.8, fog: 0.2 })).toMatchObject({ ok: true, data: { rain: 0.8, fog: 0.2 } })
    expect(await ask("data.server-info")).toMatchObject({ ok: true, data: { map: "chernarusplus", players: 2, time: { hour: 6, minute: 30 } } })

    // Action names are the agent catalogue's, exactly: other spellings are unknown.
    for (const spelling of ["player/heal", "/player/heal", "heal", "player.HEAL"]) {
      expect(await ask(spelling, { platformId: A })).toMatchObject({ ok: false, error: `unknown action "${spelling}"` })
    }

    // Errors answer ok:false with a reason.
    const unknown = await ask("player.doTheImpossible", { platformId: A })
    expect(unknown).toMatchObject({ ok: false })
    expect(unknown.error).toContain("unknown action")
    expect((await ask("world.weather", { rain: 2 })).error).toContain("at most 1")
    expect((await ask("player.heal", { platformId: "76561198099999999" })).error).toContain("not online")
    expect((await ask("player.heal", {})).error).toContain("platformId")

    // The files: no command left, no temporary file left, one response per command.
    await waitFor(() => readdirSync(mod.commands).length === 0, 10_000)
    expect(readdirSync(mod.responses).filter((f) => f.includes(".tmp"))).toEqual([])
    const response = JSON.parse(readFileSync(NodePath.join(mod.responses, readdirSync(mod.responses)[0]!), "utf8")) as ModResponseFile
    expect(Object.keys(response).sort()).toEqual(expect.arrayContaining(["id", "ok", "timestamp"]))

    // A malformed command file still gets an answer under its file name.
    const bad = NodePath.join(mod.commands, "broken-1.json")
    writeFileSync(bad, "{ not json")
    expect(await mod.response("broken-1")).toMatchObject({ id: "broken-1", ok: false })
    expect(existsSync(bad)).toBe(false)

    // players.json and events.jsonl are kept by the mod.
    const root = NodePath.dirname(mod.commands)
    expect(JSON.parse(readFileSync(NodePath.join(root, "players.json"), "utf8")).players).toHaveLength(2)
    expect(readFileSync(NodePath.join(root, "events.jsonl"), "utf8")).toContain('"type":"player.connected"')

    // Banning through the mod kicks the player.
    expect(await ask("bans.add", { platformId: B, name: "Bob", reason: "griefing", expiration: null })).toMatchObject({ ok: true })
    expect(await ask("bans.check", { platformId: B })).toMatchObject({ ok: true, data: { banned: true } })
    expect(await ask("data.online-players")).toMatchObject({ ok: true, data: { players: [{ platformId: A }] } })
    await stopSim(sim)
  })

  it("handles at most 10 commands per poll; every one is answered, none lost or mismatched", async () => {
    const sim = await start({ modPoll: 400 })
    const mod = modChannel(sim.install)
    const ids = Array.from({ length: 25 }, (_, i) => mod.send("player.info", { platformId: i % 2 === 0 ? A : B }, `cmd-${String(i).padStart(2, "0")}`))
    await waitFor(() => readdirSync(mod.responses).length > 0, 10_000)
    const first = readdirSync(mod.responses).length
    expect(first).toBeLessThanOrEqual(10)
    const responses = await Promise.all(ids.map((id) => mod.response(id, 10_000)))
    responses.forEach((r, i) => {
      expect(r.id).toBe(ids[i])
      expect(r.ok).toBe(true)
      expect(record(r.data)["platformId"]).toBe(i % 2 === 0 ? A : B)
    })
    await stopSim(sim)
  })

  it("file suffixes and the mod folder are settings", async () => {
    const sim = await start({ modDir: "CustomMod", cmdSuffix: ".cmd.json", resSuffix: ".res.json" })
    const mod = modChannel(sim.install, { modDir: "CustomMod", cmdSuffix: ".cmd.json", resSuffix: ".res.json" })
    const id = mod.send("data.server-info")
    expect(await mod.response(id)).toMatchObject({ id, ok: true, data: { map: "chernarusplus" } })
    expect(existsSync(NodePath.join(mod.responses, `${id}.res.json`))).toBe(true)
    await stopSim(sim)
  })

  it("has a handler for every action of the Agent API", async () => {
    const sim = await start()
    const mod = modChannel(sim.install)
    const ask = async (action: string, params: Record<string, unknown> = {}) => {
      const response = await mod.response(mod.send(action, params))
      expect(response.error ?? "", action).not.toContain("unknown action")
      expect(response.ok, `${action}: ${response.error}`).toBe(true)
      return record(response.data)
    }
    const a = { platformId: A }
    const b = { platformId: B }
    const at = { coords: [7500, 7500, 200] }

    const vehicles = (await ask("vehicles"))["vehicles"] as Array<{ id: string }>
    expect(vehicles.length).toBeGreaterThan(2)
    const storage = (await ask("data.all-storage-objects"))["objects"] as Array<{ persistentId: string }>
    expect(storage.length).toBeGreaterThan(0)

    const calls: Array<readonly [string, Record<string, unknown>]> = [
      ["player.heal", a], ["player.teleport", { ...a, x: 7500, y: 7500, z: 200 }], ["player.spawnItem", { ...a, itemClass: "Mag_STANAG_30Rnd", quantity: 2 }],
      ["player.unstuck", a], ["player.freeze", { ...a, frozen: 0 }], ["player.message", { ...a, message: "hello" }],
      ["player.teleportToPlayer", { ...b, targetPlatformId: A }], ["player.loadout", a],
      ["player.dry", a], ["player.breakLegs", a], ["player.makeSick", { ...a, diseaseType: "Cholera" }], ["player.cure", a],
      ["player.setBloodType", { ...a, bloodType: "AB+" }], ["player.forceDrink", a], ["player.forceEat", a], ["player.knockout", a],
      ["player.wake", a], ["player.setBleeding", { ...a, sourceCount: 2 }], ["player.stopBleeding", a],
      ["player.launch", { ...a, power: 10, angle: 45 }], ["player.setStat", { ...a, stat: "water", value: 2000 }], ["player.ragdoll", { ...a, duration: 3 }],
      ["player.setGodmode", a], ["player.removeGodmode", a], ["player.setInvisible", a], ["player.removeInvisible", a],
      ["player.setStaminaInfinite", a], ["player.removeStaminaInfinite", a], ["player.fillMagazines", a],
      ["player.position", a], ["player.info", a], ["player.gear", a], ["player.inventory", a], ["player.stats", a], ["player.full", a],
      ["player.gearFull", a], ["player.handsData", a], ["player.details", a],
      ["spawn.item-attached", { ...a, itemClass: "M4A1", attachments: ["ACOGOptic", "Mag_STANAG_30Rnd"] }],
      ["player.dropGear", b], ["player.clearInventory", a], ["player.strip", a], ["player.respawn", a],
      ["vehicle.repair", { vehicleId: vehicles[0]!.id }], ["vehicle.refuel", { vehicleId: vehicles[0]!.id }],
      ["vehicle.unstuck", { vehicleId: vehicles[0]!.id }], ["vehicle.kill-engine", { vehicleId: vehicles[0]!.id }],
      ["vehicle.eject-driver", { vehicleId: vehicles[0]!.id }], ["vehicle.teleport", { vehicleId: vehicles[0]!.id, x: 7500, y: 7500, z: 200 }],
      ["vehicle.explode", { vehicleId: vehicles[1]!.id }], ["vehicle.delete", { vehicleId: vehicles[2]!.id }],
      ["world.time", { hour: 12, minute: 0 }], ["world.weather", { overcast: 0.5, rain: 0.1, fog: 0.1, snow: 0, wind: 0.3 }], ["world.sunny", {}],
      ["world.spawn-item", { itemClass: "Hammer", x: 7500, y: 7500, z: 200 }], ["world.set-fog", { density: 0.4 }],
      ["world.set-wind", { speed: 8, direction: 180 }], ["world.flatten-trees", { ...at, radius: 50 }],
      ["world.clear-zombies", { ...a, radius: 100 }], ["world.delete-objects-radius", { ...at, radius: 5, objectType: "Hammer" }],
      ["spawn.zombie", { ...a, count: 3, ...at }], ["spawn.animal", { ...a, animalType: "Animal_CervusElaphus", ...at }],
      ["spawn.vehicle", { ...a, vehicleClass: "OffroadHatchback", ...at }], ["spawn.building", { ...a, buildingClass: "Land_Shed_W4", ...at }],
      ["spawn.horde", { ...a, count: 5 }], ["spawn.supply-crate", { crateType: "AirdropCrate", ...at }],
      ["spawn.loot-pile", { ...a, lootType: "military", ...at }], ["spawn.item-at", { itemClass: "Apple", ...at }],
      ["spawn.zombie-at", { count: 2, ...at }], ["spawn.animal-at", { animalType: "Animal_CanisLupus_Grey", ...at }],
      ["spawn.fire", { ...a, fireType: "Fireplace", ...at }], ["spawn.smoke", { ...a, color: "Red", ...at }],
      ["spawn.heli-crash", { heliType: "Wreck_UH1Y", ...at }], ["spawn.gas-zone", { zoneType: "Dynamic", ...at }],
      ["structure.open-doors", { ...a, radius: 50 }], ["structure.close-doors", { ...a, radius: 50 }], ["structure.loot-magnet", { ...a, radius: 50 }],
      ["item.repair", { persistentId: storage[0]!.persistentId }], ["config.reload", {}],
      ["data.online-players", {}], ["data.all-players", {}], ["data.server-info", {}], ["data.nearby-vehicles", { ...a, radius: 1000 }],
      ["data.vehicle-info", { vehicleId: vehicles[0]!.id }], ["data.base-objects", { ...a, radius: 20000 }], ["data.nearby-players", { ...a, radius: 1000 }],
      ["data.nearby-entities", { ...a, radius: 1000 }], ["data.nearby-loot", { ...a, radius: 1000, limit: 5 }],
      ["data.item-details", { persistentId: storage[0]!.persistentId }], ["data.storage-contents", { persistentId: storage[0]!.persistentId }],
      ["data.all-storage-objects", {}], ["data.nearby-entities-at", { coords: "7500,7500,200", radius: 500 }],
      ["data.nearby-loot-at", { coords: "7500,7500,200", radius: 500 }],
      ["bans.list", {}], ["bans.check", b], ["metrics", {}], ["vehicles", {}], ["world-events", {}], ["players", {}],
      ["leaderboard", { limit: 5 }], ["stats", a], ["priority-queue.list", {}],
      ["priority-queue.add", { platformId: B, name: "Bob", role: "VIP", expiration: null }],
      ["item.delete", { persistentId: storage[0]!.persistentId }],
      ["player.explode", b], ["player.kill", b], ["player.kick", { ...b, reason: "test" }],
      ["world.wipe-ai", {}], ["world.wipe-vehicles", {}]
    ]
    for (const [action, params] of calls) await ask(action, params)
    const entry = ((await ask("priority-queue.list"))["entries"] as Array<{ id: string }>)[0]!
    await ask("priority-queue.remove", { id: entry.id })
    const ban = record((await ask("player.ban", { ...a, reason: "test", duration: 60 }))["ban"])
    await ask("bans.remove", { id: ban["id"] })
    await ask("bans.add", { platformId: A, name: "Alice", reason: "x", expiration: null })
    expect((await ask("bans.list"))["bans"]).toHaveLength(1)
    await stopSim(sim)
  })
})
