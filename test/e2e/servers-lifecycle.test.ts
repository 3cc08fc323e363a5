/**
 * Issue 5's "Done when", over real processes: the simulated DayZ server
 * installed into a temporary folder, the real controller (servers and
 * players plugins, header auth), one entry driven through start, players,
 * say, lock, kick, graceful stop, start again, kill -9 and the watchdog, a
 * controller restart that reattaches, a hung server stopped by SIGKILL, and
 * delete. Small actor timings come from the servers plugin's env settings.
 */
import { readdirSync, readFileSync } from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { delay } from "../support/controller.js"
import { fleetSimArgs, isAlive, makeFleet, rptContains, type ServerStatus, until } from "../support/fleet.js"
import { readRpt, simControl } from "../support/sim.js"

/** Processes whose command line holds `needle` (the sim's unique `-port=`). */
const processesWith = (needle: string): ReadonlyArray<number> =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(needle)
      } catch {
        return false
      }
    })
    .map(Number)

// Info: the shutdown line about the game servers that keep running is asserted.
const fleet = makeFleet({ logLevel: "Info" })
afterAll(() => fleet.close())

describe("server lifecycle over real processes", () => {
  it("start, players, say, lock, kick, stop, watchdog, reattach, hung stop, delete", { timeout: 150_000 }, async () => {
    const install = await fleet.installSim()
    const firstController = await fleet.startController()
    const { api, status } = fleet
    const rpt = (text: string) => rptContains(install, text, 10_000)

    // Create: RCON settings come from the install's BattlEye config; the password never comes back.
    const created = await fleet.createServer(install, "Sim 1")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const server = created.body as { id: string; rcon: { port: number; password: string } }
    expect(server.rcon).toMatchObject({ port: install.rconPort, password: "********" })
    expect(JSON.stringify(created.body)).not.toContain(install.rconPassword)
    const id = server.id

    // Start, and wait for the RCON session.
    const started = await api("POST", `/api/servers/${id}/start`)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const firstPid = (started.body as ServerStatus).pid!
    fleet.trackGameProcess(firstPid)
    await fleet.rconConnected(id, 15_000)

    // Players show in the status.
    simControl(install, "join 76561198012345678 Bravo17", "join 76561198000000002 Charlie")
    const withPlayers = await until(() => status(id), (s) => s.playerCount === 2, 15_000, "two players")
    expect(withPlayers.players.map((p) => p.name).sort()).toEqual(["Bravo17", "Charlie"])
    // Map and version, as the engine log reports them.
    const facts = await until(() => status(id), (s) => s.map !== null && s.version !== null, 15_000, "map and version")
    expect(facts.map).toBe("chernarusplus")
    expect(facts.version).toMatch(/^\d+\.\d+\.\d+$/)
    const listed = await fleet.players(id)
    expect(listed.total).toBe(2)
    expect(listed.nextCursor).toBeNull()
    expect(listed.items.map((p) => p.name).sort()).toEqual(["Bravo17", "Charlie"])

    // say -1
    const said = await api("POST", `/api/servers/${id}/message`, { message: "Restart in 5 minutes" })
    expect(said.status).toBe(200)
    await rpt("(Global) Restart in 5 minutes")

    // Lock: a join is refused.
    const locked = await api("POST", `/api/servers/${id}/lock`)
    expect(locked.status).toBe(200)
    expect((locked.body as ServerStatus).locked).toBe(true)
    simControl(install, "join 76561198000000003 Delta")
    await rpt(`Player "Delta"(steamID=76561198000000003) kicked from server: Server is locked`)
    expect((await status(id)).players.map((p) => p.name)).not.toContain("Delta")
    expect((await api("POST", `/api/servers/${id}/unlock`)).status).toBe(200)

    // Kick by name.
    const kicked = await api("POST", `/api/servers/${id}/players/Bravo17/kick`, { reason: "AFK" })
    expect(kicked.status, JSON.stringify(kicked.body)).toBe(200)
    await until(() => fleet.players(id), (p) => p.total === 1, 10_000, "the kick")
    expect((await api("POST", `/api/servers/${id}/players/Nobody/kick`, {})).status).toBe(404)

    // Graceful stop (RCON #shutdown): the RPT ends cleanly.
    const stopped = await api("POST", `/api/servers/${id}/stop`)
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200)
    expect((stopped.body as ServerStatus).status).toBe("stopped")
    expect(isAlive(firstPid)).toBe(false)
    expect(readRpt(install)).toContain("Termination successfully completed")

    // Start again, then kill -9: the watchdog brings it back.
    const again = await api("POST", `/api/servers/${id}/start`)
    expect(again.status).toBe(200)
    const secondPid = (again.body as ServerStatus).pid!
    fleet.trackGameProcess(secondPid)
    expect(secondPid).not.toBe(firstPid)
    process.kill(secondPid, "SIGKILL")
    const revived = await until(
      () => status(id),
      (s) => s.status === "running" && s.pid !== null && s.pid !== secondPid,
      15_000,
      "the watchdog restart"
    )
    const thirdPid = revived.pid!
    fleet.trackGameProcess(thirdPid)
    expect(revived.consecutiveCrashes).toBeGreaterThanOrEqual(1)
    await fleet.rconConnected(id, 15_000, "RCON after the watchdog")

    // Restart the controller: it reattaches to the same process instead of starting another.
    await fleet.stopController()
    expect(isAlive(thirdPid)).toBe(true)
    expect(firstController.output()).toContain('stopping: 1 game server(s) keep running ("Sim 1"); the next start adopts them again')
    await fleet.startController()
    const reattached = await status(id)
    expect(reattached).toMatchObject({ status: "running", pid: thirdPid })
    await delay(1_000)
    expect(processesWith(`-port=${install.gamePort}`)).toEqual([thirdPid])
    await fleet.rconConnected(id, 15_000, "RCON after reattach")

    // A hung server (ignores #shutdown and SIGTERM) is SIGKILLed after the entry's waits.
    const patched = await api("PATCH", `/api/servers/${id}`, {
      extraArgs: [...fleetSimArgs, "-simHang=1"],
      stop: { shutdownWaitMs: 800, terminateWaitMs: 800 }
    })
    expect(patched.status).toBe(200)
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
    expect(isAlive(thirdPid)).toBe(false)
    const hung = await api("POST", `/api/servers/${id}/start`)
    const hungPid = (hung.body as ServerStatus).pid!
    fleet.trackGameProcess(hungPid)
    await fleet.rconConnected(id, 15_000, "RCON on the hung server")
    const stopStarted = Date.now()
    const hungStop = await api("POST", `/api/servers/${id}/stop`)
    expect(hungStop.status, JSON.stringify(hungStop.body)).toBe(200)
    expect(Date.now() - stopStarted).toBeGreaterThanOrEqual(1_500)
    expect(isAlive(hungPid)).toBe(false)
    expect(readRpt(install)).toContain("ignored (hang mode)")

    // Delete.
    const deleted = await api("DELETE", `/api/servers/${id}`)
    expect(deleted.status).toBe(200)
    expect((await api("GET", `/api/servers/${id}/status`)).status).toBe(404)
  })
})
