/**
 * Lays out a simulated DayZ server install:
 *
 * ```
 * node examples/sim-server/dist/install.js <dir> [--port=2302] [--rcon-port=<port + 4>]
 *      [--rcon-password=...] [--rcon-ip=127.0.0.1] [--max-players=60]
 *      [--hostname=...] [--instance-id=1] [--force]
 * ```
 *
 * `--port` is the game port (DayZ's `-port=`; it is not stored in the
 * install, so it goes on the start line and into the server entry). The RCon
 * port is the game port + 4 unless `--rcon-port` says otherwise: DayZ's
 * usual layout, where a server takes the game port and the three after it
 * (2302-2305) and RCon sits on the next (2306). Servers side by side need
 * game ports at least 5 apart; hosts usually step by 100 (2302, 2402, ...).
 *
 * Existing files are kept (an install is never clobbered) unless `--force`.
 * The `DayZServer` executable is a small shell script that runs this
 * package's `dist/main.js` with the Node that ran the installer.
 */
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"
import {
  banTxt,
  beServerCfg,
  cfgEconomyCoreXml,
  CUSTOM_TYPES,
  globalsXml,
  initC,
  type LayoutSettings,
  serverDZCfg,
  typesXml,
  whitelistTxt
} from "./layout.js"

/** The game port DayZ uses when `-port=` is left out. */
export const DEFAULT_GAME_PORT = 2302
/** RCon sits this far above the game port (2302 -> 2306). */
export const RCON_PORT_OFFSET = 4

/** The RCon port for a game port, as DayZ hosts lay them out. */
export const rconPortFor = (gamePort: number): number => gamePort + RCON_PORT_OFFSET

export interface InstallOptions {
  /** The game port (default 2302); only the start line and the derived RCon port use it. */
  readonly port?: number
  /** Default: `port` + 4. */
  readonly rconPort?: number
  readonly rconPassword?: string
  readonly rconIp?: string
  readonly maxPlayers?: number
  readonly hostname?: string
  readonly instanceId?: number
  readonly template?: string
  /** Overwrite files that already exist. */
  readonly force?: boolean
}

export interface InstallResult {
  readonly dir: string
  readonly executable: string
  readonly gamePort: number
  readonly rconPort: number
  readonly rconPassword: string
  /** Files written (relative to `dir`); existing ones kept are not listed. */
  readonly written: ReadonlyArray<string>
}

const mainScript = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "main.js")

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** Quoted for a shell only when it needs to be (a start line people copy should read plainly). */
const shellWord = (s: string) => (/^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : shellQuote(s))

export const install = (target: string, options: InstallOptions = {}): InstallResult => {
  const dir = NodePath.resolve(target)
  const gamePort = options.port ?? DEFAULT_GAME_PORT
  const rconPort = options.rconPort ?? rconPortFor(gamePort)
  if (rconPort > 65535) throw new Error(`--port=${gamePort} leaves no RCon port (game port + 4 is over 65535); give --rcon-port`)
  if (rconPort === gamePort) throw new Error(`the RCon port must differ from the game port (${gamePort})`)
  const settings: LayoutSettings = {
    hostname: options.hostname ?? "Garrison Simulated Server",
    maxPlayers: options.maxPlayers ?? 60,
    instanceId: options.instanceId ?? 1,
    template: options.template ?? "dayzOffline.chernarusplus",
    rconPassword: options.rconPassword ?? randomBytes(9).toString("base64url"),
    rconPort,
    rconIp: options.rconIp ?? "127.0.0.1"
  }
  const written: Array<string> = []
  const write = (relative: string, content: string | Buffer, mode?: number) => {
    const path = NodePath.join(dir, relative)
    Fs.mkdirSync(NodePath.dirname(path), { recursive: true })
    if (!options.force && Fs.existsSync(path)) return
    Fs.writeFileSync(path, content, mode === undefined ? {} : { mode })
    if (mode !== undefined) Fs.chmodSync(path, mode)
    written.push(relative)
  }
  const mission = NodePath.join("mpmissions", settings.template)

  write(
    "DayZServer",
    [
      "#!/bin/sh",
      "# Simulated DayZ dedicated server (Garrison examples/sim-server).",
      `SIM_EXE="$0"; export SIM_EXE`,
      `exec ${shellQuote(process.execPath)} ${shellQuote(mainScript)} "$@"`,
      ""
    ].join("\n"),
    0o755
  )
  write("serverDZ.cfg", serverDZCfg(settings))
  write("battleye/beserver_x64.cfg", beServerCfg(settings), 0o600)
  write(NodePath.join(mission, "db", "types.xml"), typesXml())
  write(NodePath.join(mission, "db", "globals.xml"), globalsXml)
  write(NodePath.join(mission, "custom", "types_custom.xml"), typesXml(CUSTOM_TYPES))
  write(NodePath.join(mission, "cfgeconomycore.xml"), cfgEconomyCoreXml)
  write(NodePath.join(mission, "init.c"), initC)
  Fs.mkdirSync(NodePath.join(dir, mission, `storage_${settings.instanceId}`), { recursive: true })
  write("keys/dayz.bikey", Buffer.concat([Buffer.from("dayz\0"), randomBytes(148)]))
  write("ban.txt", banTxt)
  write("whitelist.txt", whitelistTxt)
  write("priority.txt", "")
  write("steam_appid.txt", "221100\n")
  Fs.mkdirSync(NodePath.join(dir, "profiles"), { recursive: true })

  // Report the settings actually in force (an existing BattlEye config wins).
  const beConfig = Fs.readFileSync(NodePath.join(dir, "battleye/beserver_x64.cfg"), "utf8")
  const rconInForce = Number(/^RConPort\s+(\d+)/m.exec(beConfig)?.[1] ?? settings.rconPort)
  const rconPassword = /^RConPassword\s+(\S+)/m.exec(beConfig)?.[1] ?? settings.rconPassword
  return { dir, executable: NodePath.join(dir, "DayZServer"), gamePort, rconPort: rconInForce, rconPassword, written }
}

