/**
 * The command flow between the agent process and the simulated mod, over
 * real files: stale files cleared at start, a command whose mod stopped
 * polling answered 504 within 11 s with its file withdrawn, a response
 * arriving after its time-out logged and dropped, 1,000 concurrent commands
 * against the mod's 10 per poll each answered with its own response, and
 * the mod folder deleted and made again while running.
 *
 * Needs the build (`npx tsc -b`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AgentHandle, callAgent, closeAgentConnections, startAgent } from "../support/agent.js"
import { killAllChildren, stopProcess } from "../support/controller.js"
import { installSim, killAllSims, launchSim, readAdm, type SimInstall, type SimProcess, simControl, stopSim, waitFor } from "../support/sim.js"

const A = "76561198012345678"

const installs: Array<SimInstall> = []
const sims: Array<SimProcess> = []
const agents: Array<AgentHandle> = []

afterAll(async () => {
  closeAgentConnections()
  for (const agent of agents) await stopProcess(agent, 5_000)
  for (const sim of sims) await stopSim(sim)
  killAllChildren()
  killAllSims()
  for (const install of installs) install.remove()
})

/** The mod polls every 10 ms, 10 commands at most each time. */
const MOD_POLL_MS = 10

const startSim = async (settings: Record<string, number> = {}) => {
  const install = await installSim()
  installs.push(install)
  const sim = await launchSim(install, { settings: { modPoll: MOD_POLL_MS, modBatch: 10, ...settings } })
  sims.push(sim)
  return { install, sim }
}

const modLog = (install: SimInstall) => {
  const file = readdirSync(install.profiles).find((f) => f.startsWith("script_") && f.endsWith(".log"))
  return file === undefined ? "" : readFileSync(NodePath.join(install.profiles, file), "utf8")
}

/**
 * Deletes a folder the mod keeps writing into (heartbeat, players, events): moved away in one step
 * (a rename), then removed, so nothing lands in it half-way through.
 */
const removeWhileInUse = (dir: string) => {
  const away = `${dir}.deleted-${process.hrtime.bigint()}`
  renameSync(dir, away)
  rmSync(away, { recursive: true, force: true })
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith(".")) : [])

let install: SimInstall
let agent: AgentHandle
let commands: string
let responses: string

beforeAll(async () => {
  ;({ install } = await startSim())
  commands = NodePath.join(install.profiles, "Garrison", "commands")
  responses = NodePath.join(install.profiles, "Garrison", "responses")
  simControl(install, `join ${A} Alice`)
  await waitFor(() => readAdm(install).includes("is connected"), 10_000, () => "Alice connected")
  // The mod stops polling; what an earlier agent left behind sits in its folders.
  simControl(install, "mod pause")
  await waitFor(() => modLog(install).includes("[Garrison mod] paused"), 10_000, () => "the mod paused")
  writeFileSync(NodePath.join(commands, "0c8a4f56-stale.json"), JSON.stringify({ id: "0c8a4f56-stale", action: "player.kill", params: { platformId: A }, timestamp: 1 }))
  writeFileSync(NodePath.join(responses, "5d1e2f3a-stale.json"), JSON.stringify({ id: "5d1e2f3a-stale", ok: true, data: {} }))
  agent = await startAgent({ profiles: install.profiles })
  agents.push(agent)
}, 60_000)

