/**
 * Agent overhead: a command's round trip through the agent process (HTTP
 * request, command file, a mod that answers as soon as its watcher sees
 * the file, response file, HTTP answer) against the bare file round trip
 * with the same mod (write a command file, the mod's watcher sees it and
 * writes the answer, our watcher sees that), one command at a time, in
 * alternating rounds of the same run so a noisy machine disturbs both
 * alike. Goal: agent overhead over the bare round trip p50 <= 3 ms and
 * p99 <= 15 ms.
 *
 * Then a burst: 1,000 concurrent commands through the agent to the
 * simulated server, whose mod takes at most 10 per poll; every one must be
 * answered with its own response. Goal: 0 lost, 0 mismatched.
 *
 * Env: BENCH_AGENT_ROUNDS (10), BENCH_AGENT_PER_ROUND (200: commands per
 * side per round), BENCH_AGENT_WARMUP (300), BENCH_AGENT_BURST (1000),
 * BENCH_AGENT_MOD_POLL (20: the simulated mod's poll, ms).
 * Run alone: `node test/dist/bench/agent.js`; with the rest: `npm run bench`.
 */
import { randomUUID } from "node:crypto"
import * as Fs from "node:fs"
import * as FsP from "node:fs/promises"
import { availableParallelism } from "node:os"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import { type AgentHandle, callAgent, closeAgentConnections, startAgent } from "../support/agent.js"
import { type ChildHandle, killAllChildren, makeTempDir, removeDir, spawnNode, stopProcess } from "../support/controller.js"
import { installSim, killAllSims, launchSim, type SimInstall, type SimProcess, stopSim, waitFor } from "../support/sim.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { instantModScript } from "./internal/instantMod.js"

const GOAL_P50_MS = 3
const GOAL_P99_MS = 15

const settings = () => ({
  rounds: envInt("BENCH_AGENT_ROUNDS", 10),
  perRound: envInt("BENCH_AGENT_PER_ROUND", 200),
  warmup: envInt("BENCH_AGENT_WARMUP", 300),
  burst: envInt("BENCH_AGENT_BURST", 1000),
  modPoll: envInt("BENCH_AGENT_MOD_POLL", 20)
})

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** The bare file round trip, in this process: the same work as the agent's minus HTTP and Effect. */
const bareChannel = (root: string) => {
  const commands = NodePath.join(root, "commands")
  const responses = NodePath.join(root, "responses")
  const waiting = new Map<string, () => void>()
  const watcher = Fs.watch(responses, (_event, name) => {
    if (name === null) return
    const text = name.toString()
    if (!text.endsWith(".json") || text.startsWith(".")) return
    const id = text.slice(0, -".json".length)
    const resolve = waiting.get(id)
    if (resolve === undefined) return
    waiting.delete(id)
    resolve()
  })
  const once = async (): Promise<number> => {
    const id = randomUUID()
    const started = performance.now()
    const answered = new Promise<void>((resolve) => waiting.set(id, resolve))
    const temp = NodePath.join(commands, `.agent-${id}.tmp`)
    await FsP.writeFile(temp, JSON.stringify({ id, action: "player.heal", params: { platformId: "76561198012345678" }, timestamp: Date.now() }), { flag: "wx" })
    await FsP.rename(temp, NodePath.join(commands, `${id}.json`))
    await answered
    const path = NodePath.join(responses, `${id}.json`)
    const response = JSON.parse(await FsP.readFile(path, "utf8")) as { id: string }
    await FsP.unlink(path)
    if (response.id !== id) throw new Error(`bare round trip: response for ${response.id}, expected ${id}`)
    return performance.now() - started
  }
  return { once, close: () => watcher.close() }
}

