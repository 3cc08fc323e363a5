/**
 * `catalogue.json`: everything the stand-in knows about "Steam" (apps,
 * workshop items, accounts) and how it misbehaves. It lives next to
 * `steamcmd.sh` and is read afresh at every run and every Web API request,
 * so a test changes Steam's state by rewriting it between runs
 * (`publishItemVersion`, `publishAppBuild`, `writeCatalogue`).
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"

export const CATALOGUE_FILE = "catalogue.json"

/** DayZ's app id: workshop items belong to it. */
export const DAYZ_APP_ID = 221100

export interface CatalogueApp {
  readonly name: string
  readonly buildId: number
  /** Bytes "downloaded" (and, padded, on disk) for a full install. */
  readonly sizeBytes: number
}

export interface CatalogueItem {
  /** The workshop title (the Web API's `title`, `mod.cpp`'s `name`). */
  readonly title: string
  /** What `meta.cpp` says as `name =`, written verbatim, hostile or not. */
  readonly name: string
  /** Bumped at each publish; it goes into the files so a new version differs on disk. */
  readonly version: number
  readonly timeCreated: number
  readonly timeUpdated: number
  /** The item folder's total size in bytes. */
  readonly sizeBytes: number
  /** A client mod (`-mod=`) or a server-side one (`-serverMod=`). */
  readonly type: "client" | "server"
  /** Key file names under `keys/` (`CF.bikey`). */
  readonly keys: ReadonlyArray<string>
  /** Pbo file names under `addons/` (`cf.pbo`). */
  readonly pbos: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly subscriptions: number
  readonly description: string
  /** This version is broken: every pbo holds `GARRISON-SIM-CRASH-ON-LOAD`. */
  readonly crashOnLoad?: boolean
  /** Banned on the workshop (the Web API says `banned: 1`; it still downloads). */
  readonly banned?: boolean
  /** Gone from the workshop: details answer result 9, downloads fail as not found. */
  readonly removed?: boolean
}

export interface CatalogueAccount {
  readonly password: string
  /** Owns DayZ: may install the server app and download workshop items. */
  readonly ownsGame: boolean
  /** The Steam Guard code this account's login needs (none: no Steam Guard). */
  readonly guardCode?: string
}

export type AppFailure = "timeout" | "disk-full" | "failed" | "no-match"

/** How a login fails when Steam is out of reach, whatever the password (see the README). */
export type LoginOutage = "no-connection" | "user-info-timeout" | "result-code-3"

export interface CatalogueBehaviour {
  /** Download speed: an app or item of n bytes takes n / bytesPerSecond seconds. */
  readonly bytesPerSecond: number
  /** How often app_update prints a progress line (and a download writes a chunk). */
  readonly progressIntervalMs: number
  /** Workshop ids whose download stalls and times out (exit 10). */
  readonly timeoutItems: ReadonlyArray<string>
  /** Makes every app_update fail this way after some progress. */
  readonly appFailure: AppFailure | null
  /** Free disk space in bytes; an app or item larger than this fails as disk full. null: plenty. */
  readonly diskFreeBytes: number | null
  /** When a string, the Web API's QueryFiles needs `key=` with this value. */
  readonly webApiKey: string | null
  /** How long a stalled download waits before it times out (default 1000 ms). */
  readonly stallMs?: number
  /*
   * Real SteamCMD output the default lines leave out (issue 36); all optional, off by default.
   */
  /** Every account login fails as an outage would, before the password is looked at. */
  readonly loginOutage?: LoginOutage | null
  /** Output as real SteamCMD writes it to a pipe: the login's lines run together, without newlines. */
  readonly pipedOutput?: boolean
  /** Progress printed with a decimal comma (`0,00`), as under a German or French locale. */
  readonly decimalComma?: boolean
  /** app_update also prints the update states 0x3 reconfiguring, 0x11 preallocating and (with validate) 0x5 verifying install. */
  readonly allUpdateStates?: boolean
  /** `Warning:` lines interleaved: after the banner and after the first progress line. */
  readonly warnings?: boolean
  /** Workshop ids whose download fails with `I/O Operation Failed`. */
  readonly ioFailureItems?: ReadonlyArray<string>
}

