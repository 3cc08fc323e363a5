/**
 * The backups benchmark's server folder: a seeded generator (mulberry32, and
 * a xorshift for random bytes) and the ~1 GiB DayZ-like folder made from it,
 * the same bytes for the same seed and size: mods' `.pbo` files of random
 * bytes, and XML, JSON, text and binary persistence records written from
 * pools of a few MiB at varying offsets. `writeFolder` plans the folder,
 * writes it and says what it made.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { deflateRawSync } from "node:zlib"

const MiB = 1024 * 1024

/** mulberry32: a small seeded generator, [0, 1). */
export const seeded = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
export type Rand = ReturnType<typeof seeded>
const int = (rand: Rand, min: number, max: number) => min + Math.floor(rand() * (max - min + 1))
export const pick = <A>(rand: Rand, items: ReadonlyArray<A>): A => items[Math.floor(rand() * items.length)]!
const fixed = (rand: Rand, max: number, digits: number) => (rand() * max).toFixed(digits)

/** Random bytes from a xorshift over 32-bit words: fast, seeded. */
const randomPool = (bytes: number, seed: number): Buffer => {
  const words = new Uint32Array(bytes / 4)
  let x = (seed * 2654435761) >>> 0 || 1
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    words[i] = x
  }
  return Buffer.from(words.buffer)
}

const ITEMS = [
  "AKM", "M4A1", "Mosin9130", "SKS", "FNX45", "Glock19", "BandageDressing", "Apple", "CanOpener", "TacticalBaconCan",
  "WaterBottle", "Hatchet", "Shovel", "CombatKnife", "NBCGloves", "PlateCarrierVest", "BallisticHelmet", "Mag_AKM_30Rnd",
  "Ammo_762x39", "Ammo_556x45", "Sedan_02", "CivilianSedan", "OffroadHatchback", "Truck_01_Covered", "Fence", "Watchtower",
  "TerritoryFlag", "CodeLock", "BarrelHoles", "SeaChest", "WoodenCrate", "MediumTent", "Morphine", "Epinephrine", "SalineBag",
  "GasStove", "Binoculars", "Rangefinder", "PersonalRadio", "Battery9V", "NailBox", "WoodenPlank", "MetalPlate", "Rope"
]
const VARIANTS = ["", "_Black", "_Green", "_Camo", "_Tan", "_Winter", "_Olive", "_Red", "_Blue", "_Grey", "_Sun"]
const MOD_PREFIXES = ["", "", "BBP_", "MSP_", "Exp_", "TraderPlus_", "CJ_"]
const USAGES = ["Military", "Police", "Medic", "Firefighter", "Industrial", "Farm", "Coast", "Town", "Village", "Hunting", "Office", "School"]
const SYLLABLES = ["ka", "zo", "mir", "vla", "dek", "tor", "an", "el", "rus", "sko", "ber", "gan", "lik", "nov", "pet", "rad", "sha", "tin", "ul", "yev"]
const ACTIONS = ["placed", "dismantled", "bought", "sold", "picked up", "dropped", "repaired", "opened", "locked", "built"]

const itemName = (rand: Rand) => `${pick(rand, MOD_PREFIXES)}${pick(rand, ITEMS)}${pick(rand, VARIANTS)}`
const playerName = (rand: Rand) => {
  const parts = int(rand, 2, 4)
  let name = ""
  for (let i = 0; i < parts; i++) name += pick(rand, SYLLABLES)
  return name[0]!.toUpperCase() + name.slice(1) + (rand() < 0.3 ? String(int(rand, 1, 999)) : "")
}
const steamId = (rand: Rand) => `7656119${String(int(rand, 0, 9_999_999)).padStart(7, "0")}${String(int(rand, 0, 999)).padStart(3, "0")}`
const position = (rand: Rand) => `${fixed(rand, 15_360, 3)}, ${fixed(rand, 600, 3)}, ${fixed(rand, 15_360, 3)}`
const clock = (rand: Rand) =>
  `${String(int(rand, 0, 23)).padStart(2, "0")}:${String(int(rand, 0, 59)).padStart(2, "0")}:${String(int(rand, 0, 59)).padStart(2, "0")}`