/** What the installer prints: where, which ports, how to start it and how to add it to Garrison. */
export const installReport = (result: InstallResult, options: InstallOptions = {}): string => {
  const asked = options.rconPort ?? rconPortFor(result.gamePort)
  const rconSource =
    result.rconPort !== asked
      ? `kept from the existing battleye/beserver_x64.cfg; --force rewrites it as ${asked}`
      : options.rconPort === undefined
        ? "game port + 4"
        : "--rcon-port"
  const entry = JSON.stringify({ name: NodePath.basename(result.dir), installDir: result.dir, gamePort: result.gamePort })
  return (
    `Simulated DayZ server installed in ${result.dir}\n` +
    `  ${result.written.length} file(s) written${result.written.length === 0 ? " (all existed; --force overwrites)" : ""}\n` +
    `  Game port: udp ${result.gamePort}; RCon: udp 127.0.0.1:${result.rconPort} (${rconSource}), password in battleye/beserver_x64.cfg\n` +
    (result.rconPort === result.gamePort ? `  Warning: the RCon port equals the game port; the server will not start\n` : "") +
    `  Start: cd ${shellWord(result.dir)} && ./DayZServer -config=serverDZ.cfg -port=${result.gamePort} -profiles=profiles -BEpath=battleye -dologs -adminlog\n` +
    `  Or add it to Garrison: POST /api/servers ${entry}\n`
  )
}

const parseCli = (args: ReadonlyArray<string>): { dir: string; options: InstallOptions } => {
  let dir: string | undefined
  const options: { -readonly [K in keyof InstallOptions]: InstallOptions[K] } = {}
  for (const arg of args) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
    if (match === null) {
      if (dir !== undefined) throw new Error(`unexpected argument "${arg}"`)
      dir = arg
      continue
    }
    const [, key, value = ""] = match
    const int = () => {
      const n = Number(value)
      if (!Number.isInteger(n) || n <= 0) throw new Error(`--${key} needs a positive integer`)
      return n
    }
    const port = () => {
      const n = int()
      if (n > 65535) throw new Error(`--${key} must be a port number (1-65535)`)
      return n
    }
    switch (key) {
      case "port":
        options.port = port()
        break
      case "rcon-port":
        options.rconPort = port()
        break
      case "rcon-password":
        options.rconPassword = value
        break
      case "rcon-ip":
        options.rconIp = value
        break
      case "max-players":
        options.maxPlayers = int()
        break
      case "hostname":
        options.hostname = value
        break
      case "instance-id":
        options.instanceId = int()
        break
      case "template":
        options.template = value
        break
      case "force":
        options.force = true
        break
      default:
        throw new Error(`unknown option --${key}`)
    }
  }
  if (dir === undefined) {
    throw new Error(
      "usage: install.js <dir> [--port=N (default 2302)] [--rcon-port=N (default port + 4)] [--rcon-password=S] [--rcon-ip=IP] " +
        "[--max-players=N] [--hostname=S] [--instance-id=N] [--template=S] [--force]"
    )
  }
  return { dir, options }
}

if (process.argv[1] !== undefined && NodePath.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { dir, options } = parseCli(process.argv.slice(2))
    process.stdout.write(installReport(install(dir, options), options))
  } catch (error) {
    process.stderr.write(`install: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  }
}
