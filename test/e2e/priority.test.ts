/**
 * Issue 6's priority "Done when", over real processes: a priority entry
 * added through the API appears in the simulated server's `priority.txt`,
 * the file is rewritten before the start, and the full server (max 1
 * player) still lets the priority player in while refusing another. A
 * delete empties the file.
 */
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { makeFleet, rptContains, until } from "../support/fleet.js"
import { simControl } from "../support/sim.js"

const VIP = "76561198012345678"
const FILLER = "76561198000000002"
const OTHER = "76561198000000003"

const fleet = makeFleet()
afterAll(() => fleet.close())

describe("priority queue over a real server", () => {
  it("an entry lands in priority.txt and lets its player into a full server", { timeout: 90_000 }, async () => {
    const install = await fleet.installSim({ maxPlayers: 1 })
    await fleet.startController()
    const api = fleet.api
    const priorityTxt = () => readFileSync(NodePath.join(install.dir, "priority.txt"), "utf8")
    const rpt = (text: string) => rptContains(install, text, 10_000)

    const created = await fleet.createServer(install, "Sim P")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = (created.body as { id: string }).id

    // Added in Steam2 form; the file holds Steam64.
    const added = await api("POST", "/api/priority-queue", { platformId: "STEAM_0:0:26039975", name: "Bravo17", role: "VIP", expiresAt: null })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const entryId = (added.body as { id: string }).id
    expect(priorityTxt()).toBe(VIP)

    // The start rewrites it first, whatever was there.
    const started = await api("POST", `/api/servers/${id}/start`)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    expect(priorityTxt()).toBe(VIP)
    await fleet.rconConnected(id, 15_000)

    // Full at one player: the priority player still gets in, another does not.
    const count = () => fleet.players(id).then((p) => p.total)
    simControl(install, `join ${FILLER} Filler`)
    await until(count, (n) => n === 1, 15_000, "the first player")
    simControl(install, `join ${VIP} Bravo17`)
    await until(count, (n) => n === 2, 15_000, "the priority player in a full server")
    simControl(install, `join ${OTHER} Charlie`)
    await rpt(`Player "Charlie"(steamID=${OTHER}) kicked from server: Server is full`)

    // Delete: every server's file is cleaned.
    expect((await api("DELETE", `/api/priority-queue/${entryId}`)).status).toBe(204)
    expect(priorityTxt()).toBe("")
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
  })
})
