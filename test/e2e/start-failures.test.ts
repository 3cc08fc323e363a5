/**
 * Starts that cannot work say why, over real processes: a port a foreign
 * program holds refuses the start before anything is spawned (naming the
 * port), a second entry on another entry's ports is refused at create, and
 * a simulated server that dies at start leaves what it printed in
 * `lastError`.
 */
import * as Dgram from "node:dgram"
import { afterAll, describe, expect, it } from "vitest"
import { makeFleet, until } from "../support/fleet.js"

const fleet = makeFleet()
afterAll(() => fleet.close())

/** A UDP socket bound to `port` on every interface, as a foreign program would hold it. */
const holdUdpPort = (port: number) =>
  new Promise<Dgram.Socket>((resolve, reject) => {
    const socket = Dgram.createSocket("udp4")
    socket.once("error", reject)
    socket.bind({ port, address: "0.0.0.0", exclusive: true }, () => resolve(socket))
  })

describe("start failures that say why", () => {
  it("a held port refuses the start naming it; a port clash refuses the create; a dying server leaves its output", { timeout: 90_000 }, async () => {
    const held = await fleet.installSim()
    const dying = await fleet.installSim()
    await fleet.startController()
    const { api } = fleet

    const created = await fleet.createServer(held, "Held")
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const heldId = (created.body as { id: string }).id

    // Another entry on Held's game port is refused at create, naming Held.
    const clash = await api("POST", "/api/servers", { name: "Clash", installDir: dying.dir, gamePort: held.gamePort })
    expect(clash.status).toBe(409)
    expect((clash.body as { message: string }).message).toContain(
      `gamePort: port ${held.gamePort} is already taken by server "Held" (${heldId})`
    )

    // A foreign program on the game port: the start is refused before anything is spawned.
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

    // A server whose config cannot be read dies at start; its own words are the reason.
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