const throughAgent = async (agent: AgentHandle): Promise<number> => {
  const started = performance.now()
  const answer = await callAgent(agent, "POST", "/player/heal", { body: { platformId: "76561198012345678" } })
  if (answer.status !== 200) throw new Error(`the agent answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return performance.now() - started
}

interface Measured {
  readonly p50: number
  readonly p99: number
  readonly mean: number
  readonly count: number
}

const summarise = (latencies: Array<number>): Measured => {
  latencies.sort((a, b) => a - b)
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length), count: latencies.length }
}

const row = (label: string, m: Measured) =>
  `  ${label.padEnd(22)} p50 ${m.p50.toFixed(3).padStart(7)} ms   p99 ${m.p99.toFixed(3).padStart(7)} ms   mean ${m.mean.toFixed(3).padStart(7)} ms   ${m.count} commands`

/** Alternating rounds, one command at a time on each side. */
const measureRoundTrips = async (s: ReturnType<typeof settings>) => {
  const folder = makeTempDir("garrison-bench-agent-")
  const bareRoot = NodePath.join(folder, "bare", "Garrison")
  const agentProfiles = NodePath.join(folder, "agent")
  const agentRoot = NodePath.join(agentProfiles, "Garrison")
  for (const root of [bareRoot, agentRoot]) for (const sub of ["commands", "responses"]) Fs.mkdirSync(NodePath.join(root, sub), { recursive: true })
  let mod: ChildHandle | undefined
  let agent: AgentHandle | undefined
  const bare = bareChannel(bareRoot)
  try {
    mod = spawnNode({ args: [fileURLToPath(instantModScript)], env: { ROOTS: [bareRoot, agentRoot].join(NodePath.delimiter) } })
    const modHandle = mod
    await waitFor(() => modHandle.output().includes("instant mod ready"), 10_000, () => `the mod did not start: ${modHandle.output()}`)
    agent = await startAgent({ profiles: agentProfiles, env: { LOG_LEVEL: "Warning" } })
    for (let i = 0; i < s.warmup; i++) {
      await bare.once()
      await throughAgent(agent)
    }
    const bareLatencies: Array<number> = []
    const agentLatencies: Array<number> = []
    for (let round = 0; round < s.rounds; round++) {
      for (let i = 0; i < s.perRound; i++) bareLatencies.push(await bare.once())
      for (let i = 0; i < s.perRound; i++) agentLatencies.push(await throughAgent(agent))
    }
    return { bare: summarise(bareLatencies), agent: summarise(agentLatencies) }
  } finally {
    bare.close()
    if (agent !== undefined) await stopProcess(agent, 5_000)
    if (mod !== undefined) await stopProcess(mod, 5_000)
    removeDir(folder)
  }
}

/** 1,000 commands at once against the simulated mod's 10 per poll. */
const measureBurst = async (s: ReturnType<typeof settings>) => {
  let sim: SimProcess | undefined
  let agent: AgentHandle | undefined
  const install: SimInstall = await installSim()
  try {
    sim = await launchSim(install, { settings: { modPoll: s.modPoll, modBatch: 10 } })
    agent = await startAgent({ profiles: install.profiles, env: { LOG_LEVEL: "Warning" } })
    const commands = NodePath.join(install.profiles, "Garrison", "commands")
    let mostWaiting = 0
    const watch = setInterval(() => {
      try {
        mostWaiting = Math.max(mostWaiting, Fs.readdirSync(commands).length)
      } catch {
        // Between polls the folder is always there; ignore a race with its listing.
      }
    }, 5)
    const agentHandle = agent
    const started = performance.now()
    const answers = await Promise.all(
      Array.from({ length: s.burst }, async (_, n) => {
        const hour = Math.floor(n / 60) % 24
        const minute = n % 60
        try {
          const answer = await callAgent(agentHandle, "POST", "/world/time", { body: { hour, minute } })
          const data = (answer.body as { data?: { hour?: number; minute?: number } }).data
          return answer.status !== 200 ? ("lost" as const) : data?.hour === hour && data.minute === minute ? ("ok" as const) : ("mismatched" as const)
        } catch {
          return "lost" as const
        }
      })
    )
    const seconds = (performance.now() - started) / 1000
    clearInterval(watch)
    if (sim.hasExited()) throw new Error(`the simulator exited during the benchmark; output:\n${sim.output()}`)
    return {
      lost: answers.filter((a) => a === "lost").length,
      mismatched: answers.filter((a) => a === "mismatched").length,
      seconds,
      mostWaiting
    }
  } finally {
    if (agent !== undefined) await stopProcess(agent, 5_000)
    if (sim !== undefined) await stopSim(sim, 5_000)
    install.remove()
  }
}

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  console.log(
    `agent: one command at a time, ${s.warmup} warm-up + ${s.rounds} rounds of ${s.perRound} per side, alternating; ` +
      `then ${s.burst} at once against the simulated mod (10 per ${s.modPoll} ms poll); node ${process.version}, ${availableParallelism()} CPUs`
  )
  try {
    const { bare, agent } = await measureRoundTrips(s)
    console.log(row("bare file round trip", bare))
    console.log(row("through the agent", agent))
    const overheadP50 = agent.p50 - bare.p50
    const overheadP99 = agent.p99 - bare.p99
    console.log(`  agent overhead: p50 ${overheadP50.toFixed(3)} ms (goal <= ${GOAL_P50_MS}), p99 ${overheadP99.toFixed(3)} ms (goal <= ${GOAL_P99_MS})`)
    const burst = await measureBurst(s)
    console.log(
      `  burst: ${s.burst} at once answered in ${burst.seconds.toFixed(2)} s, at most ${burst.mostWaiting} command files waiting; ` +
        `${burst.lost} lost, ${burst.mismatched} mismatched`
    )
    return {
      headline:
        `bare p50 ${bare.p50.toFixed(3)} ms p99 ${bare.p99.toFixed(3)} ms, agent p50 ${agent.p50.toFixed(3)} ms p99 ${agent.p99.toFixed(3)} ms, ` +
        `overhead p50 ${overheadP50.toFixed(3)} ms p99 ${overheadP99.toFixed(3)} ms; burst of ${s.burst}: ${burst.lost} lost, ${burst.mismatched} mismatched in ${burst.seconds.toFixed(2)} s`,
      goals: [
        { description: `agent overhead p50 <= ${GOAL_P50_MS} ms`, met: overheadP50 <= GOAL_P50_MS },
        { description: `agent overhead p99 <= ${GOAL_P99_MS} ms`, met: overheadP99 <= GOAL_P99_MS },
        { description: `${s.burst} concurrent commands: 0 lost, 0 mismatched`, met: burst.lost === 0 && burst.mismatched === 0 }
      ]
    }
  } finally {
    closeAgentConnections()
  }
}

export const benchmark: Benchmark = {
  name: "agent",
  description: "command round trip through the agent vs the bare file round trip; 1,000 concurrent commands against the 10-per-poll mod",
  budgetMs: 180_000,
  run
}

// `node test/dist/bench/agent.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, () => {
  killAllChildren()
  killAllSims()
})
