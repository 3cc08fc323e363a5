/**
 * Issue 14's checks over real processes: the controller, the agent beside
 * a simulated server, and the server's companion mod. A heal through
 * `/api/servers/:id/actions/heal` shows in the mod's `/player/info`; the
 * weather set through the API shows in `/data/server-info`; a mod that
 * stopped polling answers 504 within 11 s and its command file is gone;
 * the agent refuses a call without its key (401); with the agent stopped,
 * `message` falls back to RCON and `teleport` is 503 provider-unavailable.
 * One controller, one server, one agent; the tests run in order.
 *
 * Needs the build (`npm run build`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AgentHandle, callAgent, closeAgentConnections, startAgent } from "../support/agent.js"
import { stopProcess } from "../support/controller.js"
import { fleetSimArgs, makeFleet, rptContains, until } from "../support/fleet.js"
import { modChannel, readAdm, type SimInstall, simControl, waitFor } from "../support/sim.js"

const ALICE = "76561198012345678"

const fleet = makeFleet()
let install: SimInstall
let agent: AgentHandle | undefined
let id: string

afterAll(async () => {
  closeAgentConnections()
  if (agent !== undefined && !agent.hasExited()) await stopProcess(agent, 5_000)
  await fleet.close()
})

beforeAll(async () => {
  install = await fleet.installSim()
  agent = await startAgent({ profiles: install.profiles })
  await fleet.startController()
  const created = await fleet.api("POST", "/api/servers", {
    name: "Sim A",
    installDir: install.dir,
    gamePort: install.gamePort,
    extraArgs: fleetSimArgs,
    stop: { shutdownWaitMs: 5_000, terminateWaitMs: 3_000 },
    agent: { url: agent.baseUrl, apiKey: agent.key }
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  id = (created.body as { id: string }).id
  // The key is stored, never shown.
  expect(JSON.stringify(created.body)).not.toContain(agent.key!)
  const started = await fleet.api("POST", `/api/servers/${id}/start`)
  expect(started.status, JSON.stringify(started.body)).toBeLessThan(300)
  const running = await fleet.rconConnected(id, 30_000)
  if (running.pid !== null) fleet.trackGameProcess(running.pid)
  simControl(install, `join ${ALICE} Alice`)
  await waitFor(() => readAdm(install).includes(`Player "Alice"`), 10_000, () => "Alice connected")
}, 90_000)

interface ActionReply {
  readonly action: string
  readonly provider: string
  readonly data: Record<string, unknown>
}

const action = async (method: string, path: string, body?: unknown): Promise<ActionReply> => {
  const reply = await fleet.api(method, path, body)
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(200)
  return reply.body as ActionReply
}

/** The mod's own log of what it did (`[Garrison mod] ...`). */
const modLog = () => {
  const file = readdirSync(install.profiles).find((name) => name.startsWith("script_") && name.endsWith(".log"))
  return file === undefined ? "" : readFileSync(NodePath.join(install.profiles, file), "utf8")
}

const playerInfo = async () => (await action("GET", `/api/servers/${id}/agent/player/info?platformId=${ALICE}`)).data

