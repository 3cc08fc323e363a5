/**
 * Issue 6's bans "Done when", over real processes: ban a player who is
 * online (kicked), restart the server (the player cannot rejoin: ban.txt
 * holds them), delete the ban (the player can rejoin).
 */
import { readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { makeFleet, rptContains, until } from "../support/fleet.js"
import { simControl } from "../support/sim.js"

const STEAM64 = "76561198012345678"

const fleet = makeFleet()
afterAll(() => fleet.close())

describe("global bans over a real server", () => {
  it("ban kicks an online player, keeps them out after a restart, and lifting it lets them back", { timeout: 120_000 }, async () => {
    const install = await fleet.installSim()
    await fleet.startController()
    const api = fleet.api
    const banTxt = () => {
      try {
        return readFileSync(NodePath.join(install.dir, "ban.txt"), "utf8")
      } catch {
        return ""
      }
    }
    const rpt = (text: string) => rptContains(install, text, 15_000)

    const created = await fleet.createServer(install, "Sim B")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = (created.body as { id: string }).id
    const connected = () => fleet.rconConnected(id, 20_000)
    const players = () => fleet.players(id)

    expect((await api("POST", `/api/servers/${id}/start`)).status).toBe(200)
    await connected()
    simControl(install, `join ${STEAM64} Bravo17`)
    const online = await until(players, (p) => p.total === 1, 15_000, "the player to join")
    const slot = online.items[0]!.slot

    // Banned while online: kicked at once, and ban.txt holds them.
    const banned = await api("POST", `/api/servers/${id}/players/${slot}/ban`, { reason: "cheating", expiration: "perm", platformId: STEAM64 })
    expect(banned.status, JSON.stringify(banned.body)).toBe(201)
    expect((banned.body as { kicked: Array<unknown> }).kicked).toHaveLength(1)
    const banId = (banned.body as { ban: { id: string } }).ban.id
    await until(players, (p) => p.total === 0, 15_000, "the kick")
    await until(banTxt, (t) => t.includes(STEAM64), 5_000, "ban.txt to hold the ban")

    // Restart: the hook rewrites ban.txt first; the player is refused.
    expect((await api("POST", `/api/servers/${id}/restart`)).status).toBe(200)
    await connected()
    expect(banTxt()).toContain(STEAM64)
    simControl(install, `join ${STEAM64} Bravo17`)
    await rpt(`Player "Bravo17"(steamID=${STEAM64}) kicked from server: You are banned (ban.txt)`)
    await until(players, (p) => p.total === 0, 15_000, "the refused player to stay out")

    // Lifted: the file is cleaned and the player gets in.
    expect((await api("DELETE", `/api/bans/${banId}`)).status).toBeLessThan(300)
    await until(banTxt, (t) => !t.includes(STEAM64), 5_000, "ban.txt to drop the ban")
    simControl(install, `join ${STEAM64} Bravo17`)
    await until(players, (p) => p.total === 1, 15_000, "the player to rejoin")
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
  })
})
