/**
 * Issue 5's "Done when", over real processes: the simulated DayZ server
 * installed into a temporary folder, the real controller (servers and
 * players plugins, header auth), one entry driven through start, players,
 * say, lock, kick, graceful stop, start again, kill -9 and the watchdog, a
 * controller restart that reattaches, a hung server stopped by SIGKILL, and
 * delete. Small actor timings come from the servers plugin's env settings.
 *
 * One test per feature, in order, on one controller and one simulator: each
 * starts from the state the test before it left (see `describe.sequential`).
 */
import { ATTACHED_POLL_INTERVAL } from "@garrison/runtime"
import { Duration } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ControllerHandle, delay } from "../support/controller.js"
import { FLEET_WATCHDOG_BASE_DELAY_MS, fleetSimArgs, handoff, isAlive, makeFleet, rptContains, type ServerStatus, until } from "../support/fleet.js"
import { readRpt, type SimInstall, simControl } from "../support/sim.js"

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

const { api, status } = fleet
let install: SimInstall
let firstController: ControllerHandle
const rpt = (text: string) => rptContains(install, text, 10_000)

beforeAll(async () => {
  install = await fleet.installSim()
  firstController = await fleet.startController()
}, 60_000)

const server = handoff<string>("create")
const running = handoff<number>("start")
const revived = handoff<number>("the watchdog")