/** Text made line by line until it has `bytes` bytes. */
const textPool = (bytes: number, rand: Rand, line: (rand: Rand) => string): Buffer => {
  const pieces: Array<string> = []
  let length = 0
  while (length < bytes) {
    const text = line(rand)
    pieces.push(text)
    length += text.length
  }
  return Buffer.from(pieces.join(""), "latin1").subarray(0, bytes)
}

const xmlLine = (rand: Rand): string => {
  const roll = rand()
  if (roll < 0.55) {
    return (
      `    <type name="${itemName(rand)}">\n        <nominal>${int(rand, 0, 60)}</nominal>\n        <lifetime>${int(rand, 3, 14) * 600}</lifetime>\n` +
      `        <restock>${int(rand, 0, 3) * 600}</restock>\n        <min>${int(rand, 0, 20)}</min>\n        <quantmin>${int(rand, -1, 80)}</quantmin>\n` +
      `        <quantmax>${int(rand, -1, 100)}</quantmax>\n        <cost>100</cost>\n        <flags count_in_cargo="0" count_in_hoarder="${int(rand, 0, 1)}" count_in_map="1" count_in_player="0" crafted="0" deloot="0"/>\n` +
      `        <category name="${pick(rand, ["weapons", "tools", "food", "clothes", "containers", "vehicleparts"])}"/>\n        <usage name="${pick(rand, USAGES)}"/>\n` +
      `        <value name="Tier${int(rand, 1, 4)}"/>\n    </type>\n`
    )
  }
  if (roll < 0.9) return `        <pos x="${fixed(rand, 15_360, 6)}" z="${fixed(rand, 15_360, 6)}" a="${fixed(rand, 360, 4)}" y="${fixed(rand, 600, 4)}"/>\n`
  return `    <group name="Land_${pick(rand, ITEMS)}_${int(rand, 1, 40)}" pos="${position(rand).replace(/,/g, "")}" rpy="0 0 ${fixed(rand, 360, 5)}" a="${fixed(rand, 360, 5)}"/>\n`
}

const jsonLine = (rand: Rand): string => {
  if (rand() < 0.6) {
    return (
      `        {\n            "ClassName": "${itemName(rand)}",\n            "MaxPriceThreshold": ${int(rand, 10, 90_000)},\n            "MinPriceThreshold": ${int(rand, 5, 40_000)},\n` +
      `            "SellPricePercent": ${rand() < 0.7 ? -1 : fixed(rand, 100, 1)},\n            "MaxStockThreshold": ${int(rand, 1, 500)},\n            "MinStockThreshold": ${int(rand, 0, 10)},\n` +
      `            "QuantityPercent": -1,\n            "SpawnAttachments": [${rand() < 0.5 ? "" : `"${itemName(rand)}", "${itemName(rand)}"`}],\n            "Variants": []\n        },\n`
    )
  }
  return (
    `    {"uid": "${steamId(rand)}", "name": "${playerName(rand)}", "pos": [${position(rand)}], "health": ${fixed(rand, 100, 2)}, ` +
    `"blood": ${int(rand, 2500, 5000)}, "water": ${fixed(rand, 5000, 1)}, "energy": ${fixed(rand, 20_000, 1)}, "lastSeen": ${int(rand, 1_690_000_000, 1_720_000_000)}, "kills": ${int(rand, 0, 300)}},\n`
  )
}

const textLine = (rand: Rand): string => {
  const roll = rand()
  if (roll < 0.5) {
    return `${clock(rand)} | Player "${playerName(rand)}" (id=${createId(rand)} pos=<${position(rand)}>) ${pick(rand, ACTIONS)} ${itemName(rand)}<${itemName(rand)}>\n`
  }
  if (roll < 0.8) return `${clock(rand)}.${int(rand, 100, 999)} SCRIPT       : [${pick(rand, ["Trader", "Expansion", "BBP", "VPP", "CF"])}] ${playerName(rand)} ${pick(rand, ACTIONS)} ${itemName(rand)} for ${int(rand, 5, 90_000)}\n`
  return `${itemName(rand)} = ${int(rand, 0, 9)},${int(rand, 1, 500)},${int(rand, 5, 90_000)},${int(rand, 1, 45_000)};  // ${pick(rand, USAGES)}\n`
}

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const createId = (rand: Rand) => {
  let id = ""
  for (let i = 0; i < 43; i++) id += ID_CHARS[Math.floor(rand() * 64)]
  return `${id}=`
}