export interface Catalogue {
  /** By app id. */
  readonly apps: Readonly<Record<string, CatalogueApp>>
  /** By workshop id. */
  readonly items: Readonly<Record<string, CatalogueItem>>
  /** By account name. */
  readonly accounts: Readonly<Record<string, CatalogueAccount>>
  readonly behaviour: CatalogueBehaviour
}

export const DEFAULT_BEHAVIOUR: CatalogueBehaviour = {
  bytesPerSecond: 20_000_000,
  progressIntervalMs: 50,
  timeoutItems: [],
  appFailure: null,
  diskFreeBytes: null,
  webApiKey: null
}

const item = (fields: Omit<CatalogueItem, "version" | "type"> & Partial<Pick<CatalogueItem, "version" | "type">>): CatalogueItem => ({
  version: 1,
  type: "client",
  ...fields
})

/** A realistic DayZ catalogue: the server apps, six well-known mods, three accounts. */
export const defaultCatalogue = (): Catalogue => ({
  apps: {
    "223350": { name: "DayZ Server", buildId: 1000, sizeBytes: 2_000_000 },
    "1042420": { name: "DayZ Server Experimental", buildId: 2000, sizeBytes: 2_000_000 }
  },
  items: {
    "1559212036": item({
      title: "Community Framework",
      name: "CF",
      timeCreated: 1546300800,
      timeUpdated: 1700000000,
      sizeBytes: 300_000,
      keys: ["CF.bikey"],
      pbos: ["cf.pbo"],
      tags: ["Mod"],
      subscriptions: 900_000,
      description: "Community Framework: a framework for DayZ mods (modules, RPCs, permissions)."
    }),
    "1564026768": item({
      title: "Community Online Tools",
      name: "COT",
      timeCreated: 1546905600,
      timeUpdated: 1699000000,
      sizeBytes: 600_000,
      keys: ["Jacob_Mango_V3.bikey"],
      pbos: ["JM_COT_Scripts.pbo", "JM_COT_GUI.pbo"],
      tags: ["Mod", "Server"],
      subscriptions: 650_000,
      description: "An admin tool for DayZ servers: teleport, spawn items, manage players. Requires Community Framework."
    }),
    "1828439124": item({
      title: "VPPAdminTools",
      name: "VPPAdminTools",
      timeCreated: 1565308800,
      timeUpdated: 1698000000,
      sizeBytes: 500_000,
      keys: ["VPP.bikey"],
      pbos: ["VPPAdminTools.pbo"],
      tags: ["Mod", "Server"],
      subscriptions: 500_000,
      description: "Vanilla++ Admin Tools: an in-game admin menu for DayZ servers."
    }),
    "2116157322": item({
      title: "DayZ Expansion Core",
      name: "DayZ-Expansion-Core",
      timeCreated: 1590969600,
      timeUpdated: 1701000000,
      sizeBytes: 800_000,
      keys: ["Expansion.bikey"],
      pbos: ["DayZExpansion_Core_Scripts.pbo", "DayZExpansion_Core_GUI.pbo"],
      tags: ["Mod", "Environment"],
      subscriptions: 400_000,
      description: "DayZ Expansion's core: shared code for every Expansion module."
    }),
    "1590841260": item({
      title: "Trader",
      name: "Trader",
      timeCreated: 1547337600,
      timeUpdated: 1650000000,
      sizeBytes: 250_000,
      keys: ["Trader.bikey"],
      pbos: ["Trader.pbo"],
      tags: ["Mod", "Server"],
      subscriptions: 300_000,
      description: "Trader zones and a trader menu for DayZ servers."
    }),
    "2545327648": item({
      title: "DayZ Editor Loader",
      name: "DayZ-Editor-Loader",
      type: "server",
      timeCreated: 1628294400,
      timeUpdated: 1690000000,
      sizeBytes: 150_000,
      keys: ["InclementDab.bikey"],
      pbos: ["EditorLoader.pbo"],
      tags: ["Mod", "Server"],
      subscriptions: 200_000,
      description: "Loads DayZ Editor builds on a server (a server-side mod: -serverMod=)."
    })
  },
  accounts: {
    garrison_bot: { password: "correct-horse", ownsGame: true },
    guarded_admin: { password: "battery-staple", ownsGame: true, guardCode: "F4K3C" },
    no_game: { password: "pw", ownsGame: false }
  },
  behaviour: { ...DEFAULT_BEHAVIOUR }
})

