/**
 * Issue 11's server entries and simulator, over real processes: two
 * simulators installed side by side with only `--port` (the RCon port
 * derived), one entry per install folder, online players carrying the
 * Steam64 and DayZ ID the simulator's RPT and ADM logs name (and a ban by
 * name keeping the player's name), crashes and watchdog restarts logged at
 * Warning and notified, and `rconStatus` closed once a server is stopped or
 * crashed.
 *
 * One test per feature, in order, on one controller and two simulators:
 * each starts from the state the tests before it left (`describe.sequential`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ControllerHandle } from "../support/controller.js"
import { handoff, makeFleet, type ServerStatus, until } from "../support/fleet.js"
import { readAdm, readRpt, type SimInstall, simControl } from "../support/sim.js"

const BRAVO = "76561198012345678"
// The reference's worked example: the DayZ ID of BRAVO.
const BRAVO_DAYZ_ID = "yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc="

interface Player {
  readonly slot: number
  readonly name: string
  readonly steam64: string | null
  readonly dayzId: string | null
}
type Status = Omit<ServerStatus, "players"> & { readonly players: ReadonlyArray<Player> }

interface Notification {
  readonly title: string
  readonly message: string
  readonly level: string
}

const fleet = makeFleet()
afterAll(() => fleet.close())

const { api } = fleet
const status = async (id: string) => (await fleet.status(id)) as Status
const notifications = async () => ((await api("GET", "/api/notifications")).body as { items: ReadonlyArray<Notification> }).items
let a: SimInstall
let b: SimInstall
let controller: ControllerHandle

beforeAll(async () => {
  // Installed as the README shows: only --port; RCon is the game port + 4.
  a = await fleet.installSim({ deriveRconPort: true })
  b = await fleet.installSim({ deriveRconPort: true })
  controller = await fleet.startController()
}, 60_000)

const entries = handoff<{ readonly idA: string; readonly idB: string }>("one entry per install folder")
const sideBySide = handoff<true>("two servers run side by side")
const bravoOnline = handoff<true>("an online player carries the Steam64 the RPT names and the DayZ ID the ADM names")
const restartedB = handoff<number>("a crash is logged at Warning, restarted by the watchdog and notified")

// In order: the entries made by the second test are started by the third, and so on (see `handoff`).
describe.sequential("server entries and the simulator", { timeout: 60_000 }, () => {
  it("installed with only --port, a simulator's RCon port is the game port + 4", () => {
    for (const install of [a, b]) {
      expect(install.rconPort).toBe(install.gamePort + 4)
      expect(install.report).toContain(`Game port: udp ${install.gamePort}; RCon: udp 127.0.0.1:${install.rconPort} (game port + 4)`)
      expect(install.report).toContain(`-port=${install.gamePort} -profiles=profiles`)
    }
  })

  it("one entry per install folder: a second entry on a folder is refused naming the first; detect says who uses it", async () => {
    const createdA = await fleet.createServer(a, "Sim A")
    const createdB = await fleet.createServer(b, "Sim B")
    expect(createdA.status, JSON.stringify(createdA.body)).toBe(201)
    expect(createdB.status, JSON.stringify(createdB.body)).toBe(201)
    const idA = (createdA.body as { id: string }).id
    const idB = (createdB.body as { id: string }).id
    expect((createdB.body as { rcon: { port: number } }).rcon.port).toBe(b.rconPort)
    entries.set({ idA, idB })

    const duplicate = await api("POST", "/api/servers", { name: "Copy of A", installDir: `${a.dir}/` })
    expect(duplicate.status).toBe(409)
    expect((duplicate.body as { message: string }).message).toContain(`is already the install folder of server "Sim A" (${idA})`)
    const detected = await api("POST", "/api/servers/detect", { installDir: a.dir })
    expect((detected.body as { inUseBy: unknown }).inUseBy).toEqual({ id: idA, name: "Sim A" })
  })

  it("two servers run side by side", async () => {
    const { idA, idB } = entries.get()
    for (const id of [idA, idB]) {
      const started = await api("POST", `/api/servers/${id}/start`)
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      fleet.trackGameProcess((started.body as ServerStatus).pid!)
    }
    await fleet.rconConnected(idA, 20_000, "RCON of A")
    await fleet.rconConnected(idB, 20_000, "RCON of B")
    sideBySide.set(true)
  })

  it("an online player carries the Steam64 the RPT names and the DayZ ID the ADM names", async () => {
    const { idA } = entries.get()
    sideBySide.get()
    // The RPT names their Steam64, RCon lists their GUID; the status joins the two.
    simControl(a, `join ${BRAVO} Bravo17`, "join 76561198000000002 Charlie")
    const withIds = await until(
      () => status(idA),
      (s) => s.players.length === 2 && s.players.every((p) => p.steam64 !== null),
      15_000,
      "both players with their Steam64"
    )
    const bravo = withIds.players.find((p) => p.name === "Bravo17")!
    expect(bravo).toMatchObject({ steam64: BRAVO, dayzId: BRAVO_DAYZ_ID })
    expect(readRpt(a)).toContain(`Player "Bravo17" is connected (steamID=${BRAVO})`)
    expect(readAdm(a)).toContain(`Player "Bravo17" is connected (id=${BRAVO_DAYZ_ID})`)
    bravoOnline.set(true)
  })

  it("a ban by name, without typing the Steam64, keeps the player's name and kicks them", async () => {
    const { idA } = entries.get()
    // Bravo17 joined in the test before.
    bravoOnline.get()
    const banned = await api("POST", `/api/servers/${idA}/players/bravo17/ban`, { reason: "cheating" })
    expect(banned.status, JSON.stringify(banned.body)).toBe(201)
    const reply = banned.body as { ban: { platformId: string; playerName: string }; kicked: Array<{ serverId: string; player: Player }> }
    expect(reply.ban).toMatchObject({ platformId: BRAVO, playerName: "Bravo17" })
    expect(reply.kicked.map((k) => [k.serverId, k.player.steam64])).toEqual([[idA, BRAVO]])
    await until(() => status(idA), (s) => s.players.every((p) => p.name !== "Bravo17"), 15_000, "the kick")
  })

  it("a stopped server's RCON status is closed", async () => {
    const { idA } = entries.get()
    sideBySide.get()
    const stopped = await api("POST", `/api/servers/${idA}/stop`)
    expect(stopped.status).toBe(200)
    expect(stopped.body).toMatchObject({ status: "stopped", rconStatus: "closed" })
  })

  it("a crash is logged at Warning, restarted by the watchdog and notified", async () => {
    const { idB } = entries.get()
    sideBySide.get()
    const firstPid = (await status(idB)).pid!
    process.kill(firstPid, "SIGKILL")
    const revived = await until(
      () => status(idB),
      (s) => s.status === "running" && s.pid !== null && s.pid !== firstPid,
      20_000,
      "the watchdog restart"
    )
    fleet.trackGameProcess(revived.pid!)
    const afterRestart = await until(notifications, (items) => items.length >= 2, 10_000, "two notifications")
    expect(afterRestart.map((n) => [n.level, n.title])).toEqual([
      ["info", "Sim B was restarted by the watchdog"],
      ["warning", "Sim B crashed"]
    ])
    expect(afterRestart[1]!.message).toContain("killed by SIGKILL. The watchdog restarts it in")
    expect(afterRestart[0]!.message).toBe("It is running again after: killed by SIGKILL.")
    await until(
      () => controller.output(),
      (out) => /WARN/.test(out) && out.includes("server Sim B crashed: killed by SIGKILL; the watchdog restarts it in"),
      5_000,
      "the crash warning in the controller's log"
    )
    expect(controller.output()).toContain("server Sim B was restarted by the watchdog after: killed by SIGKILL")
    restartedB.set(revived.pid!)
  })

  it("with the watchdog off, a crash leaves it crashed with RCON closed, and says so", async () => {
    const { idB } = entries.get()
    const pid = restartedB.get()
    await fleet.rconConnected(idB, 20_000, "RCON of B after the restart")
    expect((await api("PATCH", `/api/servers/${idB}`, { watchdog: false })).status).toBe(200)
    process.kill(pid, "SIGKILL")
    const crashed = await until(() => status(idB), (s) => s.status === "crashed", 15_000, "B crashed")
    expect(crashed).toMatchObject({ rconStatus: "closed", lastError: "killed by SIGKILL", players: [] })
    const afterCrash = await until(notifications, (items) => items.length >= 3, 10_000, "the third notification")
    expect(afterCrash[0]).toMatchObject({ level: "error", title: "Sim B crashed" })
    expect(afterCrash[0]!.message).toBe("killed by SIGKILL. Its watchdog is off, so it stays down until someone starts it.")
  })
})