/** Persistence records: a type, flags and zero padding around random ids and float coordinates (about half random). */
const storagePool = (bytes: number, rand: Rand, random: Buffer): Buffer => {
  const pool = Buffer.alloc(bytes)
  for (let at = 0; at + 64 <= bytes; at += 64) {
    pool.writeUInt32LE(int(rand, 1, 24), at)
    pool.writeUInt16LE(rand() < 0.8 ? 0x0101 : int(rand, 0, 65_535), at + 4)
    random.copy(pool, at + 8, (at * 7) % (random.length - 32), ((at * 7) % (random.length - 32)) + 16)
    pool.writeFloatLE(rand() * 15_360, at + 24)
    pool.writeFloatLE(rand() * 600, at + 28)
    pool.writeFloatLE(rand() * 15_360, at + 32)
    pool.writeFloatLE(rand(), at + 36)
    pool.writeUInt32LE(int(rand, 0, 100_000), at + 40)
  }
  return pool
}

interface Pools {
  readonly random: Buffer
  readonly xml: Buffer
  readonly json: Buffer
  readonly text: Buffer
  readonly storage: Buffer
}
export type PoolName = keyof Pools

export interface PlannedFile {
  readonly path: string
  readonly size: number
  readonly pool: PoolName
  /** Literal content instead of pool bytes (small configuration files). */
  readonly content?: string
}

/** `count` sizes between `min` and `max` (log-uniform), scaled to add up to `total`. */
const spread = (rand: Rand, count: number, min: number, max: number, total: number): ReadonlyArray<number> => {
  const raw = Array.from({ length: count }, () => Math.exp(Math.log(min) + rand() * (Math.log(max) - Math.log(min))))
  const sum = raw.reduce((a, b) => a + b, 0)
  const sizes = raw.map((r) => Math.max(1, Math.floor((r / sum) * total)))
  sizes[sizes.length - 1]! += total - sizes.reduce((a, b) => a + b, 0)
  return sizes
}

const MODS = ["@CF", "@Trader", "@Expansion-Core", "@Expansion-Vehicles", "@BaseBuildingPlus", "@MuchStuffPack", "@CodeLock", "@VPPAdminTools", "@Dogtags", "@Airdrop-Upgraded"]
const MISSION = "mpmissions/dayzOffline.chernarusplus"
const SERVER_CFG = `hostname = "Bench Server";\npassword = "";\npasswordAdmin = "";\nmaxPlayers = 60;\nverifySignatures = 2;\nforceSameBuild = 1;\ndisableVoN = 0;\nserverTime = "SystemTime";\nserverTimeAcceleration = 6;\nstorageAutoFix = 1;\n\nclass Missions\n{\n    class DayZ\n    {\n        template = "dayzOffline.chernarusplus";\n    };\n};\n`