export class CatalogueError extends Error {}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Checks a parsed catalogue enough that a typo fails loudly instead of
 * making a strange Steam; missing `behaviour` fields take their defaults.
 */
export const parseCatalogue = (json: unknown): Catalogue => {
  if (!isRecord(json)) throw new CatalogueError("the catalogue is not a JSON object")
  const section = (name: string): Record<string, unknown> => {
    const value = json[name] ?? {}
    if (!isRecord(value)) throw new CatalogueError(`"${name}" must be an object`)
    return value
  }
  const check = (where: string, entry: unknown, fields: Record<string, "string" | "number" | "boolean" | "string[]">, optional: ReadonlyArray<string> = []) => {
    if (!isRecord(entry)) throw new CatalogueError(`${where} must be an object`)
    for (const [field, kind] of Object.entries(fields)) {
      const value = entry[field]
      if (value === undefined && optional.includes(field)) continue
      const ok = kind === "string[]" ? Array.isArray(value) && value.every((v) => typeof v === "string") : typeof value === kind
      if (!ok) throw new CatalogueError(`${where}.${field} must be a ${kind}`)
    }
  }
  const apps = section("apps")
  for (const [id, app] of Object.entries(apps)) check(`apps.${id}`, app, { name: "string", buildId: "number", sizeBytes: "number" })
  const items = section("items")
  for (const [id, entry] of Object.entries(items)) {
    check(
      `items.${id}`,
      entry,
      {
        title: "string",
        name: "string",
        version: "number",
        timeCreated: "number",
        timeUpdated: "number",
        sizeBytes: "number",
        type: "string",
        keys: "string[]",
        pbos: "string[]",
        tags: "string[]",
        subscriptions: "number",
        description: "string",
        crashOnLoad: "boolean",
        banned: "boolean",
        removed: "boolean"
      },
      ["crashOnLoad", "banned", "removed", "tags", "description", "subscriptions", "timeCreated"]
    )
    const type = (entry as Record<string, unknown>)["type"]
    if (type !== "client" && type !== "server") throw new CatalogueError(`items.${id}.type must be "client" or "server"`)
  }
  const accounts = section("accounts")
  for (const [name, account] of Object.entries(accounts)) {
    check(`accounts.${name}`, account, { password: "string", ownsGame: "boolean", guardCode: "string" }, ["guardCode"])
  }
  const behaviour = { ...DEFAULT_BEHAVIOUR, ...section("behaviour") } as CatalogueBehaviour
  if (typeof behaviour.bytesPerSecond !== "number" || behaviour.bytesPerSecond <= 0) throw new CatalogueError("behaviour.bytesPerSecond must be a positive number")
  if (typeof behaviour.progressIntervalMs !== "number" || behaviour.progressIntervalMs <= 0) {
    throw new CatalogueError("behaviour.progressIntervalMs must be a positive number")
  }
  if (!Array.isArray(behaviour.timeoutItems)) throw new CatalogueError("behaviour.timeoutItems must be an array of workshop ids")
  if (behaviour.appFailure !== null && !["timeout", "disk-full", "failed", "no-match"].includes(behaviour.appFailure)) {
    throw new CatalogueError('behaviour.appFailure must be null, "timeout", "disk-full", "failed" or "no-match"')
  }
  if (behaviour.loginOutage != null && !["no-connection", "user-info-timeout", "result-code-3"].includes(behaviour.loginOutage)) {
    throw new CatalogueError('behaviour.loginOutage must be null, "no-connection", "user-info-timeout" or "result-code-3"')
  }
  for (const flag of ["pipedOutput", "decimalComma", "allUpdateStates", "warnings"] as const) {
    if (behaviour[flag] !== undefined && typeof behaviour[flag] !== "boolean") throw new CatalogueError(`behaviour.${flag} must be true or false`)
  }
  if (behaviour.ioFailureItems !== undefined && !Array.isArray(behaviour.ioFailureItems)) {
    throw new CatalogueError("behaviour.ioFailureItems must be an array of workshop ids")
  }
  if (behaviour.diskFreeBytes !== null && typeof behaviour.diskFreeBytes !== "number") throw new CatalogueError("behaviour.diskFreeBytes must be null or a number")
  if (behaviour.webApiKey !== null && typeof behaviour.webApiKey !== "string") throw new CatalogueError("behaviour.webApiKey must be null or a string")
  // Optional item fields left out read as their neutral values.
  const filledItems = Object.fromEntries(
    Object.entries(items).map(([id, entry]) => {
      const e = entry as CatalogueItem
      return [id, { ...e, tags: e.tags ?? [], description: e.description ?? "", subscriptions: e.subscriptions ?? 0, timeCreated: e.timeCreated ?? e.timeUpdated }]
    })
  )
  return {
    apps: apps as Catalogue["apps"],
    items: filledItems,
    accounts: accounts as Catalogue["accounts"],
    behaviour: {
      ...behaviour,
      timeoutItems: behaviour.timeoutItems.map(String),
      ...(behaviour.ioFailureItems === undefined ? {} : { ioFailureItems: behaviour.ioFailureItems.map(String) })
    }
  }
}

