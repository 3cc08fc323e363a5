/**
 * The simulator's command line: the real DayZ launch parameters plus
 * `-simXxx=` parameters for the simulation itself. Every `-simXxx=` also
 * reads the environment variable `SIM_XXX` (camelCase to SCREAMING_SNAKE);
 * a parameter wins over the environment. See README.md for the table.
 */
import * as NodePath from "node:path"

export interface LaunchParameters {
  readonly config: string
  readonly port: number
  readonly profiles: string
  readonly bePath: string | undefined
  readonly mods: ReadonlyArray<string>
  readonly serverMods: ReadonlyArray<string>
  readonly doLogs: boolean
  readonly adminLog: boolean
  readonly netLog: boolean
  readonly freezeCheck: boolean
  readonly cpuCount: number | undefined
  readonly limitFps: number | undefined
  /** Every argument as given, for the RPT header. */
  readonly raw: ReadonlyArray<string>
}

export type HangMode = "off" | "ignore" | "freeze"

export interface SimOptions {
  readonly seed: number
  /** Roster size: simulated players who want to be online. */
  readonly players: number
  /** Milliseconds between the roster's joins at start-up (0: all at once). */
  readonly joinInterval: number
  /** Mean seconds between a player leaving (and coming back later); 0 disables. */
  readonly churn: number
  /** Mean seconds between chat, hit and kill events; 0 disables. */
  readonly activity: number
  /** Seconds before a kicked or refused player tries to join again; 0 disables. */
  readonly rejoin: number
  /** Milliseconds from "connected" to "Verified GUID". */
  readonly verifyDelay: number
  readonly script: string | undefined
  readonly control: string | undefined
  /** Milliseconds between polls of the control folder. */
  readonly controlPoll: number
  readonly rcon: "battleye" | "source"
  readonly partSize: number
  readonly shuffleParts: boolean
  /** Acks ignored per server message (each one forces a retry). */
  readonly dropAcks: number
  /** Milliseconds between retries of an unacknowledged server message (5 retries at most). */
  readonly messageRetry: number
  /** Seconds of silence after which an RCon client is dropped. */
  readonly rconTimeout: number
  readonly crashAfter: number | undefined
  readonly crashCode: number
  readonly hang: HangMode
  readonly startDelay: number
  readonly shutdownDelay: number
  readonly mod: boolean
  readonly modDir: string
  readonly modPoll: number
  readonly modBatch: number
  readonly cmdSuffix: string
  readonly resSuffix: string
  readonly version: string
  /** Seconds between the ADM `PlayerList log` blocks; 0 disables. */
  readonly playerListInterval: number
  /** Milliseconds from "ready" to the crash when a loaded mod's pbo holds the crash marker (see mods.ts). */
  readonly modCrashDelay: number
  /** Milliseconds between saves of the connected players' characters (players.db) and the world (data/*.bin); 0 disables. */
  readonly persistInterval: number
}

export class UsageError extends Error {}

const envName = (name: string) => "SIM_" + name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()

const splitMods = (value: string | undefined): ReadonlyArray<string> =>
  value === undefined ? [] : value.split(";").map((m) => m.trim()).filter((m) => m.length > 0)

export interface Parsed {
  readonly launch: LaunchParameters
  readonly sim: SimOptions
}

