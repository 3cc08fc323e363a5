/**
 * Reading a game server install: the binary, `serverDZ.cfg`, the BattlEye
 * config (RCON settings) and `@mod` folders. Plain functions over the file
 * system; the routes call them once per request.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"

/** The DayZ server binary's name on this platform. */
export const defaultExecutable = process.platform === "win32" ? "DayZServer_x64.exe" : "DayZServer"

export const isFile = (path: string): boolean => {
  try {
    return Fs.statSync(path).isFile()
  } catch {
    return false
  }
}

export const isDirectory = (path: string): boolean => {
  try {
    return Fs.statSync(path).isDirectory()
  } catch {
    return false
  }
}

const readText = (path: string): string | undefined => {
  try {
    return Fs.readFileSync(path, "utf8")
  } catch {
    return undefined
  }
}

const listDir = (dir: string): ReadonlyArray<Fs.Dirent> => {
  try {
    return Fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

export interface BattlEyeRcon {
  readonly file: string
  readonly host: string
  readonly port: number | undefined
  readonly password: string | undefined
}

/**
 * The BattlEye config in `dir`: BattlEye writes `beserver_x64_active_*.cfg`
 * at run time, which holds what is really in force, so the newest of those
 * wins over `beserver_x64.cfg` (`BEServer_x64.cfg` on Windows).
 */
export const findBattlEyeConfig = (dir: string): string | undefined => {
  const files = listDir(dir).filter((f) => f.isFile())
  const active = files
    .filter((f) => /^beserver_x64_active_.*\.cfg$/i.test(f.name))
    .map((f) => NodePath.join(dir, f.name))
    .sort((a, b) => mtime(b) - mtime(a))
  if (active[0] !== undefined) return active[0]
  const plain = files.find((f) => /^beserver_x64\.cfg$/i.test(f.name))
  return plain === undefined ? undefined : NodePath.join(dir, plain.name)
}

const mtime = (path: string) => {
  try {
    return Fs.statSync(path).mtimeMs
  } catch {
    return 0
  }
}

/** `Key value` lines, keys compared case-insensitively. */
export const parseBattlEyeConfig = (text: string): ReadonlyMap<string, string> => {
  const values = new Map<string, string>()
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(\w+)\s+(.*?)\s*$/.exec(line)
    if (match !== null) values.set(match[1]!.toLowerCase(), match[2]!)
  }
  return values
}

/** RCON settings from the install's BattlEye folder (`battleyeDir`, else `<profiles>/BattlEye`). */
export const readBattlEyeRcon = (installDir: string, battleyeDir: string, profilesDir: string): BattlEyeRcon | undefined => {
  const candidates = [
    NodePath.resolve(installDir, battleyeDir),
    NodePath.resolve(installDir, profilesDir, "BattlEye"),
    NodePath.resolve(installDir, profilesDir, "battleye")
  ]
  for (const dir of candidates) {
    const file = findBattlEyeConfig(dir)
    const text = file === undefined ? undefined : readText(file)
    if (file === undefined || text === undefined) continue
    const values = parseBattlEyeConfig(text)
    const port = Number(values.get("rconport"))
    const ip = values.get("rconip")
    return {
      file,
      // A server listening on every address is reached on loopback from here.
      host: ip === undefined || ip === "" || ip === "0.0.0.0" ? "127.0.0.1" : ip,
      port: Number.isInteger(port) && port >= 1 && port <= 65535 ? port : undefined,
      password: values.get("rconpassword")
    }
  }
  return undefined
}

/** A `key = value;` setting of `serverDZ.cfg` (top level; quotes removed). */
export const readServerConfigValue = (text: string, key: string): string | undefined => {
  const withoutComments = text.replace(/\/\/.*$/gm, "")
  const match = new RegExp(`^\\s*${key}\\s*=\\s*("([^"]*)"|[^;]*?)\\s*;`, "im").exec(withoutComments)
  if (match === null) return undefined
  return match[2] ?? match[1]
}

export interface ServerConfigFacts {
  readonly file: string
  readonly hostname: string | undefined
  readonly steamQueryPort: number | undefined
}

export const readServerConfig = (installDir: string, configFile: string): ServerConfigFacts | undefined => {
  const file = NodePath.resolve(installDir, configFile)
  const text = readText(file)
  if (text === undefined) return undefined
  const port = Number(readServerConfigValue(text, "steamQueryPort"))
  return {
    file,
    hostname: readServerConfigValue(text, "hostname"),
    steamQueryPort: Number.isInteger(port) && port > 0 ? port : undefined
  }
}

/** The `@Name` folders in the install, sorted (a proposal: load order is the admin's call). */
export const modFolders = (installDir: string): ReadonlyArray<string> =>
  listDir(installDir)
    .filter((f) => (f.isDirectory() || f.isSymbolicLink()) && f.name.startsWith("@"))
    .map((f) => f.name)
    .sort((a, b) => a.localeCompare(b))