const cataloguePath = (dir: string) => NodePath.join(dir, CATALOGUE_FILE)

/** The catalogue in `dir` (the stand-in's folder); the default one when there is none. */
export const readCatalogue = (dir: string): Catalogue => {
  let text: string
  try {
    text = Fs.readFileSync(cataloguePath(dir), "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return defaultCatalogue()
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new CatalogueError(`${cataloguePath(dir)} is not JSON: ${(error as Error).message}`)
  }
  return parseCatalogue(json)
}

/** Writes a whole file at once: a temporary file renamed over it, so a reader never sees half of one. */
let temps = 0
export const writeFileAtomic = (path: string, content: string | Buffer): void => {
  const temp = NodePath.join(NodePath.dirname(path), `.${NodePath.basename(path)}.${process.pid}.${++temps}.tmp`)
  Fs.writeFileSync(temp, content)
  Fs.renameSync(temp, path)
}

/** Replaces `dir`'s catalogue atomically (a run or request reading it sees the old one or the new one). */
export const writeCatalogue = (dir: string, catalogue: Catalogue): void => {
  Fs.mkdirSync(dir, { recursive: true })
  writeFileAtomic(cataloguePath(dir), `${JSON.stringify(catalogue, null, 2)}\n`)
}

/** Unix seconds now. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/**
 * Publishes a new version of a workshop item: `version` + 1, `timeUpdated`
 * now (unless `changes` gives one), then `changes` (e.g. `{ crashOnLoad:
 * true }` for a broken version, `{ crashOnLoad: false }` for the fix).
 * Returns the item as published.
 */
export const publishItemVersion = (dir: string, id: string, changes: Partial<CatalogueItem> = {}): CatalogueItem => {
  const catalogue = readCatalogue(dir)
  const current = catalogue.items[id]
  if (current === undefined) throw new CatalogueError(`no workshop item ${id} in the catalogue`)
  const published: CatalogueItem = { ...current, version: current.version + 1, timeUpdated: nowSeconds(), ...changes }
  writeCatalogue(dir, { ...catalogue, items: { ...catalogue.items, [id]: published } })
  return published
}

/** Publishes a new build of an app (`buildId` + 1); returns the new build id. */
export const publishAppBuild = (dir: string, appId: string | number): number => {
  const catalogue = readCatalogue(dir)
  const current = catalogue.apps[String(appId)]
  if (current === undefined) throw new CatalogueError(`no app ${appId} in the catalogue`)
  const buildId = current.buildId + 1
  writeCatalogue(dir, { ...catalogue, apps: { ...catalogue.apps, [String(appId)]: { ...current, buildId } } })
  return buildId
}

/** Changes `behaviour` (a test's "now Steam is slow / full / down"). */
export const setBehaviour = (dir: string, changes: Partial<CatalogueBehaviour>): void => {
  const catalogue = readCatalogue(dir)
  writeCatalogue(dir, { ...catalogue, behaviour: { ...catalogue.behaviour, ...changes } })
}
