/**
 * The simulated DayZ server for end-to-end tests and benchmarks: install it
 * into a temporary folder (free loopback ports, known RCon password),
 * launch `DayZServer` with the real parameters plus `-simXxx=` settings,
 * wait until it is up, drive it (control-folder scripts, companion-mod
 * command files), read its logs, and stop it. Framework-free, like
 * `controller.ts`. Needs the build (`npx tsc -b`).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as Dgram from "node:dgram"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs"
import { type AddressInfo, createServer } from "node:net"
import * as NodePath from "node:path"
import { delay, type ExitInfo, freePort, HOST, makeTempDir, removeDir, repoRoot } from "./controller.js"

export const simInstaller = NodePath.join(repoRoot, "examples/sim-server/dist/install.js")

/** A UDP port that was free a moment ago. */
export const freeUdpPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = Dgram.createSocket("udp4")
    socket.on("error", reject)
    socket.bind(0, HOST, () => {
      const port = (socket.address() as AddressInfo).port
      socket.close(() => resolve(port))
    })
  })

/** A port free for both UDP and TCP (the RCon port serves either protocol). */
export const freeRconPort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort()
    const free = await new Promise<boolean>((resolve) => {
      const socket = Dgram.createSocket("udp4")
      socket.once("error", () => resolve(false))
      socket.bind(port, HOST, () => socket.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error("no port free for both UDP and TCP")
}

export interface SimInstall {
  /** What the installer printed (ports, start line, how to add it to Garrison). */
  readonly report: string
  readonly dir: string
  readonly executable: string
  readonly gamePort: number
  readonly rconPort: number
  readonly rconPassword: string
  /** `<dir>/profiles` (the default `-profiles`). */
  readonly profiles: string
  readonly remove: () => void
}

export interface InstallSimOptions {
  readonly maxPlayers?: number
  readonly rconPassword?: string
  /** Install into this folder instead of a new temporary one. */
  readonly dir?: string
  /**
   * Give the installer only `--port` and let it derive the RCon port (game
   * port + 4), as a person would; by default both ports are given.
   */
  readonly deriveRconPort?: boolean
}

/** A game port whose RCon port (game port + 4, the installer's default) is free too. */
const freePortPair = async (): Promise<{ readonly gamePort: number; readonly rconPort: number }> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const gamePort = await freeUdpPort()
    if (gamePort + 4 > 65535) continue
    if ((await isFreeForUdp(gamePort + 4)) && (await isFreeForTcp(gamePort + 4))) return { gamePort, rconPort: gamePort + 4 }
  }
  throw new Error("no game port with a free RCon port 4 above it")
}

const isFreeForUdp = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = Dgram.createSocket("udp4")
    socket.once("error", () => resolve(false))
    socket.bind(port, HOST, () => socket.close(() => resolve(true)))
  })

const isFreeForTcp = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen(port, HOST, () => server.close(() => resolve(true)))
  })

/** Runs `install.js` into a fresh temporary folder with free ports; the installer's report is kept in `report`. */
export const installSim = async (options: InstallSimOptions = {}): Promise<SimInstall> => {
  if (!existsSync(simInstaller)) throw new Error(`${simInstaller} does not exist; run \`npx tsc -b\` from the repository root first`)
  const dir = options.dir ?? makeTempDir("garrison-sim-")
  const { gamePort, rconPort } = options.deriveRconPort === true ? await freePortPair() : { rconPort: await freeRconPort(), gamePort: await freeUdpPort() }
  const rconPassword = options.rconPassword ?? `pw-${randomBytes(6).toString("hex")}`
  const report = execFileSync(
    process.execPath,
    [
      simInstaller,
      dir,
      `--port=${gamePort}`,
      ...(options.deriveRconPort === true ? [] : [`--rcon-port=${rconPort}`]),
      `--rcon-password=${rconPassword}`,
      `--max-players=${options.maxPlayers ?? 60}`,
      "--force"
    ],
    { stdio: "pipe", encoding: "utf8" }
  )
  return {
    report,
    dir,
    executable: NodePath.join(dir, "DayZServer"),
    gamePort,
    rconPort,
    rconPassword,
    profiles: NodePath.join(dir, "profiles"),
    remove: () => removeDir(dir)
  }
}

