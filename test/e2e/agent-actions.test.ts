/**
 * The agent process in front of the simulated DayZ server and its mod:
 * actions round-trip through the files and show in later queries (heal,
 * teleport, weather), every catalogue query answers, the typed client works
 * against the real process, bad input is 400 naming the field and never
 * reaches the mod, and `/health` reports whether the mod is answering.
 *
 * Needs the build (`npx tsc -b`).
 */
import { FetchHttpClient } from "@effect/platform"
import { AgentClient, AgentInvalidInput, AgentModError, catalogue } from "@garrison/agent"
import { Effect, Exit, Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AgentHandle, callAgent, closeAgentConnections, startAgent } from "../support/agent.js"
import { killAllChildren, stopProcess } from "../support/controller.js"
import { until } from "../support/fleet.js"
import { installSim, killAllSims, launchSim, readAdm, type SimInstall, type SimProcess, simControl, stopSim, waitFor } from "../support/sim.js"

const A = "76561198012345678"
const B = "76561198000000042"

let install: SimInstall
let sim: SimProcess
let agent: AgentHandle

beforeAll(async () => {
  install = await installSim()
  sim = await launchSim(install, { settings: { modPoll: 20 } })
  agent = await startAgent({ profiles: install.profiles, env: { AGENT_MOD_STALE_AFTER: "1 second" } })
  simControl(install, `join ${A} Alice`, `join ${B} Bob`)
  await waitFor(() => readAdm(install).split("is connected").length - 1 === 2, 10_000, () => "both players connected")
}, 60_000)

afterAll(async () => {
  closeAgentConnections()
  if (agent !== undefined) await stopProcess(agent, 5_000)
  if (sim !== undefined) await stopSim(sim)
  killAllChildren()
  killAllSims()
  install?.remove()
})

/** The mod's own log of what it ran (`[Garrison mod] <action> ok|failed: ...`). */
const modLog = () => {
  const file = readdirSync(install.profiles).find((f) => f.startsWith("script_") && f.endsWith(".log"))
  return file === undefined ? "" : readFileSync(NodePath.join(install.profiles, file), "utf8")
}

const ok = async (method: string, path: string, body?: unknown) => {
  const answer = await callAgent(agent, method, path, body === undefined ? {} : { body })
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200)
  const parsed = answer.body as { ok: boolean; data: Record<string, unknown> }
  expect(parsed.ok).toBe(true)
  return parsed.data
}

const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()

