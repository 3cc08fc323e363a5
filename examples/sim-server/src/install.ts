/**
 * Lays out a simulated DayZ server install:
 *
 * ```
 * node examples/sim-server/dist/install.js <dir> [--port=2302] [--rcon-port=2306]
 *      [--rcon-password=...] [--rcon-ip=127.0.0.1] [--max-players=60]
 *      [--hostname=...] [--instance-id=1] [--force]
 * ```
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

export interface InstallOptions {
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
  readonly rconPort: number
  readonly rconPassword: string
  /** Files written (relative to `dir`); existing ones kept are not listed. */
  readonly written: ReadonlyArray<string>
}

const mainScript = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "main.js")

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

export const install = (target: string, options: InstallOptions = {}): InstallResult => {
  const dir = NodePath.resolve(target)
  const settings: LayoutSettings = {
    hostname: options.hostname ?? "Garrison Simulated Server",
    maxPlayers: options.maxPlayers ?? 60,
    instanceId: options.instanceId ?? 1,
    template: options.template ?? "dayzOffline.chernarusplus",
    rconPassword: options.rconPassword ?? randomBytes(9).toString("base64url"),
    rconPort: options.rconPort ?? 2306,
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
  const rconPort = Number(/^RConPort\s+(\d+)/m.exec(beConfig)?.[1] ?? settings.rconPort)
  const rconPassword = /^RConPassword\s+(\S+)/m.exec(beConfig)?.[1] ?? settings.rconPassword
  return { dir, executable: NodePath.join(dir, "DayZServer"), rconPort, rconPassword, written }
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
    switch (key) {
      case "rcon-port":
        options.rconPort = int()
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
  if (dir === undefined) throw new Error("usage: install.js <dir> [--rcon-port=N] [--rcon-password=S] [--rcon-ip=IP] [--max-players=N] [--hostname=S] [--instance-id=N] [--template=S] [--force]")
  return { dir, options }
}

if (process.argv[1] !== undefined && NodePath.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { dir, options } = parseCli(process.argv.slice(2))
    const result = install(dir, options)
    process.stdout.write(
      `Simulated DayZ server installed in ${result.dir}\n` +
        `  ${result.written.length} file(s) written${result.written.length === 0 ? " (all existed; --force overwrites)" : ""}\n` +
        `  RCon: udp 127.0.0.1:${result.rconPort}, password in battleye/beserver_x64.cfg\n` +
        `  Start: cd ${result.dir} && ./DayZServer -config=serverDZ.cfg -port=2302 -profiles=profiles -BEpath=battleye -dologs -adminlog\n`
    )
  } catch (error) {
    process.stderr.write(`install: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  }
}