export interface SimProcess {
  readonly install: SimInstall
  readonly child: ChildProcess
  readonly pid: number
  readonly output: () => string
  readonly exited: Promise<ExitInfo>
  readonly hasExited: () => boolean
}

/** `-simXxx=` settings by name without the prefix, e.g. `{ players: 0, modPoll: 5 }`. */
export type SimSettings = Readonly<Record<string, string | number | boolean>>

/** Quiet, fast defaults for tests: no roster, no random activity, quick verification and mod polls. */
export const testSimSettings: SimSettings = {
  players: 0,
  activity: 0,
  churn: 0,
  verifyDelay: 20,
  modPoll: 20,
  controlPoll: 20,
  shutdownDelay: 0,
  playerListInterval: 0
}

export interface LaunchSimOptions {
  readonly settings?: SimSettings
  /** Extra real parameters, e.g. `-mod=@CF`. */
  readonly args?: ReadonlyArray<string>
  readonly env?: Readonly<Record<string, string>>
  /** Wait for the "[sim] ready" line (default true). */
  readonly waitReady?: boolean
  readonly readyTimeoutMs?: number
}

/** Every simulated server still running, one set per process (see `running` in controller.ts). */
const running: Set<ChildProcess> = (() => {
  const shared = globalThis as { garrisonTestSims?: Set<ChildProcess> }
  if (shared.garrisonTestSims === undefined) {
    const sims = new Set<ChildProcess>()
    shared.garrisonTestSims = sims
    process.once("exit", () => {
      for (const child of sims) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    })
  }
  return shared.garrisonTestSims
})()

export const killAllSims = (): void => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  running.clear()
}

/** Settings as `-simXxx=` parameters, e.g. `{ modPoll: 5 }` as `-simModPoll=5` (booleans as 1 and 0). */
export const simArguments = (settings: SimSettings): Array<string> =>
  Object.entries(settings).map(([key, value]) => `-sim${key[0]!.toUpperCase()}${key.slice(1)}=${value === true ? 1 : value === false ? 0 : value}`)

/** The real launch parameters for an install. */
export const launchArguments = (install: SimInstall, settings: SimSettings = {}, extra: ReadonlyArray<string> = []) => [
  "-config=serverDZ.cfg",
  `-port=${install.gamePort}`,
  "-profiles=profiles",
  "-BEpath=battleye",
  "-dologs",
  "-adminlog",
  "-freezecheck",
  ...extra,
  ...simArguments(settings)
]