/** What the folder will hold: a few thousand files adding up to `total` bytes. */
const planFolder = (total: number, rand: Rand): ReadonlyArray<PlannedFile> => {
  const scale = total / (1024 * MiB)
  const count = (n: number) => Math.max(3, Math.round(n * Math.min(1, scale)))
  const files: Array<PlannedFile> = []
  const literal = (path: string, content: string) => files.push({ path, size: Buffer.byteLength(content), pool: "text", content })
  literal("DayZServer", "#!/bin/sh\necho 'not a game server: a benchmark fixture'\n")
  literal("serverDZ.cfg", SERVER_CFG)
  literal("battleye/beserver_x64.cfg", "RConPassword benchpw\nRConPort 2306\nRConIP 127.0.0.1\n")
  literal("battleye/bans.txt", "")
  for (const mod of MODS) {
    literal(`${mod}/meta.cpp`, `protocol = 1;\npublishedid = ${int(rand, 1_500_000_000, 3_200_000_000)};\nname = "${mod.slice(1)}";\ntimestamp = ${int(rand, 5e9, 6e9)};\n`)
    literal(`${mod}/mod.cpp`, `name = "${mod.slice(1)}";\npicture = "";\nactionName = "Website";\naction = "https://example.invalid/${mod.slice(1)}";\n`)
    files.push({ path: `${mod}/keys/${mod.slice(1)}.bikey`, size: 149, pool: "random" })
    files.push({ path: `keys/${mod.slice(1)}.bikey`, size: 149, pool: "random" })
  }
  const fixedBytes = files.reduce((sum, f) => sum + f.size, 0)

  // ~40% incompressible: three large pbos, ~150 small ones, a signature each.
  const incompressible = Math.floor(total * 0.4)
  const big = [
    { path: "@Expansion-Vehicles/addons/vehicles_data.pbo", share: 0.45 },
    { path: "@MuchStuffPack/addons/msp_structures.pbo", share: 0.27 },
    { path: "@BaseBuildingPlus/addons/bbp_data.pbo", share: 0.13 }
  ]
  for (const b of big) {
    files.push({ path: b.path, size: Math.floor(incompressible * b.share), pool: "random" })
    files.push({ path: `${b.path}.${NodePath.basename(NodePath.dirname(NodePath.dirname(b.path))).slice(1)}.bisign`, size: 570, pool: "random" })
  }
  const smallPbos = count(150)
  const smallPboBytes = incompressible - files.filter((f) => f.path.endsWith(".pbo")).reduce((sum, f) => sum + f.size, 0) - smallPbos * 570
  for (const [i, size] of spread(rand, smallPbos, 32 * 1024, 2 * MiB, smallPboBytes).entries()) {
    const mod = MODS[i % MODS.length]!
    const name = `${mod}/addons/${mod.slice(1).toLowerCase()}_${String(i).padStart(3, "0")}.pbo`
    files.push({ path: name, size, pool: "random" }, { path: `${name}.${mod.slice(1)}.bisign`, size: 570, pool: "random" })
  }

  // ~60% compressible: the mission's big XML files, persistence, profiles' many small and medium files.
  const compressible = total - incompressible - fixedBytes
  const compressibleFrom = files.length
  const share = (s: number) => Math.floor(compressible * s)
  files.push(
    { path: `${MISSION}/db/types.xml`, size: share(0.02), pool: "xml" },
    { path: `${MISSION}/db/events.xml`, size: share(0.003), pool: "xml" },
    { path: `${MISSION}/cfgeventspawns.xml`, size: share(0.01), pool: "xml" },
    { path: `${MISSION}/mapgrouppos.xml`, size: share(0.02), pool: "xml" },
    { path: `${MISSION}/mapgroupproto.xml`, size: share(0.005), pool: "xml" },
    { path: `${MISSION}/storage_1/data/vehicles.bin`, size: share(0.03), pool: "storage" },
    { path: `${MISSION}/storage_1/data/building.bin`, size: share(0.05), pool: "storage" },
    { path: `${MISSION}/storage_1/data/events.bin`, size: share(0.01), pool: "storage" }
  )
  const dynamics = count(240)
  for (const [i, size] of spread(rand, dynamics, 64 * 1024, 3 * MiB, share(0.3)).entries()) {
    files.push({ path: `${MISSION}/storage_1/data/dynamic_${String(i).padStart(3, "0")}.bin`, size, pool: "storage" })
  }
  const medium = count(250)
  const mediumKinds = [
    { folder: "profiles/ExpansionMod/Market", ext: "json", pool: "json" as const },
    { folder: "profiles/TraderPlus/History", ext: "txt", pool: "text" as const },
    { folder: "profiles/VPPAdminTools/Logging", ext: "txt", pool: "text" as const },
    { folder: "profiles/PlayerData", ext: "json", pool: "json" as const },
    { folder: `${MISSION}/env`, ext: "xml", pool: "xml" as const }
  ]
  for (const [i, size] of spread(rand, medium, 200 * 1024, 3 * MiB, share(0.47)).entries()) {
    const kind = mediumKinds[i % mediumKinds.length]!
    files.push({ path: `${kind.folder}/part_${String(i).padStart(4, "0")}.${kind.ext}`, size, pool: kind.pool })
  }
  const small = count(2400)
  const smallFolders = ["profiles/ExpansionMod/Settings", "profiles/ExpansionMod/Quests/Objectives", "profiles/ExpansionMod/Traders", "profiles/TraderPlus/Config", "profiles/BBP/Territories", "profiles/VPPAdminTools/Permissions", "profiles/Dogtags/Players", `${MISSION}/expansion/traders`, `${MISSION}/storage_1/players`]
  const smallBytes = compressible - files.slice(compressibleFrom).reduce((sum, f) => sum + f.size, 0)
  for (const [i, size] of spread(rand, small, 1024, 64 * 1024, smallBytes).entries()) {
    const folder = smallFolders[i % smallFolders.length]!
    const pool: PoolName = folder.endsWith("players") ? "storage" : i % 3 === 0 ? "xml" : i % 3 === 1 ? "json" : "text"
    const ext = pool === "storage" ? "bin" : pool === "text" ? "txt" : pool
    files.push({ path: `${folder}/${String(i).padStart(5, "0")}.${ext}`, size, pool })
  }
  return files
}