describe.sequential("the command flow", () => {
  it("clears stale command and response files at start", () => {
    expect(files(commands)).toEqual([])
    expect(files(responses)).toEqual([])
    expect(agent.output()).toContain("cleared 1 stale command file(s) and 1 stale response file(s)")
  })

  it("answers 504 within 11 s when the mod stopped polling, and withdraws the command file", async () => {
    const started = Date.now()
    const pending = callAgent(agent, "POST", "/player/kill", { body: { platformId: A } })
    await waitFor(() => files(commands).length === 1, 10_000, () => "the command file written")
    const answer = await pending
    const elapsed = Date.now() - started
    expect(answer.status).toBe(504)
    expect(answer.body).toEqual({ ok: false, error: "Command timed out after 10000ms", id: expect.any(String) })
    expect(elapsed).toBeGreaterThanOrEqual(10_000)
    expect(elapsed).toBeLessThan(11_000)
    // Withdrawn: when the mod polls again it finds nothing, and the player was never killed.
    expect(files(commands)).toEqual([])
    const id = (answer.body as { id: string }).id
    expect(agent.output()).toContain(`command ${id} (player.kill) timed out after 10000 ms; withdrawn before the mod took it`)
    simControl(install, "mod resume")
    await waitFor(() => modLog(install).includes("[Garrison mod] resumed"), 10_000, () => "the mod resumed")
    expect((await callAgent(agent, "GET", `/player/info?platformId=${A}`)).body).toMatchObject({ ok: true, data: { alive: true } })
    expect(modLog(install)).not.toContain("player.kill")
  }, 30_000)

  it("answers 1,000 concurrent commands against the mod's 10 per poll, each with its own response", async () => {
    let mostWaiting = 0
    const watch = setInterval(() => (mostWaiting = Math.max(mostWaiting, files(commands).length)), 5)
    const started = Date.now()
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, async (_, n) => {
        const hour = Math.floor(n / 60) % 24
        const minute = n % 60
        return { n, hour, minute, answer: await callAgent(agent, "POST", "/world/time", { body: { hour, minute } }) }
      })
    )
    clearInterval(watch)
    const lost = answers.filter(({ answer }) => answer.status !== 200)
    const mismatched = answers.filter(({ hour, minute, answer }) => {
      const data = (answer.body as { data?: { hour?: number; minute?: number } }).data
      return answer.status === 200 && (data?.hour !== hour || data?.minute !== minute)
    })
    expect(lost.map(({ n, answer }) => `${n}: ${answer.status} ${JSON.stringify(answer.body)}`)).toEqual([])
    expect(mismatched.map(({ n }) => n)).toEqual([])
    expect(new Set(answers.map(({ answer }) => answer.headers["x-command-id"])).size).toBe(1_000)
    // They queued: far more than one poll's 10 waited at once, and it took many polls.
    expect(mostWaiting).toBeGreaterThan(100)
    expect(Date.now() - started).toBeGreaterThan(MOD_POLL_MS * (1_000 / 10 - 1))
    // The mod deletes a command file just after writing its response, so the last answer may come a moment before.
    await waitFor(() => files(commands).length === 0, 10_000, () => `every command file taken: ${files(commands).join(", ")}`)
    await waitFor(() => files(responses).length === 0, 10_000, () => "every response file removed")
  }, 30_000)

  it("survives the mod folder being deleted and made again while running", async () => {
    const root = NodePath.join(install.profiles, "Garrison")
    removeWhileInUse(root)
    // The next command makes it again (or the mod does first); either way it is answered.
    expect((await callAgent(agent, "POST", "/player/heal", { body: { platformId: A } })).status).toBe(200)

    removeWhileInUse(root)
    await waitFor(() => existsSync(commands), 10_000, () => "the mod made its folder again")
    const started = Date.now()
    expect((await callAgent(agent, "GET", `/player/position?platformId=${A}`)).status).toBe(200)
    // Answered through the watcher on the new folder, not the one-second safety poll.
    expect(Date.now() - started).toBeLessThan(900)

    removeWhileInUse(root)
    mkdirSync(commands, { recursive: true })
    mkdirSync(responses, { recursive: true })
    expect((await callAgent(agent, "POST", "/world/sunny")).status).toBe(200)
  })

  it("stops at once on SIGTERM: a waiting command is answered 503 and withdrawn", async () => {
    simControl(install, "mod pause")
    await waitFor(() => modLog(install).split("[Garrison mod] paused").length === 3, 10_000, () => "the mod paused again")
    const pending = callAgent(agent, "POST", "/world/wipe-ai")
    await waitFor(() => files(commands).length === 1, 10_000, () => "the command file written")
    const started = Date.now()
    agent.child.kill("SIGTERM")
    expect(await pending).toMatchObject({ status: 503, body: { ok: false, error: "The agent is stopping; the command was withdrawn" } })
    expect(await agent.exited).toEqual({ code: 0, signal: null })
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(files(commands)).toEqual([])
    expect(agent.output()).toContain("(world.wipe-ai) abandoned: the agent is stopping; withdrawn before the mod took it")
  })

  it("logs and drops a response that arrives after its time-out", async () => {
    // Its own server: a mod that takes each command at once and answers 1.5 s later, an agent that waits 1 s.
    const slow = await startSim()
    simControl(slow.install, "mod delay 1500")
    await waitFor(() => modLog(slow.install).includes("answers 1500 ms after taking a command"), 10_000, () => "the mod slowed down")
    const impatient = await startAgent({ profiles: slow.install.profiles, env: { AGENT_COMMAND_TIMEOUT: "1 second" } })
    agents.push(impatient)
    const answer = await callAgent(impatient, "POST", "/world/time", { body: { hour: 3, minute: 3 } })
    expect(answer).toMatchObject({ status: 504, body: { ok: false, error: "Command timed out after 1000ms" } })
    const id = (answer.body as { id: string }).id
    expect(impatient.output()).toContain(`command ${id} (world.time) timed out after 1000 ms; the mod had taken it already`)
    await waitFor(() => /response to command \S+ arrived \d+ ms after its time-out; dropped/.test(impatient.output()), 10_000, () => "the late response logged")
    expect(impatient.output()).toContain(`response to command ${id} arrived`)
    await waitFor(() => files(NodePath.join(slow.install.profiles, "Garrison", "responses")).length === 0, 10_000, () => "the late response file removed")
    // The agent goes on answering.
    simControl(slow.install, "mod delay 0")
    await waitFor(() => modLog(slow.install).includes("answers 0 ms after taking a command"), 10_000)
    expect((await callAgent(impatient, "GET", "/data/server-info")).status).toBe(200)
  })
})