/** Starts `<install>/DayZServer` from the install folder and (by default) waits until it is ready. */
export const launchSim = async (install: SimInstall, options: LaunchSimOptions = {}): Promise<SimProcess> => {
  const settings = { ...testSimSettings, ...options.settings }
  const child = spawn(install.executable, launchArguments(install, settings, options.args), {
    cwd: install.dir,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  if (child.pid === undefined) throw new Error(`cannot spawn ${install.executable}`)
  running.add(child)
  let output = ""
  const append = (chunk: Buffer) => {
    if (output.length < 1024 * 1024) output += chunk.toString("utf8")
  }
  child.stdout?.on("data", append)
  child.stderr?.on("data", append)
  let done = false
  const exited = new Promise<ExitInfo>((resolve) => {
    child.on("close", (code, signal) => {
      done = true
      running.delete(child)
      resolve({ code, signal })
    })
  })
  const sim: SimProcess = { install, child, pid: child.pid, output: () => output, exited, hasExited: () => done }
  if (options.waitReady ?? true) {
    await waitFor(() => output.includes("[sim] ready"), options.readyTimeoutMs ?? 10_000, () => {
      if (done) throw new Error(`the simulator exited before it was ready; output:\n${output}`)
      return `the simulator was not ready; output:\n${output}`
    })
  }
  return sim
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export const stopSim = async (sim: SimProcess, graceMs = 5_000): Promise<ExitInfo> => {
  if (sim.hasExited()) return sim.exited
  sim.child.kill("SIGTERM")
  const ended = await Promise.race([sim.exited, delay(graceMs).then(() => undefined)])
  if (ended !== undefined) return ended
  sim.child.kill("SIGKILL")
  return sim.exited
}

/** Exit within `timeoutMs`, or undefined while still running. */
export const waitForSimExit = (sim: SimProcess, timeoutMs: number): Promise<ExitInfo | undefined> =>
  Promise.race([sim.exited, delay(timeoutMs).then(() => undefined)])

/** Polls `check` every 20 ms until it returns true; `describe` explains a time-out (and may throw early). */
export const waitFor = async (check: () => boolean, timeoutMs: number, describe: () => string = () => "condition not met"): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (check()) return
    const problem = describe()
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${problem}`)
    await delay(20)
  }
}

const newest = (dir: string, suffix: string): string | undefined => {
  if (!existsSync(dir)) return undefined
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .map((f) => NodePath.join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs || b.localeCompare(a))
  return files[0]
}

/** The newest `.RPT` (engine log) text of an install, or "" before there is one. */
export const readRpt = (install: SimInstall): string => {
  const file = newest(install.profiles, ".RPT")
  return file === undefined ? "" : readFileSync(file, "utf8")
}

/** The newest `.ADM` (admin log) text of an install, or "". */
export const readAdm = (install: SimInstall): string => {
  const file = newest(install.profiles, ".ADM")
  return file === undefined ? "" : readFileSync(file, "utf8")
}

const writeAtomic = (path: string, text: string) => {
  mkdirSync(NodePath.dirname(path), { recursive: true })
  const temp = NodePath.join(NodePath.dirname(path), `.${NodePath.basename(path)}.${randomBytes(4).toString("hex")}.tmp`)
  writeFileSync(temp, text)
  renameSync(temp, path)
}

/** Runs script lines in the simulator now (control folder), e.g. `join 76561198012345678 Bravo17`. */
export const simControl = (install: SimInstall, ...lines: ReadonlyArray<string>): void => {
  writeAtomic(NodePath.join(install.profiles, "sim-control", `${Date.now()}-${randomBytes(3).toString("hex")}.txt`), lines.join("\n") + "\n")
}

export interface ModChannel {
  readonly commands: string
  readonly responses: string
  readonly send: (action: string, params?: Readonly<Record<string, unknown>>, id?: string) => string
  readonly response: (id: string, timeoutMs?: number) => Promise<ModResponseFile>
}

export interface ModResponseFile {
  readonly id: string
  readonly ok: boolean
  readonly data?: unknown
  readonly error?: string
  readonly timestamp?: number
}

/** The companion mod's command and response folders (`-simModDir`, default `Garrison`). */
export const modChannel = (install: SimInstall, options: { modDir?: string; cmdSuffix?: string; resSuffix?: string } = {}): ModChannel => {
  const root = NodePath.join(install.profiles, options.modDir ?? "Garrison")
  const commands = NodePath.join(root, "commands")
  const responses = NodePath.join(root, "responses")
  const cmdSuffix = options.cmdSuffix ?? ".json"
  const resSuffix = options.resSuffix ?? ".json"
  return {
    commands,
    responses,
    send: (action, params = {}, id = randomBytes(8).toString("hex")) => {
      writeAtomic(NodePath.join(commands, `${id}${cmdSuffix}`), JSON.stringify({ id, action, params, timestamp: Date.now() }))
      return id
    },
    response: async (id, timeoutMs = 5_000) => {
      const file = NodePath.join(responses, `${id}${resSuffix}`)
      await waitFor(() => existsSync(file), timeoutMs, () => `no response file ${file}`)
      return JSON.parse(readFileSync(file, "utf8")) as ModResponseFile
    }
  }
}