/** Parses `process.argv.slice(2)` and the environment. Relative paths resolve against `cwd`, as DayZ does. */
export const parseArguments = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string
): Parsed => {
  const params = new Map<string, string>()
  const flags = new Set<string>()
  for (const arg of args) {
    // `--mod-crash-delay-ms=<ms>` is another spelling of `-simModCrashDelay=<ms>`.
    const alias = /^--mod-crash-delay-ms(?:=(.*))?$/.exec(arg)
    if (alias !== null) {
      if (alias[1] === undefined) throw new UsageError(`--mod-crash-delay-ms needs a value: --mod-crash-delay-ms=<ms>`)
      params.set("simmodcrashdelay", alias[1])
      continue
    }
    const match = /^-([A-Za-z][A-Za-z0-9_]*)(?:=(.*))?$/.exec(arg)
    if (match === null) throw new UsageError(`unrecognised argument "${arg}"`)
    const key = match[1]!.toLowerCase()
    if (match[2] === undefined) flags.add(key)
    else params.set(key, match[2])
  }
  const resolve = (p: string) => NodePath.resolve(cwd, p)

  const simRaw = (name: string): string | undefined => params.get(`sim${name.toLowerCase()}`) ?? env[envName(name)]
  const int = (name: string, fallback: number, min = 0): number => {
    const raw = simRaw(name)
    if (raw === undefined || raw === "") return fallback
    const value = Number(raw)
    if (!Number.isFinite(value) || value < min) throw new UsageError(`-sim${name}=${raw}: expected a number >= ${min}`)
    return value
  }
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = simRaw(name)
    if (raw === undefined || raw === "") return fallback
    return !["0", "false", "no", "off"].includes(raw.toLowerCase())
  }
  const str = (name: string, fallback: string): string => simRaw(name) ?? fallback

  const port = Number(params.get("port") ?? "2302")
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new UsageError(`-port must be a port number`)
  const profiles = resolve(params.get("profiles") ?? "profiles")
  const optionalInt = (key: string) => (params.has(key) ? Number(params.get(key)) : undefined)

  const launch: LaunchParameters = {
    config: resolve(params.get("config") ?? "serverDZ.cfg"),
    port,
    profiles,
    bePath: params.has("bepath") ? resolve(params.get("bepath")!) : undefined,
    mods: splitMods(params.get("mod")),
    serverMods: splitMods(params.get("servermod")),
    doLogs: flags.has("dologs"),
    adminLog: flags.has("adminlog"),
    netLog: flags.has("netlog"),
    freezeCheck: flags.has("freezecheck"),
    cpuCount: optionalInt("cpucount"),
    limitFps: optionalInt("limitfps"),
    raw: args
  }

  const rcon = str("Rcon", "battleye").toLowerCase()
  if (rcon !== "battleye" && rcon !== "source") throw new UsageError(`-simRcon must be battleye or source`)
  const hangRaw = str("Hang", "off").toLowerCase()
  const hang: HangMode =
    hangRaw === "freeze" ? "freeze" : ["0", "off", "false", "no", ""].includes(hangRaw) ? "off" : "ignore"
  const crashRaw = simRaw("CrashAfter")
  const script = simRaw("Script")
  const control = simRaw("Control")

  const sim: SimOptions = {
    seed: int("Seed", 1),
    players: Math.floor(int("Players", 5)),
    joinInterval: int("JoinInterval", 1000),
    churn: int("Churn", 0),
    activity: int("Activity", 30),
    rejoin: int("Rejoin", 30),
    verifyDelay: int("VerifyDelay", 100),
    script: script === undefined || script === "" ? undefined : resolve(script),
    control: control === undefined || control === "" ? undefined : resolve(control),
    controlPoll: int("ControlPoll", 200, 1),
    rcon,
    partSize: Math.floor(int("PartSize", 1024, 64)),
    shuffleParts: bool("ShuffleParts", false),
    dropAcks: Math.floor(int("DropAcks", 0)),
    messageRetry: int("MessageRetry", 2000, 1),
    rconTimeout: int("RconTimeout", 45, 0.001),
    crashAfter: crashRaw === undefined || crashRaw === "" ? undefined : int("CrashAfter", 0),
    crashCode: Math.floor(int("CrashCode", 1, 1)),
    hang,
    startDelay: int("StartDelay", 0),
    shutdownDelay: int("ShutdownDelay", 200),
    mod: bool("Mod", true),
    modDir: str("ModDir", "Garrison"),
    modPoll: int("ModPoll", 1000, 1),
    modBatch: Math.floor(int("ModBatch", 10, 1)),
    cmdSuffix: str("CmdSuffix", ".json"),
    resSuffix: str("ResSuffix", ".json"),
    version: str("Version", "1.26.159040"),
    playerListInterval: int("PlayerListInterval", 300),
    modCrashDelay: int("ModCrashDelay", 1500),
    persistInterval: int("PersistInterval", 2000)
  }
  return { launch, sim }
}
