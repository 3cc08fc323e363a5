/**
 * Starts that cannot work say why, over real processes: a port a foreign
 * program holds refuses the start before anything is spawned (naming the
 * port), a second entry on another entry's ports is refused at create, and
 * a simulated server that dies at start leaves what it printed in
 * `lastError`. One test each, on one controller.
 */
import * as Dgram from "node:dgram"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { handoff, makeFleet, until } from "../support/fleet.js"
import type { SimInstall } from "../support/sim.js"

const fleet = makeFleet()
afterAll(() => fleet.close())

/** A UDP socket bound to `port` on every interface, as a foreign program would hold it. */
const holdUdpPort = (port: number) =>
  new Promise<Dgram.Socket>((resolve, reject) => {
    const socket = Dgram.createSocket("udp4")
    socket.once("error", reject)
    socket.bind({ port, address: "0.0.0.0", exclusive: true }, () => resolve(socket))
  })

const { api } = fleet
let held: SimInstall
let dying: SimInstall

beforeAll(async () => {
  held = await fleet.installSim()
  dying = await fleet.installSim()
  await fleet.startController()
}, 60_000)

const heldEntry = handoff<string>("another entry on a taken game port is refused at create, naming the entry that has it")

// The first test makes the entry "Held" that the second starts; the third stands alone.
describe.sequential("start failures that say why", { timeout: 60_000 }, () => {
  it("another entry on a taken game port is refused at create, naming the entry that has it", async () => {
    const created = await fleet.createServer(held, "Held")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const heldId = (created.body as { id: string }).id
    heldEntry.set(heldId)
    const clash = await api("POST", "/api/servers", { name: "Clash", installDir: dying.dir, gamePort: held.gamePort })
    expect(clash.status).toBe(409)
    expect((clash.body as { message: string }).message).toContain(
      `gamePort: port ${held.gamePort} is already taken by server "Held" (${heldId})`
    )
  })

  it("a port a foreign program holds refuses the start before anything is spawned, naming the port", async () => {
    const heldId = heldEntry.get()
    const socket = await holdUdpPort(held.gamePort)
    try {
      const refused = await api("POST", `/api/servers/${heldId}/start`)
      expect(refused.status).toBe(409)
      const message = (refused.body as { message: string }).message
      expect(message).toContain(`gamePort ${held.gamePort} (UDP) is in use on this host by another program`)
      const status = await fleet.status(heldId)
      expect(status.status).toBe("stopped")
      expect(status.pid).toBeNull()
      expect(status.lastError).toBe(message)
    } finally {
      await new Promise<void>((resolve) => socket.close(() => resolve()))
    }
  })

  it("a server that dies at start leaves its own words in lastError", async () => {
    // Its config cannot be read.
    const made = await api("POST", "/api/servers", {
      name: "Dying",
      installDir: dying.dir,
      gamePort: dying.gamePort,
      configFile: "missing.cfg",
      watchdog: false
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const dyingId = (made.body as { id: string }).id
    const started = await api("POST", `/api/servers/${dyingId}/start`)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const crashed = await until(() => fleet.status(dyingId), (s) => s.status === "crashed", 20_000, "the crash")
    expect(crashed.lastError).toContain("exited with code 1; last output:")
    expect(crashed.lastError).toMatch(/DayZServer \(simulated\): cannot read \S*missing\.cfg: ENOENT/)
  })
})