describe.sequential("admin actions over the agent, the mod and RCON", () => {
  it("heals a player through the API, and the mod's /player/info shows it", async () => {
    await action("POST", `/api/servers/${id}/agent/player/setStat`, { platformId: ALICE, stat: "health", value: 35 })
    expect((await playerInfo())["health"]).toBe(35)

    const healed = await action("POST", `/api/servers/${id}/actions/heal`, { platformId: ALICE })
    expect(healed).toMatchObject({ action: "player.heal", provider: "agent", data: { health: 100 } })
    expect((await playerInfo())["health"]).toBe(100)

    const audit = await fleet.api("GET", `/api/audit?action=action.player.heal`)
    expect(JSON.stringify(audit.body)).toContain(ALICE)
  })

  it("sets the weather, visible in /data/server-info; a value out of range is 400 and changes nothing", async () => {
    await action("POST", `/api/servers/${id}/actions/world/weather`, { overcast: 0.8, rain: 0.6, fog: 0.1, snow: 0, wind: 0.3 })
    const info = await action("GET", `/api/servers/${id}/agent/data/server-info`)
    expect(info.data["weather"]).toMatchObject({ overcast: 0.8, rain: 0.6, fog: 0.1, snow: 0, wind: 0.3 })

    const bad = await fleet.api("POST", `/api/servers/${id}/actions/world/weather`, { overcast: 0.2, rain: 1.5, fog: 0, snow: 0, wind: 0 })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain("rain")
    expect((await action("GET", `/api/servers/${id}/agent/data/server-info`)).data["weather"]).toMatchObject({ overcast: 0.8, rain: 0.6 })
  })

  it("a mod that stopped polling: 504 within 11 s naming the server and action, and the command file is gone", async () => {
    const channel = modChannel(install)
    expect(existsSync(channel.commands)).toBe(true)
    simControl(install, "mod pause")
    await waitFor(() => modLog().includes("[Garrison mod] paused"), 10_000, () => "the mod paused")
    const began = Date.now()
    const timedOut = await fleet.api("POST", `/api/servers/${id}/actions/teleport`, { platformId: ALICE, x: 100, y: 200, z: 3 })
    const took = Date.now() - began
    expect(timedOut.status, JSON.stringify(timedOut.body)).toBe(504)
    expect(took).toBeLessThan(11_000)
    const message = JSON.stringify(timedOut.body)
    expect(message).toContain("Sim A")
    expect(message).toContain("player.teleport")
    expect(readdirSync(channel.commands).filter((name) => !name.startsWith("."))).toEqual([])

    simControl(install, "mod resume")
    await waitFor(() => modLog().includes("[Garrison mod] resumed"), 10_000, () => "the mod resumed")
    // Once resumed, the teleport never ran late: the player is where the heal left them, then moves on request.
    await until(
      async () => (await fleet.api("POST", `/api/servers/${id}/actions/teleport`, { platformId: ALICE, x: 4512.5, y: 10210.25, z: 301 })).status,
      (status) => status === 200,
      15_000,
      "a teleport after the mod resumed"
    )
    const position = await action("GET", `/api/servers/${id}/agent/player/position?platformId=${ALICE}`)
    expect(position.data).toMatchObject({ x: 4512.5, y: 10210.25, z: 301 })
  }, 40_000)

  it("the agent refuses a call without its key or with another: 401", async () => {
    for (const key of [null, "not-the-key"]) {
      const refused = await callAgent(agent!, "POST", "/player/heal", { key, body: { platformId: ALICE } })
      expect(refused.status).toBe(401)
      expect(refused.body).toEqual({ ok: false, error: "Authorization required" })
    }
  })

  it("with the agent stopped: message falls back to RCON, teleport is 503 provider-unavailable", async () => {
    await stopProcess(agent!, 5_000)
    // The agent's health is cached for 3 s: the capabilities say it is down once that runs out.
    await until(
      async () => (await fleet.api("GET", `/api/servers/${id}/actions/capabilities`)).body,
      (body) => JSON.stringify(body).includes("is not reachable"),
      15_000,
      "the capabilities to see the agent down"
    )

    const said = await action("POST", `/api/servers/${id}/actions/message`, { platformId: ALICE, message: "hello from the panel" })
    expect(said.provider).toBe("rcon")
    await rptContains(install, "(Private) Alice: hello from the panel", 10_000)

    const refused = await fleet.api("POST", `/api/servers/${id}/actions/teleport`, { platformId: ALICE, x: 1, y: 2, z: 3 })
    expect(refused.status, JSON.stringify(refused.body)).toBe(503)
    expect(refused.body).toMatchObject({ error: "provider-unavailable" })
  }, 40_000)
})
