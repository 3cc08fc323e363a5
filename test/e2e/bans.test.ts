/**
 * Issue 6's bans "Done when", over real processes: ban a player who is
 * online (kicked), restart the server (the player cannot rejoin: ban.txt
 * holds them), delete the ban (the player can rejoin). One test per step,
 * in order, on one controller and one running simulator.
 */
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { handoff, makeFleet, rptContains, until } from "../support/fleet.js"
import { type SimInstall, simControl } from "../support/sim.js"

const STEAM64 = "76561198012345678"

const fleet = makeFleet()
afterAll(() => fleet.close())

const { api } = fleet
let install: SimInstall
let id: string
const banTxt = () => {
  try {
    return readFileSync(NodePath.join(install.dir, "ban.txt"), "utf8")
  } catch {
    return ""
  }
}
const rpt = (text: string) => rptContains(install, text, 15_000)
const connected = () => fleet.rconConnected(id, 20_000)
const players = () => fleet.players(id)

// One server, created and running, for all three tests.
beforeAll(async () => {
  install = await fleet.installSim()
  await fleet.startController()
  const created = await fleet.createServer(install, "Sim B")
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  id = (created.body as { id: string }).id
  expect((await api("POST", `/api/servers/${id}/start`)).status).toBe(200)
  await connected()
}, 60_000)

const ban = handoff<string>("a ban kicks an online player and lands in ban.txt")
const keptOut = handoff<true>("after a restart the banned player is refused")

// In order: the ban made by the first test keeps the player out in the second and is lifted in the third.
describe.sequential("global bans over a real server", { timeout: 60_000 }, () => {
  it("a ban kicks an online player and lands in ban.txt", async () => {
    simControl(install, `join ${STEAM64} Bravo17`)
    const online = await until(players, (p) => p.total === 1, 15_000, "the player to join")
    const slot = online.items[0]!.slot
    const banned = await api("POST", `/api/servers/${id}/players/${slot}/ban`, { reason: "cheating", expiration: "perm", platformId: STEAM64 })
    expect(banned.status, JSON.stringify(banned.body)).toBe(201)
    expect((banned.body as { kicked: Array<unknown> }).kicked).toHaveLength(1)
    await until(players, (p) => p.total === 0, 15_000, "the kick")
    await until(banTxt, (t) => t.includes(STEAM64), 10_000, "ban.txt to hold the ban")
    ban.set((banned.body as { ban: { id: string } }).ban.id)
  })

  it("after a restart the banned player is refused: the start hook rewrites ban.txt first", async () => {
    ban.get()
    expect((await api("POST", `/api/servers/${id}/restart`)).status).toBe(200)
    await connected()
    expect(banTxt()).toContain(STEAM64)
    simControl(install, `join ${STEAM64} Bravo17`)
    await rpt(`Player "Bravo17"(steamID=${STEAM64}) kicked from server: You are banned (ban.txt)`)
    await until(players, (p) => p.total === 0, 15_000, "the refused player to stay out")
    keptOut.set(true)
  })

  it("lifting the ban cleans ban.txt and lets the player back in", async () => {
    const banId = ban.get()
    keptOut.get()
    expect((await api("DELETE", `/api/bans/${banId}`)).status).toBeLessThan(300)
    await until(banTxt, (t) => !t.includes(STEAM64), 10_000, "ban.txt to drop the ban")
    simControl(install, `join ${STEAM64} Bravo17`)
    await until(players, (p) => p.total === 1, 15_000, "the player to rejoin")
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
  })
})