describe.sequential("the agent with the simulated server", () => {
  it("heals, teleports and sets the weather, each visible in a later query", async () => {
    await ok("POST", "/player/setStat", { platformId: A, stat: "health", value: 35 })
    expect((await ok("GET", `/player/stats?${query({ platformId: A })}`))["health"]).toBe(35)
    expect(await ok("POST", "/player/heal", { platformId: A })).toMatchObject({ platformId: A, name: "Alice", health: 100, blood: 5000 })
    expect((await ok("GET", `/player/stats?${query({ platformId: A })}`))["health"]).toBe(100)

    await ok("POST", "/player/teleport", { platformId: A, x: 4512.5, y: 10210.25, z: 301 })
    expect(await ok("GET", `/player/position?${query({ platformId: A })}`)).toEqual({ platformId: A, x: 4512.5, y: 10210.25, z: 301 })
    const near = await ok("GET", `/data/nearby-players?${query({ platformId: B, radius: 20_000 })}`)
    expect((near["players"] as Array<{ platformId: string; position: unknown }>).find((p) => p.platformId === A)?.position).toEqual({ x: 4512.5, y: 10210.25, z: 301 })

    await ok("POST", "/world/weather", { overcast: 0.9, rain: 0.75, fog: 0.2, snow: 0, wind: 0.4 })
    expect((await ok("GET", "/data/server-info"))["weather"]).toMatchObject({ overcast: 0.9, rain: 0.75, fog: 0.2, snow: 0, wind: 0.4 })
    await ok("POST", "/world/sunny")
    expect((await ok("GET", "/data/server-info"))["weather"]).toMatchObject({ overcast: 0, rain: 0, fog: 0, snow: 0 })
    await ok("POST", "/world/time", { hour: 5, minute: 45 })
    expect((await ok("GET", "/data/server-info"))["time"]).toEqual({ hour: 5, minute: 45 })
  })

  it("answers every catalogue query (the GETs) with its example", async () => {
    for (const action of catalogue.filter((a) => a.query)) {
      let path = action.path
      const params: Record<string, string> = {}
      for (const [key, value] of Object.entries(action.example)) {
        if (path.includes(`:${key}`)) path = path.replace(`:${key}`, encodeURIComponent(String(value)))
        else params[key] = Array.isArray(value) ? value.join(",") : String(value)
      }
      const target = Object.keys(params).length === 0 ? path : `${path}?${new URLSearchParams(params).toString()}`
      const answer = await callAgent(agent, "GET", target)
      expect(answer.status, `${action.name} ${target}: ${JSON.stringify(answer.body)}`).toBe(200)
    }
  })

  it("serves the typed client: data, the mod's errors, and input refused before it is sent", async () => {
    const program = Effect.gen(function* () {
      const client = yield* AgentClient.make({ baseUrl: agent.baseUrl, key: agent.key ?? undefined })
      const info = yield* client.api.player.info({ urlParams: { platformId: B } })
      expect(info.data).toMatchObject({ platformId: B, name: "Bob", online: true })
      expect(yield* client.call("player.freeze", { platformId: B, frozen: 1 })).toMatchObject({ frozen: true })
      expect(yield* client.call("player.info", { platformId: B })).toMatchObject({ frozen: true })
      const offline = yield* Effect.exit(client.call("player.heal", { platformId: "76561198099999999" }))
      expect(Exit.isFailure(offline) && offline.cause._tag === "Fail" && offline.cause.error).toBeInstanceOf(AgentModError)
      expect(Exit.isFailure(offline) && offline.cause._tag === "Fail" && offline.cause.error.message).toBe("player 76561198099999999 is not online")
      const bad = yield* Effect.exit(client.call("player.spawnItem", { platformId: A, itemClass: "M4A1", quantity: 0 }))
      expect(bad).toEqual(Exit.fail(new AgentInvalidInput({ error: "quantity: must be an integer from 1 to 100", field: "quantity" })))
      const health = yield* client.health
      expect(health.status).toBe("ok")
    })
    await Effect.runPromise(program.pipe(Effect.provide(FetchHttpClient.layer)))
  })

  it("answers 400 naming the field for bad bodies and queries, and the mod never sees them", async () => {
    const before = modLog()
    const bad = [
      ["POST", "/world/weather", { overcast: 0.5, rain: 1.5, fog: 0, snow: 0, wind: 0 }, "rain", "rain: must be a number from 0.0 to 1.0"],
      ["POST", "/spawn/zombie-at", { count: 2, coords: [7500, 7500] }, "coords", "coords: must be [x, y, z], three finite numbers"],
      ["POST", "/player/spawnItem", { platformId: A, itemClass: "M4A1", quantity: 0 }, "quantity", "quantity: must be an integer from 1 to 100"],
      ["POST", "/player/teleport", { platformId: A, x: 1, y: 2 }, "z", "z: is required"],
      ["POST", "/player/freeze", { platformId: A, frozen: 2 }, "frozen", "frozen: must be 1 (freeze) or 0 (unfreeze)"],
      ["POST", "/player/heal", { platformId: "12345" }, "platformId", "platformId: must be a Steam64 (17 digits starting 7656119) or a 44-character DayZ ID"],
      ["GET", `/data/nearby-entities-at?${query({ coords: "1,2", radius: 10 })}`, undefined, "coords", 'coords: must be "x,y,z", three finite numbers'],
      ["GET", `/data/nearby-loot?${query({ platformId: A, radius: 10, limit: 0 })}`, undefined, "limit", "limit: must be an integer from 1 to 1000"]
    ] as const
    for (const [method, path, body, field, error] of bad) {
      const answer = await callAgent(agent, method, path, body === undefined ? {} : { body })
      expect(answer, `${method} ${path}`).toMatchObject({ status: 400, body: { ok: false, error, field } })
    }
    expect(readdirSync(NodePath.join(install.profiles, "Garrison", "commands"))).toEqual([])
    // A marker command after them: the mod's log shows it, and nothing of the refused ones.
    await ok("POST", "/player/message", { platformId: A, message: "marker-after-bad-input" })
    await waitFor(() => modLog().includes("player.message ok"), 10_000, () => "the marker in the mod's log")
    const added = modLog().slice(before.length)
    expect(added).not.toMatch(/world\.weather|spawn\.zombie-at|player\.spawnItem|player\.teleport|player\.freeze|player\.heal|nearby-entities-at|data\.nearby-loot /)
    expect(added).toContain("player.message ok")
  })

  it("reports in /health whether the mod is answering: its heartbeat, its last response", async () => {
    type Health = { status: string; version: string; uptime: number; queueDir: string; mod: { answering: boolean; heartbeatAgeMs: number | null; lastResponseAgeMs: number | null; pending: number } }
    const health = async () => (await callAgent(agent, "GET", "/health")).body as Health
    await ok("GET", "/data/server-info")
    const live = await health()
    expect(live).toMatchObject({ status: "ok", version: "0.1.0", mod: { answering: true, pending: 0 } })
    expect(live.mod.heartbeatAgeMs).toBeLessThan(1_000)
    expect(live.mod.lastResponseAgeMs).toBeLessThan(1_000)
    expect(live.queueDir).toBe(NodePath.join(install.profiles, "Garrison", "commands"))
    expect(Schema.is(Schema.Number)(live.uptime)).toBe(true)

    simControl(install, "mod pause")
    await waitFor(() => modLog().includes("[Garrison mod] paused"), 10_000, () => "the mod paused")
    // AGENT_MOD_STALE_AFTER is 1 s here: once the heartbeat and the last response are older, the mod is not answering.
    const stale = await until(health, (h) => !h.mod.answering, 5_000, "the agent to call the paused mod not answering")
    expect(stale.mod).toMatchObject({ answering: false })
    expect(stale.mod.heartbeatAgeMs).toBeGreaterThan(1_000)

    simControl(install, "mod resume")
    await waitFor(() => modLog().includes("[Garrison mod] resumed"), 10_000, () => "the mod resumed")
    const back = await until(health, (h) => h.mod.answering, 5_000, "the agent to call the resumed mod answering")
    expect(back.mod.answering).toBe(true)
  })
})
