/**
 * Loading the mods named by `-mod=` and `-serverMod=`, as far as a
 * controller can tell from the outside: each folder (relative to the
 * working directory unless absolute; names compared case-sensitively on
 * Linux, as DayZ's Linux server does) is found or warned about, its
 * `meta.cpp` read for the RPT, its `addons/*.pbo` scanned for the
 * stand-in SteamCMD's crash marker (a "broken" workshop version), and,
 * with `verifySignatures = 2`, each pbo checked for a `.bisign` whose key
 * is in the install's `keys/`.
 *
 * Written independently of Garrison's own meta.cpp reader, so each side
 * checks the other.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"

/** What examples/sim-steamcmd writes into every pbo of a broken version. */
export const CRASH_MARKER = "GARRISON-SIM-CRASH-ON-LOAD"
/** Only the start of each pbo is scanned for the marker. */
export const SCAN_BYTES = 1024 * 1024

export interface MetaCpp {
  readonly name: string | undefined
  readonly publishedId: string | undefined
  /** Kept as text: a FILETIME does not fit a double. */
  readonly timestamp: string | undefined
}

/**
 * `key = value;` lines: values quoted (`""` is a quote) or bare, the `;`
 * optional, keys in any case. Unknown keys and other lines are ignored.
 */
export const parseMetaCpp = (text: string): MetaCpp => {
  const values = new Map<string, string>()
  for (const line of text.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*;?\s*$/.exec(line)
    if (match === null) continue
    let value = match[2]!
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/""/g, '"')
    values.set(match[1]!.toLowerCase(), value)
  }
  const get = (key: string) => {
    const value = values.get(key)
    return value === undefined || value === "" ? undefined : value
  }
  return { name: get("name"), publishedId: get("publishedid"), timestamp: get("timestamp") }
}

export interface ModRequest {
  /** As given on the command line, e.g. `@cf` or `/srv/mods/@cf`. */
  readonly folder: string
  /** From `-serverMod=` (not sent to clients, so not signature-checked). */
  readonly serverMod: boolean
}

export interface LoadedMod extends ModRequest {
  readonly found: true
  readonly path: string
  readonly meta: MetaCpp
  /** The `addons` folder's path, when there is one. */
  readonly addons: string | undefined
  /** Every file name in `addons` (pbos, bisigns, anything else). */
  readonly addonFiles: ReadonlyArray<string>
  /** `*.pbo` (any case) in `addons`, sorted. */
  readonly pbos: ReadonlyArray<string>
  /** The first pbo holding the crash marker, if any. */
  readonly corrupted: string | undefined
}

export interface MissingMod extends ModRequest {
  readonly found: false
}

export type ModEntry = LoadedMod | MissingMod

/** Two names the same file name, as the platform's DayZ sees it. */
export const sameName = (a: string, b: string, platform: NodeJS.Platform = process.platform): boolean =>
  platform === "linux" ? a === b : a.toLowerCase() === b.toLowerCase()

const isDirectory = (path: string): boolean => {
  try {
    return Fs.statSync(path).isDirectory()
  } catch {
    return false
  }
}

const list = (dir: string): ReadonlyArray<string> => {
  try {
    return Fs.readdirSync(dir)
  } catch {
    return []
  }
}

/**
 * The mod folder's path, or undefined. On Linux the last part must match
 * exactly even where the file system would not care (`@CF` is not `@cf`).
 */
const findFolder = (root: string, folder: string, platform: NodeJS.Platform): string | undefined => {
  const path = NodePath.resolve(root, folder)
  if (!isDirectory(path)) return undefined
  const parent = NodePath.dirname(path)
  if (platform === "linux" && parent !== path) {
    const entries = list(parent)
    if (entries.length > 0 && !entries.includes(NodePath.basename(path))) return undefined
  }
  return path
}

/** Whether the first `SCAN_BYTES` of `file` hold the crash marker (an unreadable file does not). */
const holdsMarker = (file: string, buffer: Buffer): boolean => {
  let fd: number
  try {
    fd = Fs.openSync(file, "r")
  } catch {
    return false
  }
  try {
    let filled = 0
    while (filled < buffer.length) {
      const read = Fs.readSync(fd, buffer, filled, buffer.length - filled, filled)
      if (read === 0) break
      filled += read
    }
    return buffer.subarray(0, filled).includes(CRASH_MARKER)
  } catch {
    return false
  } finally {
    Fs.closeSync(fd)
  }
}

const readMeta = (dir: string): MetaCpp => {
  try {
    return parseMetaCpp(Fs.readFileSync(NodePath.join(dir, "meta.cpp"), "utf8"))
  } catch {
    return { name: undefined, publishedId: undefined, timestamp: undefined }
  }
}

/** Finds and reads every requested mod folder, in the order given. */
export const inspectMods = (root: string, requests: ReadonlyArray<ModRequest>, platform: NodeJS.Platform = process.platform): ReadonlyArray<ModEntry> => {
  let buffer: Buffer | undefined
  return requests.map((request): ModEntry => {
    const path = findFolder(root, request.folder, platform)
    if (path === undefined) return { ...request, found: false }
    // `addons` is looked up in any case (mods made on Windows ship `Addons` too); `addons` itself wins.
    const entries = list(path)
    const addonsName = entries.includes("addons") ? "addons" : entries.find((e) => e.toLowerCase() === "addons")
    const addons = addonsName !== undefined && isDirectory(NodePath.join(path, addonsName)) ? NodePath.join(path, addonsName) : undefined
    const addonFiles = addons === undefined ? [] : [...list(addons)].sort()
    const pbos = addonFiles.filter((f) => /\.pbo$/i.test(f) && !isDirectory(NodePath.join(addons!, f)))
    buffer ??= pbos.length > 0 ? Buffer.allocUnsafe(SCAN_BYTES) : undefined
    const corrupted = pbos.find((pbo) => holdsMarker(NodePath.join(addons!, pbo), buffer!))
    return { ...request, found: true, path, meta: readMeta(path), addons, addonFiles, pbos, corrupted }
  })
}

/** The RPT line for a mod that was found. */
export const loadingLine = (mod: LoadedMod): string =>
  `Loading mod '${mod.folder}' (name: ${mod.meta.name ?? "?"}, publishedid: ${mod.meta.publishedId ?? "?"}, timestamp: ${mod.meta.timestamp ?? "?"})`

/** The key names (file names without `.bikey`, any case) in the install's `keys/` folder. */
export const installedKeys = (keysDir: string): ReadonlyArray<string> =>
  list(keysDir)
    .filter((f) => /\.bikey$/i.test(f))
    .map((f) => f.slice(0, -".bikey".length))

/**
 * The pbos of `mod` with no `<pbo>.<key>.bisign` (any case) next to them
 * whose `<key>` is one of `keys` (compared as `sameName` does).
 */
export const unsignedAddons = (mod: LoadedMod, keys: ReadonlyArray<string>, platform: NodeJS.Platform = process.platform): ReadonlyArray<string> =>
  mod.pbos.filter((pbo) => {
    const prefix = `${pbo.toLowerCase()}.`
    return !mod.addonFiles.some((file) => {
      const lower = file.toLowerCase()
      if (!lower.startsWith(prefix) || !lower.endsWith(".bisign")) return false
      const key = file.slice(prefix.length, -".bisign".length)
      return key !== "" && keys.some((k) => sameName(k, key, platform))
    })
  })
