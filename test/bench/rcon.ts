/**
 * RCON overhead: commands per second and round-trip p50/p99 from Garrison's
 * BattlEye client to the simulated DayZ server (`players` with a few players
 * online), against a raw `node:dgram` client sending the same BattlEye
 * command packets to a bare UDP echo server, with the same number of
 * commands in flight, in the same run. Both servers are child processes on
 * loopback. The two loads alternate in one-second rounds (never at the same
 * time), so a noisy machine disturbs both alike; the ratio is of the totals.
 * Goal: client/raw commands/s >= 0.5.
 *
 * Env: BENCH_RCON_CONCURRENCY (32), BENCH_RCON_DURATION_S (6: seconds of
 * measurement per side, in one-second rounds), BENCH_RCON_WARMUP_S (1),
 * BENCH_RCON_PLAYERS (5).
 * Run alone: `node test/dist/bench/rcon.js`; with the rest: `npm run bench`.
 */
import { BattlEyeClient, BattlEyePacket, parsePlayers, type RconClient } from "@garrison/runtime"
import { Effect } from "effect"
import * as Dgram from "node:dgram"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { type ChildHandle, HOST, killAllChildren, spawnNode, stopProcess } from "../support/controller.js"
import {
  freeUdpPort,
  installSim,
  killAllSims,
  launchSim,
  readAdm,
  type SimInstall,
  type SimProcess,
  stopSim,
  waitFor
} from "../support/sim.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { udpEchoScript } from "./internal/udpEcho.js"

const GOAL_RATIO = 0.5
const COMMAND = "players"

const settings = () => ({
  concurrency: Math.min(255, envInt("BENCH_RCON_CONCURRENCY", 32)),
  durationS: envInt("BENCH_RCON_DURATION_S", 6),
  warmupS: envInt("BENCH_RCON_WARMUP_S", 1),
  players: envInt("BENCH_RCON_PLAYERS", 5)
})

