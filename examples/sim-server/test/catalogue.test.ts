/**
 * The simulated companion mod against the agent's catalogue: its action
 * names are the catalogue's, and it answers every catalogue action, run
 * with the catalogue's own example input on a fresh world, with `ok: true`.
 * (The same actions through the real agent and the simulator's files are
 * in test/e2e/agent-actions.test.ts.)
 */
import { catalogue, EXAMPLE, modActionNames } from "@garrison/agent/contract"
import * as Fs from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type ActionContext, actionNames, runAction } from "../src/actions.js"
import { Logs } from "../src/logs.js"
import { parseArguments } from "../src/options.js"
import { Population } from "../src/population.js"
import { Rng } from "../src/rng.js"
import { World } from "../src/world.js"

const folders: Array<string> = []
const populations: Array<Population> = []
afterAll(() => {
  for (const population of populations) population.stop()
  for (const folder of folders) Fs.rmSync(folder, { recursive: true, force: true })
})

/** A world with the catalogue's example players online and its example vehicle, item, ban and priority entry. */
const freshContext = (): ActionContext => {
  const dir = Fs.mkdtempSync(NodePath.join(tmpdir(), "garrison-sim-catalogue-"))
  folders.push(dir)
  const { sim } = parseArguments([], { SIM_VERIFY_DELAY: "0", SIM_REJOIN: "0", SIM_PLAYERS: "0" }, dir)
  const logs = new Logs(dir, true, new Date())
  const rng = new Rng(7)
  const world = new World("chernarusplus", rng.fork(3))
  world.seedWorld()
  const population = new Population(
    world,
    {
      broadcast: () => undefined,
      logs,
      canJoin: () => true,
      isLocked: () => false,
      maxPlayers: () => 60,
      isBanned: () => false,
      isWhitelisted: () => true,
      hasPriority: () => false,
      battlEyeBan: () => undefined
    },
    sim,
    rng.fork(4)
  )
  populations.push(population)
  for (const [steam64, name] of [
    [EXAMPLE.player, "Alice"],
    [EXAMPLE.otherPlayer, "Bob"]
  ] as const) {
    expect(population.attemptJoin(world.person(steam64, name, "10.0.0.1"))).toBe("joined")
  }
  expect(world.vehicles.has(EXAMPLE.vehicle)).toBe(true)
  world.objects.set(EXAMPLE.item, {
    persistentId: EXAMPLE.item,
    className: "SeaChest",
    kind: "storage",
    position: { x: 7500, y: 7500, z: 200 },
    health: 50,
    open: false,
    contents: [world.item("NailBox")]
  })
  world.modBans.push({ id: EXAMPLE.ban, platformId: "76561198000000099", name: "Mallory", reason: "x", expiration: null, createdAt: Date.now() })
  world.priority.push({ id: EXAMPLE.priority, platformId: "76561198000000098", name: "Trent", role: "VIP", expiration: null, createdAt: Date.now() })
  return {
    world,
    population,
    rng: rng.fork(5),
    info: () => ({ hostname: "Test", map: "chernarusplus", mission: "dayzOffline.chernarusplus", version: "1.26", maxPlayers: 60, locked: false, uptimeSeconds: 1, port: 2302 }),
    reloadConfig: () => ({ reloaded: true })
  }
}

describe("the simulated mod and the agent's catalogue", () => {
  it("takes its action names from the catalogue, exactly", () => {
    expect(actionNames()).toEqual(modActionNames)
    expect(actionNames()).toHaveLength(catalogue.length)
    const ctx = freshContext()
    // No loose matching: other spellings are unknown actions.
    for (const spelling of ["player/heal", "/player/heal", "heal", "vehicle.killEngine", "priorityqueue.list", "ping"]) {
      expect(runAction(ctx, spelling, { platformId: EXAMPLE.player })).toEqual({ ok: false, error: `unknown action "${spelling}"` })
    }
  })

  it("answers every catalogue action, given its example input, with ok: true", () => {
    const failures: Array<string> = []
    for (const action of catalogue) {
      const params = JSON.parse(JSON.stringify(action.example)) as Record<string, unknown>
      const result = runAction(freshContext(), action.name, params)
      if (!result.ok) failures.push(`${action.name}: ${result.error}`)
      else if (result.data === undefined) failures.push(`${action.name}: no data`)
    }
    expect(failures).toEqual([])
  })

  it("reflects what an action did in later queries", () => {
    const ctx = freshContext()
    const player = { platformId: EXAMPLE.player }
    const run = (name: string, params: Record<string, unknown> = {}) => {
      const result = runAction(ctx, name, params)
      if (!result.ok) throw new Error(`${name}: ${result.error}`)
      return result.data as Record<string, unknown>
    }
    run("player.setStat", { ...player, stat: "health", value: 20 })
    expect(run("player.stats", player)["health"]).toBe(20)
    run("player.heal", player)
    expect(run("player.stats", player)["health"]).toBe(100)
    run("player.teleport", { ...player, x: 1234.5, y: 2345.5, z: 12 })
    expect(run("player.position", player)).toMatchObject({ x: 1234.5, y: 2345.5, z: 12 })
    run("world.weather", { overcast: 0.9, rain: 0.7, fog: 0.2, snow: 0, wind: 0.4 })
    expect(run("data.server-info")["weather"]).toMatchObject({ overcast: 0.9, rain: 0.7, fog: 0.2, snow: 0, wind: 0.4 })
    run("world.time", { hour: 21, minute: 15 })
    expect(run("data.server-info")["time"]).toEqual({ hour: 21, minute: 15 })
  })

  it("takes a DayZ ID wherever a platformId goes", () => {
    const ctx = freshContext()
    const person = ctx.world.persons.get(EXAMPLE.player)!
    expect(runAction(ctx, "player.heal", { platformId: person.dayzId })).toMatchObject({ ok: true, data: { platformId: EXAMPLE.player } })
  })
})