export interface MadeFolder {
  readonly root: string
  /** The top-level names: the backup's paths and tar's arguments. */
  readonly topLevel: ReadonlyArray<string>
  readonly files: ReadonlyArray<PlannedFile>
  /** Every folder under the top-level names, themselves included. */
  readonly folders: ReadonlyArray<string>
  readonly bytes: number
  readonly poolRatios: Readonly<Record<PoolName, number>>
}

export const writeFolder = (root: string, seed: number, total: number): MadeFolder => {
  const rand = seeded(seed)
  const random = randomPool(16 * MiB, seed)
  const pools: Pools = {
    random,
    xml: textPool(8 * MiB, rand, xmlLine),
    json: textPool(8 * MiB, rand, jsonLine),
    text: textPool(8 * MiB, rand, textLine),
    storage: storagePool(8 * MiB, rand, random)
  }
  const files = planFolder(total, rand)
  const folders = new Set<string>()
  for (const file of files) {
    for (let dir = NodePath.posix.dirname(file.path); dir !== "."; dir = NodePath.posix.dirname(dir)) folders.add(dir)
  }
  for (const dir of [...folders].sort()) Fs.mkdirSync(NodePath.join(root, dir), { recursive: true })
  for (const file of files) {
    const fd = Fs.openSync(NodePath.join(root, file.path), "w", file.path === "DayZServer" ? 0o755 : 0o644)
    try {
      if (file.content !== undefined) {
        Fs.writeSync(fd, file.content)
        continue
      }
      const pool = pools[file.pool]
      let offset = Math.floor(rand() * pool.length)
      for (let left = file.size; left > 0; ) {
        const n = Math.min(left, MiB, pool.length - offset)
        Fs.writeSync(fd, pool, offset, n)
        left -= n
        // A fresh place in the pool for the next piece, so no file repeats another's run of bytes.
        offset = n === pool.length - offset ? 0 : Math.floor(rand() * (pool.length - MiB))
      }
    } finally {
      Fs.closeSync(fd)
    }
  }
  const topLevel = [...new Set(files.map((f) => f.path.split("/")[0]!))].sort()
  // How compressible each pool is with zlib level 6, on its first MiB (for the log).
  const zlib = (pool: Buffer) => MiB / deflatedSize(pool.subarray(0, MiB))
  return {
    root,
    topLevel,
    files,
    folders: [...folders].sort(),
    bytes: files.reduce((sum, f) => sum + f.size, 0),
    poolRatios: { random: zlib(pools.random), xml: zlib(pools.xml), json: zlib(pools.json), text: zlib(pools.text), storage: zlib(pools.storage) }
  }
}

const deflatedSize = (bytes: Buffer): number => deflateRawSync(bytes, { level: 6 }).length