interface Measured {
  readonly label: string
  readonly commandsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly total: number
  readonly errors: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const summarise = (label: string, latencies: Array<number>, seconds: number, errors: number): Measured => {
  latencies.sort((a, b) => a - b)
  return {
    label,
    commandsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    total: latencies.length,
    errors
  }
}

/** `concurrency` workers, each running one command after another until the deadline. */
const loadClient = (client: RconClient, concurrency: number, seconds: number) =>
  Effect.gen(function* () {
    const latencies: Array<number> = []
    let errors = 0
    const deadline = performance.now() + seconds * 1000
    const worker = Effect.gen(function* () {
      while (performance.now() < deadline) {
        const started = performance.now()
        const ok = yield* client.command(COMMAND).pipe(
          Effect.as(true),
          Effect.catchAll(() => Effect.succeed(false))
        )
        if (ok) latencies.push(performance.now() - started)
        else errors++
      }
    })
    const started = performance.now()
    yield* Effect.all(Array.from({ length: concurrency }, () => worker), { concurrency: "unbounded", discard: true })
    return { latencies, errors, seconds: (performance.now() - started) / 1000 }
  })

/** The same load from a bare dgram socket: BattlEye command packets, replies matched by sequence byte. */
const loadRaw = (port: number, concurrency: number, seconds: number) =>
  new Promise<{ latencies: Array<number>; errors: number; seconds: number }>((resolve, reject) => {
    const socket = Dgram.createSocket("udp4")
    const latencies: Array<number> = []
    const sentAt = new Float64Array(256)
    let nextSeq = 0
    let active = concurrency
    const started = performance.now()
    const deadline = started + seconds * 1000
    const send = () => {
      const seq = nextSeq
      nextSeq = (nextSeq + 1) & 0xff
      sentAt[seq] = performance.now()
      socket.send(BattlEyePacket.command(seq, COMMAND))
    }
    socket.on("error", reject)
    socket.on("message", (datagram) => {
      const seq = datagram[8]!
      const now = performance.now()
      latencies.push(now - sentAt[seq]!)
      if (now < deadline) send()
      else if (--active === 0) {
        socket.close()
        resolve({ latencies, errors: 0, seconds: (now - started) / 1000 })
      }
    })
    socket.connect(port, HOST, () => {
      for (let i = 0; i < concurrency; i++) send()
    })
  })

const row = (m: Measured) =>
  `  ${m.label.padEnd(16)} ${m.commandsPerSecond.toFixed(0).padStart(7)} commands/s   p50 ${m.p50.toFixed(3).padStart(7)} ms   p99 ${m.p99
    .toFixed(3)
    .padStart(7)} ms   ${m.total} commands${m.errors > 0 ? `   ${m.errors} errors` : ""}`

/** Warm-up, then alternating one-second rounds: client -> simulator, raw -> echo. */
const measure = (install: SimInstall, echoPort: number, s: ReturnType<typeof settings>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const client = yield* BattlEyeClient.connect({ host: HOST, port: install.rconPort, password: install.rconPassword })
        const check = parsePlayers(yield* client.command(COMMAND))
        if (check.length !== s.players) {
          return yield* Effect.die(new Error(`expected ${s.players} players, the simulator lists ${check.length}`))
        }
        yield* loadClient(client, s.concurrency, s.warmupS)
        yield* Effect.promise(() => loadRaw(echoPort, s.concurrency, s.warmupS))
        const clientLatencies: Array<number> = []
        const rawLatencies: Array<number> = []
        let clientSeconds = 0
        let rawSeconds = 0
        let clientErrors = 0
        for (let round = 0; round < s.durationS; round++) {
          const c = yield* loadClient(client, s.concurrency, 1)
          clientLatencies.push(...c.latencies)
          clientSeconds += c.seconds
          clientErrors += c.errors
          const r = yield* Effect.promise(() => loadRaw(echoPort, s.concurrency, 1))
          rawLatencies.push(...r.latencies)
          rawSeconds += r.seconds
        }
        return {
          client: summarise("client -> sim", clientLatencies, clientSeconds, clientErrors),
          raw: summarise("raw -> udp echo", rawLatencies, rawSeconds, 0)
        }
      })
    )
  )

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  let sim: SimProcess | undefined
  let echo: ChildHandle | undefined
  const install = await installSim()
  try {
    sim = await launchSim(install, { settings: { players: s.players, joinInterval: 0, activity: 0, verifyDelay: 0, mod: 0 } })
    await waitFor(() => readAdm(install).split("is connected").length - 1 === s.players, 10_000, () => "players did not join")
    const echoPort = await freeUdpPort()
    echo = spawnNode({ args: [fileURLToPath(udpEchoScript)], env: { PORT: String(echoPort), HOST } })
    const echoHandle = echo
    await waitFor(() => echoHandle.output().includes("listening"), 10_000, () => `udp echo did not start: ${echoHandle.output()}`)

    console.log(
      `rcon: "${COMMAND}" with ${s.players} players online, ${s.concurrency} commands in flight, ` +
        `${s.warmupS} s warm-up + ${s.durationS} one-second rounds each, alternating; node ${process.version}, ${availableParallelism()} CPUs`
    )
    const { client, raw } = await measure(install, echoPort, s)
    console.log(row(client))
    console.log(row(raw))
    const ratio = raw.commandsPerSecond > 0 ? client.commandsPerSecond / raw.commandsPerSecond : 0
    const met = ratio >= GOAL_RATIO && client.errors === 0
    console.log(`  ratio client/raw ${ratio.toFixed(2)} (goal >= ${GOAL_RATIO}: ${met ? "met" : "NOT met"})`)
    if (sim.hasExited()) throw new Error(`the simulator exited during the benchmark; output:\n${sim.output()}`)
    return {
      headline:
        `client ${client.commandsPerSecond.toFixed(0)} commands/s (p50 ${client.p50.toFixed(3)} ms, p99 ${client.p99.toFixed(3)} ms), ` +
        `raw ${raw.commandsPerSecond.toFixed(0)} commands/s (p50 ${raw.p50.toFixed(3)} ms, p99 ${raw.p99.toFixed(3)} ms), ratio ${ratio.toFixed(2)}`,
      goals: [{ description: `client/raw commands/s >= ${GOAL_RATIO}`, met }]
    }
  } finally {
    if (sim !== undefined) await stopSim(sim, 5_000)
    if (echo !== undefined) await stopProcess(echo, 5_000)
    install.remove()
  }
}

export const benchmark: Benchmark = {
  name: "rcon",
  description: `BattlEye "${COMMAND}": Garrison client -> simulated server vs raw dgram -> UDP echo`,
  budgetMs: (() => {
    const s = settings()
    return 2 * (s.warmupS + s.durationS) * 1000 + 60_000
  })(),
  run
}

// `node test/dist/bench/rcon.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, () => {
  killAllChildren()
  killAllSims()
})
