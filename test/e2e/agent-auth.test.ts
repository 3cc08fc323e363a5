/**
 * The agent process's key and start-up rules (spec, Authentication >
 * Agent): `Authorization: Bearer <key>` on every endpoint, 401
 * `{ok:false, error:"Authorization required"}` without it or with a wrong
 * one; no key with NODE_ENV=production refuses to start in one line; no
 * key in development listens on 127.0.0.1 only and refuses another
 * AGENT_HOST.
 *
 * Needs the build (`npx tsc -b`).
 */
import { afterAll, describe, expect, it } from "vitest"
import { type AgentHandle, callAgent, closeAgentConnections, spawnAgent, startAgent, TEST_AGENT_KEY, waitForAgent } from "../support/agent.js"
import { killAllChildren, makeTempDir, removeDir, stopProcess, waitForExit } from "../support/controller.js"

const folders: Array<string> = []
const agents: Array<AgentHandle> = []
afterAll(async () => {
  closeAgentConnections()
  for (const agent of agents) await stopProcess(agent, 5_000)
  killAllChildren()
  for (const folder of folders) removeDir(folder)
})

const profiles = () => {
  const dir = makeTempDir("garrison-agent-profiles-")
  folders.push(dir)
  return dir
}

/** The start-up refusal: exit 1 and the one line that says why. */
const refused = async (agent: AgentHandle) => {
  const exit = await waitForExit(agent, 15_000)
  expect(exit, agent.output()).toEqual({ code: 1, signal: null })
  const lines = agent
    .output()
    .split("\n")
    .filter((l) => l.includes("cannot start"))
  expect(lines, agent.output()).toHaveLength(1)
  return lines[0]!
}

describe.sequential("agent key and start-up", () => {
  it("answers 401 {ok:false, error} without the key or with a wrong one, on every path; 200 with it", async () => {
    const agent = await startAgent({ profiles: profiles() })
    agents.push(agent)
    const unauthorized = { status: 401, body: { ok: false, error: "Authorization required" } }
    const sameLength = TEST_AGENT_KEY.slice(0, -1) + (TEST_AGENT_KEY.endsWith("x") ? "y" : "x")
    for (const key of [null, "", sameLength, TEST_AGENT_KEY.slice(0, 5), `${TEST_AGENT_KEY}-and-more`, TEST_AGENT_KEY.toUpperCase()]) {
      expect(await callAgent(agent, "GET", "/health", { key }), `key ${JSON.stringify(key)}`).toMatchObject(unauthorized)
      expect(await callAgent(agent, "POST", "/player/heal", { key, body: { platformId: "76561198012345678" } })).toMatchObject(unauthorized)
      expect(await callAgent(agent, "GET", "/no/such/path", { key })).toMatchObject(unauthorized)
    }
    expect(await callAgent(agent, "GET", "/health", { key: null, headers: { authorization: `Basic ${Buffer.from(`x:${TEST_AGENT_KEY}`).toString("base64")}` } })).toMatchObject(
      unauthorized
    )
    const health = await callAgent(agent, "GET", "/health")
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: "ok", version: "0.1.0", uptime: expect.any(Number), queueDir: expect.stringMatching(/Garrison[/\\]commands$/) })
    // Nothing of the refused requests reached the command folder.
    expect(agent.output()).not.toContain("player.heal")
  })

  it("refuses to start without a key when NODE_ENV=production, in one line", async () => {
    const agent = await spawnAgent({ profiles: profiles(), key: null, env: { NODE_ENV: "production" } })
    agents.push(agent)
    expect(await refused(agent)).toContain(
      "cannot start: SIDECAR_API_KEY is not set (nor the legacy INHOUSE_API_KEY): with NODE_ENV=production the agent needs a key"
    )
  })

  it("takes the legacy INHOUSE_API_KEY in production", async () => {
    const spawned = await spawnAgent({ profiles: profiles(), key: null, env: { NODE_ENV: "production", INHOUSE_API_KEY: "legacy-key-1234" } })
    agents.push(spawned)
    const agent = { ...spawned, key: "legacy-key-1234" }
    await waitForAgent(agent)
    expect((await callAgent(agent, "GET", "/health")).status).toBe(200)
    expect((await callAgent(agent, "GET", "/health", { key: null })).status).toBe(401)
  })

  it("without a key in development refuses any interface but loopback", async () => {
    const agent = await spawnAgent({ profiles: profiles(), key: null, env: { AGENT_HOST: "0.0.0.0" } })
    agents.push(agent)
    expect(await refused(agent)).toContain(
      "cannot start: AGENT_HOST=0.0.0.0 refused: without SIDECAR_API_KEY the agent listens on 127.0.0.1 only (set SIDECAR_API_KEY to listen on other interfaces)"
    )
  })

  it("without a key in development listens on 127.0.0.1 and says so", async () => {
    const agent = await startAgent({ profiles: profiles(), key: null, env: { AGENT_HOST: "" } })
    agents.push(agent)
    expect((await callAgent(agent, "GET", "/health", { key: null })).status).toBe(200)
    expect(agent.output()).toContain(`listening on http://127.0.0.1:${agent.port}`)
    expect(agent.output()).toContain("no SIDECAR_API_KEY: every request is accepted, on loopback only (development)")
    await stopProcess(agent, 5_000)
  })

  it("refuses a profiles folder that does not exist, and a taken port, in one line", async () => {
    const missing = await spawnAgent({ profiles: "/nonexistent/garrison-agent-profiles" })
    agents.push(missing)
    expect(await refused(missing)).toContain("cannot start: AGENT_PROFILES_DIR=/nonexistent/garrison-agent-profiles: no such folder")
    const first = await startAgent({ profiles: profiles() })
    agents.push(first)
    const second = await spawnAgent({ profiles: profiles(), port: first.port })
    agents.push(second)
    expect(await refused(second)).toContain(`cannot listen on 127.0.0.1:${first.port}: the port is already in use (set AGENT_PORT to a free one)`)
  })
})