// In order: each test drives the one server on from where the test before it left it.
describe.sequential("server lifecycle over real processes", { timeout: 60_000 }, () => {
  it("create: RCON settings come from the install's BattlEye config; the password never comes back", async () => {
    const created = await fleet.createServer(install, "Sim 1")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const body = created.body as { id: string; rcon: { port: number; password: string } }
    expect(body.rcon).toMatchObject({ port: install.rconPort, password: "********" })
    expect(JSON.stringify(created.body)).not.toContain(install.rconPassword)
    server.set(body.id)
  })

  it("start: the process runs and the RCON session connects", async () => {
    const id = server.get()
    const started = await api("POST", `/api/servers/${id}/start`)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const pid = (started.body as ServerStatus).pid!
    fleet.trackGameProcess(pid)
    await fleet.rconConnected(id, 15_000)
    running.set(pid)
  })

  it("players show in the status and the players list; map and version come from the engine log", async () => {
    const id = server.get()
    running.get()
    simControl(install, "join 76561198012345678 Bravo17", "join 76561198000000002 Charlie")
    const withPlayers = await until(() => status(id), (s) => s.playerCount === 2, 15_000, "two players")
    expect(withPlayers.players.map((p) => p.name).sort()).toEqual(["Bravo17", "Charlie"])
    const facts = await until(() => status(id), (s) => s.map !== null && s.version !== null, 15_000, "map and version")
    expect(facts.map).toBe("chernarusplus")
    expect(facts.version).toMatch(/^\d+\.\d+\.\d+$/)
    // The list row shows the same live facts.
    const rows = (await api("GET", "/api/servers")).body as { items: ReadonlyArray<{ id: string; map: string | null; version: string | null }> }
    expect(rows.items.find((row) => row.id === id)).toMatchObject({ map: "chernarusplus", version: facts.version })
    const listed = await fleet.players(id)
    expect(listed.total).toBe(2)
    expect(listed.nextCursor).toBeNull()
    expect(listed.items.map((p) => p.name).sort()).toEqual(["Bravo17", "Charlie"])
  })

  it("a message to everyone (say -1) reaches the game", async () => {
    const said = await api("POST", `/api/servers/${server.get()}/message`, { message: "Restart in 5 minutes" })
    expect(said.status).toBe(200)
    await rpt("(Global) Restart in 5 minutes")
  })

  it("lock refuses a join; unlock", async () => {
    const id = server.get()
    const locked = await api("POST", `/api/servers/${id}/lock`)
    expect(locked.status).toBe(200)
    expect((locked.body as ServerStatus).locked).toBe(true)
    simControl(install, "join 76561198000000003 Delta")
    await rpt(`Player "Delta"(steamID=76561198000000003) kicked from server: Server is locked`)
    expect((await status(id)).players.map((p) => p.name)).not.toContain("Delta")
    expect((await api("POST", `/api/servers/${id}/unlock`)).status).toBe(200)
  })

  it("kick by name; an unknown name is 404", async () => {
    const id = server.get()
    // The two players who joined in "players show ...".
    await until(() => fleet.players(id), (p) => p.total === 2, 10_000, "the two players")
    const kicked = await api("POST", `/api/servers/${id}/players/Bravo17/kick`, { reason: "AFK" })
    expect(kicked.status, JSON.stringify(kicked.body)).toBe(200)
    await until(() => fleet.players(id), (p) => p.total === 1, 10_000, "the kick")
    expect((await api("POST", `/api/servers/${id}/players/Nobody/kick`, {})).status).toBe(404)
  })

  it("a graceful stop (RCON #shutdown) ends the process and the RPT cleanly", async () => {
    const stopped = await api("POST", `/api/servers/${server.get()}/stop`)
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200)
    expect((stopped.body as ServerStatus).status).toBe("stopped")
    expect(isAlive(running.get())).toBe(false)
    expect(readRpt(install)).toContain("Termination successfully completed")
  })

  it("after kill -9 the watchdog starts it again", async () => {
    const id = server.get()
    const firstPid = running.get()
    const again = await api("POST", `/api/servers/${id}/start`)
    expect(again.status).toBe(200)
    const secondPid = (again.body as ServerStatus).pid!
    fleet.trackGameProcess(secondPid)
    expect(secondPid).not.toBe(firstPid)
    process.kill(secondPid, "SIGKILL")
    const back = await until(
      () => status(id),
      (s) => s.status === "running" && s.pid !== null && s.pid !== secondPid,
      15_000,
      "the watchdog restart"
    )
    fleet.trackGameProcess(back.pid!)
    expect(back.consecutiveCrashes).toBeGreaterThanOrEqual(1)
    await fleet.rconConnected(id, 15_000, "RCON after the watchdog")
    revived.set(back.pid!)
  })

  it("a restarted controller reattaches to the running process instead of starting another", async () => {
    const id = server.get()
    const pid = revived.get()
    await fleet.stopController()
    expect(isAlive(pid)).toBe(true)
    expect(firstController.output()).toContain('stopping: 1 game server(s) keep running ("Sim 1"); the next start adopts them again')
    await fleet.startController()
    const up = Date.now()
    const reattached = await status(id)
    expect(reattached).toMatchObject({ status: "running", pid })
    await fleet.rconConnected(id, 15_000, "RCON after reattach")
    // Kept real: the adopted process is not the controller's child, so its watcher polls it; a wrong
    // "it exited" would start another one poll and one watchdog delay later, and a poll that finds it
    // alive sends no signal. So: two polls and the watchdog's delay from start-up, then count.
    const window = 2 * Duration.toMillis(ATTACHED_POLL_INTERVAL) + FLEET_WATCHDOG_BASE_DELAY_MS
    await delay(Math.max(0, up + window - Date.now()))
    expect(processesWith(`-port=${install.gamePort}`)).toEqual([pid])
    expect(await status(id)).toMatchObject({ status: "running", pid, consecutiveCrashes: reattached.consecutiveCrashes })
  })

  it("a hung server (ignoring #shutdown and SIGTERM) is SIGKILLed after the entry's waits", async () => {
    const id = server.get()
    const pid = revived.get()
    const patched = await api("PATCH", `/api/servers/${id}`, {
      extraArgs: [...fleetSimArgs, "-simHang=1"],
      stop: { shutdownWaitMs: 800, terminateWaitMs: 800 }
    })
    expect(patched.status).toBe(200)
    expect((await api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
    expect(isAlive(pid)).toBe(false)
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
  })

  it("delete: the entry is gone", async () => {
    const id = server.get()
    const deleted = await api("DELETE", `/api/servers/${id}`)
    expect(deleted.status).toBe(200)
    expect((await api("GET", `/api/servers/${id}/status`)).status).toBe(404)
  })
})
