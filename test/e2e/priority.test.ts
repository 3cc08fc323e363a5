/**
 * Issue 6's priority "Done when", over real processes: a priority entry
 * added through the API appears in the simulated server's `priority.txt`,
 * the file is rewritten before the start, and the full server (max 1
 * player) still lets the priority player in while refusing another. A
 * delete empties the file. One test per step, in order, on one controller
 * and one simulator.
 */
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { handoff, makeFleet, rptContains, until } from "../support/fleet.js"
import { type SimInstall, simControl } from "../support/sim.js"

const VIP = "76561198012345678"
const FILLER = "76561198000000002"
const OTHER = "76561198000000003"

const fleet = makeFleet()
afterAll(() => fleet.close())

const { api } = fleet
let install: SimInstall
let id: string
const priorityTxt = () => readFileSync(NodePath.join(install.dir, "priority.txt"), "utf8")
const rpt = (text: string) => rptContains(install, text, 10_000)

// One server entry (full at one player), stopped, for all four tests.
beforeAll(async () => {
  install = await fleet.installSim({ maxPlayers: 1 })
  await fleet.startController()
  const created = await fleet.createServer(install, "Sim P")
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  id = (created.body as { id: string }).id
}, 60_000)

const entry = handoff<string>("an entry added in Steam2 form lands in priority.txt as Steam64")
const started = handoff<true>("the start rewrites priority.txt first")

// In order: the entry added by the first test is in force when the server starts and fills, then deleted.
describe.sequential("priority queue over a real server", { timeout: 60_000 }, () => {
  it("an entry added in Steam2 form lands in priority.txt as Steam64", async () => {
    const added = await api("POST", "/api/priority-queue", { platformId: "STEAM_0:0:26039975", name: "Bravo17", role: "VIP", expiresAt: null })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(priorityTxt()).toBe(VIP)
    entry.set((added.body as { id: string }).id)
  })

  it("the start rewrites priority.txt first", async () => {
    entry.get()
    const reply = await api("POST", `/api/servers/${id}/start`)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(priorityTxt()).toBe(VIP)
    await fleet.rconConnected(id, 15_000)
    started.set(true)
  })

  it("a full server lets the priority player in and refuses another", async () => {
    started.get()
    const count = () => fleet.players(id).then((p) => p.total)
    simControl(install, `join ${FILLER} Filler`)
    await until(count, (n) => n === 1, 15_000, "the first player")
    simControl(install, `join ${VIP} Bravo17`)
    await until(count, (n) => n === 2, 15_000, "the priority player in a full server")
    simControl(install, `join ${OTHER} Charlie`)
    await rpt(`Player "Charlie"(steamID=${OTHER}) kicked from server: Server is full`)
  })

  it("a delete cleans every server's priority.txt", async () => {
    const entryId = entry.get()
    started.get()
    expect((await api("DELETE", `/api/priority-queue/${entryId}`)).status).toBe(204)
    expect(priorityTxt()).toBe("")
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
  })
})
