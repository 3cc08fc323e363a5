/**
 * The backups benchmark (issue: "backing up a 1 GB server folder streams
 * (controller RSS grows less than 100 MB) at a throughput of at least
 * 0.5 × `tar -czf` of the same folder at the same compression level").
 *
 * Set-up (not measured): a ~1 GiB server folder in a temporary folder,
 * made from a seeded generator so every run backs up the same bytes:
 * - ~40% incompressible (mods' `.pbo` files: three of 50-190 MiB, ~150
 *   small ones, their `.bisign` signatures, `.bikey` keys), random bytes;
 * - ~60% compressible but not trivially so: XML (`types.xml`-like entries,
 *   spawn positions), JSON (trader prices, player records), text with
 *   timestamps, names, ids and coordinates, and binary persistence records
 *   (`storage_1/data/*.bin`, half structure, half random), in ~2,400 small
 *   files (1-64 KiB), ~250 medium ones (0.2-3 MiB) and a few large ones;
 * in all about 3,300 files. Random and text pools of a few MiB are made
 * once and written out at varying offsets (deflate's window is 32 KiB, so
 * a pool repeated megabytes apart compresses no better than fresh bytes).
 * Then `sync`, so neither side pays for the other's write-back.
 *
 * Baseline: `tar -czf <out>.tar.gz -C <folder> <the same top-level names>`
 * (tar pipes through `gzip` with no level, i.e. gzip's default -6: zlib
 * level 6, the backups plugin's `COMPRESSION_LEVEL`), wall time, with the
 * CPU time of tar and gzip (bash's `times`). For information only, the
 * time of then syncing the .tar.gz to disk (the plugin syncs its zip before
 * publishing it; tar does not).
 *
 * Measured: the built controller (default plugins, a real admin from
 * ADMIN_USERNAME/ADMIN_PASSWORD, BACKUP_DIR in the temporary folder) with
 * a server entry for the folder (it never runs) whose backup paths are
 * every top-level name of the folder (`excludeLogs: false`; the folder has
 * no log files anyway). `POST /api/servers/:id/backups` (202), then
 * `GET /api/servers/:id/backup-status` every 150 ms until `done`: wall
 * time from the POST to the first `done`. Meanwhile the controller's VmRSS
 * every 50 ms; before = the settled value after start-up, the entry and its
 * config (no GC can be forced from outside); peak = the highest sample, or
 * VmHWM when the backup raised it above its value before. Goals: growth
 * (peak - before) < 100 MiB; throughput (folder bytes / wall time)
 * garrison/tar >= 0.5. The zip is then checked with yauzl: one entry per
 * file and folder made plus the manifest, the manifest listing every file
 * with its size and the folder's total, and three files' SHA-256 (the
 * largest and two random) equal to the manifest's and to the entry's
 * inflated bytes.
 *
 * `/api/*` is rate-limited per client IP, so (like `servers.ts`) the
 * controller runs with TRUST_PROXY=1 and requests carry an
 * `X-Forwarded-For` from a pool of addresses.
 *
 * Env: BENCH_BACKUPS_MIB (1024: the folder's size), BENCH_BACKUPS_SEED (1);
 * BENCH_BACKUPS_KEEP=1 keeps the temporary folder (path printed);
 * BENCH_BACKUPS_CPU_PROF=1 runs the controller with `--cpu-prof` and
 * prints where its profile went (kept with the folder, which is then kept).
 * Run alone: `node test/dist/bench/backups.js`; with the rest: `npm run bench`.
 */
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { deflateRawSync } from "node:zlib"
import * as Yauzl from "yauzl"
import {
  assertBuilt,
  controllerEntry,
  type ControllerHandle,
  delay,
  freePort,
  HOST,
  killAllChildren,
  makeTempDir,
  removeDir,
  requestJson,
  spawnController,
  spawnNode,
  stopProcess,
  waitForHttp
} from "../support/controller.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"
import { cpuSeconds, hwmMiB, rssMiB } from "./internal/procfs.js"

const GOALS = { throughputRatio: 0.5, rssGrowthMiB: 100 } as const
const ADMIN = { username: "bench-admin", password: "bench admin password 1" }
const MiB = 1024 * 1024
const POLL_MS = 150
const RSS_SAMPLE_MS = 50

const settings = () => ({
  mib: envInt("BENCH_BACKUPS_MIB", 1024),
  seed: envInt("BENCH_BACKUPS_SEED", 1),
  keep: process.env["BENCH_BACKUPS_KEEP"] === "1",
  cpuProf: process.env["BENCH_BACKUPS_CPU_PROF"] === "1"
})

// ---------------------------------------------------------------------------
// The server folder
// ---------------------------------------------------------------------------

/** mulberry32: a small seeded generator, [0, 1). */
const seeded = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
type Rand = ReturnType<typeof seeded>
const int = (rand: Rand, min: number, max: number) => min + Math.floor(rand() * (max - min + 1))
const pick = <A>(rand: Rand, items: ReadonlyArray<A>): A => items[Math.floor(rand() * items.length)]!
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
type PoolName = keyof Pools

interface PlannedFile {
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

interface MadeFolder {
  readonly root: string
  /** The top-level names: the backup's paths and tar's arguments. */
  readonly topLevel: ReadonlyArray<string>
  readonly files: ReadonlyArray<PlannedFile>
  /** Every folder under the top-level names, themselves included. */
  readonly folders: ReadonlyArray<string>
  readonly bytes: number
  readonly poolRatios: Readonly<Record<PoolName, number>>
}

const writeFolder = (root: string, seed: number, total: number): MadeFolder => {
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

// ---------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------

interface Ran {
  readonly code: number | null
  readonly ms: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end; wall time in ms. */
const runCommand = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, [...args], { stdio: ["ignore", "pipe", "pipe"], env })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, ms: performance.now() - started, stdout, stderr }))
  })

/** bash's `times`, second line: the children's user and system time, e.g. `0m12.345s 0m1.234s`. */
const childCpuSeconds = (times: string): number | undefined => {
  const line = times.trim().split("\n")[1]
  const parts = line === undefined ? [] : [...line.matchAll(/(\d+)m([\d.]+)s/g)]
  return parts.length === 2 ? parts.reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0) : undefined
}

interface TarResult {
  readonly ms: number
  readonly cpuS: number | undefined
  readonly sizeBytes: number
  readonly syncMs: number
}

const tarBaseline = async (folder: MadeFolder, output: string): Promise<TarResult> => {
  // No GZIP in the environment: tar's gzip then runs at its default level, 6.
  const env = { ...process.env }
  delete env["GZIP"]
  const ran = await runCommand(
    "bash",
    ["-c", 'tar -czf "$0" -C "$1" "${@:2}"; status=$?; times; exit $status', output, folder.root, ...folder.topLevel],
    env
  )
  if (ran.code !== 0) throw new Error(`tar -czf exited ${ran.code}: ${ran.stderr}`)
  const synced = await runCommand("sync", [output])
  return { ms: ran.ms, cpuS: childCpuSeconds(ran.stdout), sizeBytes: Fs.statSync(output).size, syncMs: synced.ms }
}

// ---------------------------------------------------------------------------
// The controller
// ---------------------------------------------------------------------------

/** `spawnController`'s child with `--cpu-prof` (not allowed in NODE_OPTIONS); the profile is written when it exits. */
const spawnProfiledController = async (dataDir: string, env: Readonly<Record<string, string>>, profDir: string): Promise<ControllerHandle> => {
  assertBuilt()
  const port = await freePort()
  const handle = spawnNode({
    args: ["--cpu-prof", `--cpu-prof-dir=${profDir}`, controllerEntry],
    env: { PORT: String(port), HOST, DATA_DIR: dataDir, PLUGINS: "", LOG_LEVEL: "Warn", ...env }
  })
  return { ...handle, port, baseUrl: `http://${HOST}:${port}`, dataDir }
}

let addressCounter = 0
/** A fresh client address per call, so no single address reaches the per-IP limit. */
const nextAddress = () => {
  const i = addressCounter++ % 65536
  return `10.98.${(i >> 8) & 255}.${i & 255}`
}

const api = (controller: ControllerHandle, method: string, path: string, token?: string, body?: unknown) =>
  requestJson(controller.baseUrl, method, path, {
    headers: { "x-forwarded-for": nextAddress(), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    timeoutMs: 30_000,
    ...(body === undefined ? {} : { body })
  })

const expectStatus = (what: string, response: { readonly status: number; readonly body: unknown }, status: number) => {
  if (response.status !== status) throw new Error(`${what} answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

interface BackupStatus {
  readonly state: "idle" | "running" | "done" | "failed"
  readonly phase: string
  readonly filename: string | null
  readonly bytesDone: number
  readonly bytesTotal: number
  readonly error: string | null
}

interface BackupRun {
  readonly ms: number
  readonly status: BackupStatus
  /** When each phase was first seen, ms after the POST. */
  readonly phases: ReadonlyArray<{ readonly phase: string; readonly atMs: number }>
  readonly rssBefore: number
  readonly rssPeakSampled: number
  readonly hwmBefore: number | undefined
  readonly hwmAfter: number | undefined
  readonly rssAfter: number | undefined
  readonly samples: number
  readonly cpuS: number | undefined
}

/** Waits until VmRSS moves less than 1 MiB over a second (at most 10 s); the last value. */
const settledRss = async (pid: number): Promise<number> => {
  let last = rssMiB(pid) ?? 0
  for (let i = 0; i < 10; i++) {
    await delay(1_000)
    const now = rssMiB(pid) ?? 0
    if (Math.abs(now - last) < 1) return now
    last = now
  }
  return last
}

const runBackup = async (controller: ControllerHandle, token: string, serverId: string, budgetMs: number): Promise<BackupRun> => {
  const rssBefore = await settledRss(controller.pid)
  const hwmBefore = hwmMiB(controller.pid)
  const cpuBefore = cpuSeconds(controller.pid)
  let peak = rssBefore
  let samples = 0
  const sampler = setInterval(() => {
    const now = rssMiB(controller.pid)
    if (now !== undefined) {
      samples++
      peak = Math.max(peak, now)
    }
  }, RSS_SAMPLE_MS)
  try {
    const started = performance.now()
    const posted = expectStatus(`POST /api/servers/${serverId}/backups`, await api(controller, "POST", `/api/servers/${serverId}/backups`, token), 202) as BackupStatus
    const phases: Array<{ phase: string; atMs: number }> = [{ phase: posted.phase, atMs: performance.now() - started }]
    const deadline = Date.now() + budgetMs
    for (;;) {
      const status = expectStatus("GET backup-status", await api(controller, "GET", `/api/servers/${serverId}/backup-status`, token), 200) as BackupStatus
      const at = performance.now() - started
      if (phases[phases.length - 1]!.phase !== status.phase) phases.push({ phase: status.phase, atMs: at })
      if (status.state === "done") {
        const cpuAfter = cpuSeconds(controller.pid)
        return {
          ms: at,
          status,
          phases,
          rssBefore,
          rssPeakSampled: peak,
          hwmBefore,
          hwmAfter: hwmMiB(controller.pid),
          rssAfter: rssMiB(controller.pid),
          samples,
          cpuS: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore
        }
      }
      if (status.state === "failed") throw new Error(`the backup failed: ${status.error}`)
      if (status.state !== "running") throw new Error(`backup-status is ${status.state} during the backup`)
      if (controller.hasExited()) throw new Error(`the controller exited during the backup; output:\n${controller.output()}`)
      if (Date.now() > deadline) throw new Error(`the backup did not end within ${budgetMs} ms (last: ${JSON.stringify(status)})`)
      await delay(POLL_MS)
    }
  } finally {
    clearInterval(sampler)
  }
}

// ---------------------------------------------------------------------------
// The zip
// ---------------------------------------------------------------------------

interface ManifestFile {
  readonly root: string
  readonly path: string
  readonly size: number
  readonly sha256: string
}
interface Manifest {
  readonly files: ReadonlyArray<ManifestFile>
  readonly folders: ReadonlyArray<unknown>
  readonly totalBytes: number
  readonly warnings: ReadonlyArray<string>
}

const MANIFEST_NAME = "garrison-backup.json"

const openZip = (path: string) =>
  new Promise<Yauzl.ZipFile>((resolve, reject) =>
    Yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) => (error !== null || zip === undefined ? reject(error) : resolve(zip)))
  )

const entriesOf = (zip: Yauzl.ZipFile) =>
  new Promise<ReadonlyArray<Yauzl.Entry>>((resolve, reject) => {
    const entries: Array<Yauzl.Entry> = []
    zip.on("entry", (entry: Yauzl.Entry) => {
      entries.push(entry)
      zip.readEntry()
    })
    zip.on("end", () => resolve(entries))
    zip.on("error", reject)
    zip.readEntry()
  })

/** An entry's inflated bytes through `sink`, piece by piece. */
const readEntry = (zip: Yauzl.ZipFile, entry: Yauzl.Entry, sink: (piece: Buffer) => void) =>
  new Promise<void>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => {
      if (error !== null || stream === undefined) return reject(error)
      stream.on("data", sink)
      stream.on("end", () => resolve())
      stream.on("error", reject)
    })
  )

const sha256Of = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash("sha256")
    Fs.createReadStream(path)
      .on("data", (piece) => hash.update(piece))
      .on("end", () => resolve(hash.digest("hex")))
      .on("error", reject)
  })

interface ZipCheck {
  readonly complete: boolean
  readonly problems: ReadonlyArray<string>
  readonly entries: number
  readonly manifestFiles: number
  readonly warnings: ReadonlyArray<string>
}

const checkZip = async (path: string, folder: MadeFolder, rand: Rand): Promise<ZipCheck> => {
  const problems: Array<string> = []
  const zip = await openZip(path)
  try {
    const entries = await entriesOf(zip)
    const expectedEntries = folder.files.length + folder.folders.length + 1
    if (entries.length !== expectedEntries) {
      problems.push(`${entries.length} entries, expected ${expectedEntries} (${folder.files.length} files + ${folder.folders.length} folders + the manifest)`)
    }
    const manifestEntry = entries.find((e) => e.fileName === MANIFEST_NAME)
    if (manifestEntry === undefined) return { complete: false, problems: [...problems, `no ${MANIFEST_NAME}`], entries: entries.length, manifestFiles: 0, warnings: [] }
    const pieces: Array<Buffer> = []
    await readEntry(zip, manifestEntry, (piece) => pieces.push(piece))
    const manifest = JSON.parse(Buffer.concat(pieces).toString("utf8")) as Manifest
    if (manifest.files.length !== folder.files.length) problems.push(`the manifest lists ${manifest.files.length} files, expected ${folder.files.length}`)
    if (manifest.folders.length !== folder.folders.length) problems.push(`the manifest lists ${manifest.folders.length} folders, expected ${folder.folders.length}`)
    if (manifest.totalBytes !== folder.bytes) problems.push(`the manifest's totalBytes is ${manifest.totalBytes}, expected ${folder.bytes}`)
    const listed = new Map(manifest.files.map((f) => [f.path, f]))
    const missing = folder.files.filter((f) => listed.get(f.path)?.size !== f.size)
    if (missing.length > 0) problems.push(`${missing.length} files missing or of another size in the manifest, e.g. ${missing.slice(0, 3).map((f) => f.path).join(", ")}`)

    // Three files whole: the largest and two random ones, against the folder and the entry's inflated bytes.
    const largest = folder.files.reduce((a, b) => (b.size > a.size ? b : a))
    const sampled = [largest, pick(rand, folder.files), pick(rand, folder.files)]
    const byName = new Map(entries.map((e) => [e.fileName, e]))
    for (const file of sampled) {
      const listedFile = listed.get(file.path)
      const entry = byName.get(`install/${file.path}`)
      if (listedFile === undefined || entry === undefined) {
        problems.push(`install/${file.path} is not in the zip`)
        continue
      }
      const onDisk = await sha256Of(NodePath.join(folder.root, file.path))
      const hash = createHash("sha256")
      await readEntry(zip, entry, (piece) => hash.update(piece))
      const inZip = hash.digest("hex")
      if (onDisk !== listedFile.sha256 || inZip !== onDisk) problems.push(`${file.path}: SHA-256 on disk ${onDisk.slice(0, 12)}, manifest ${listedFile.sha256.slice(0, 12)}, zip ${inZip.slice(0, 12)}`)
    }
    return { complete: problems.length === 0, problems, entries: entries.length, manifestFiles: manifest.files.length, warnings: manifest.warnings }
  } finally {
    zip.close()
  }
}

// ---------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------

const mib = (bytes: number) => bytes / MiB
const f1 = (n: number | undefined) => (n === undefined ? "n/a" : n.toFixed(1))
const verdict = (met: boolean) => (met ? "met" : "NOT met")

const BUDGET_MS = 10 * 60_000

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  const phase = (() => {
    const t0 = performance.now()
    return (what: string) => console.log(`  [${((performance.now() - t0) / 1000).toFixed(1)} s] ${what}`)
  })()
  const root = makeTempDir("garrison-bench-backups-")
  let controller: ControllerHandle | undefined
  const keep = s.keep || s.cpuProf
  try {
    const serverDir = NodePath.join(root, "server")
    const dataDir = NodePath.join(root, "data")
    const backupDir = NodePath.join(root, "backups")
    const profDir = NodePath.join(root, "cpu-prof")
    for (const dir of [serverDir, dataDir, backupDir]) Fs.mkdirSync(dir)

    const folder = writeFolder(serverDir, s.seed, s.mib * MiB)
    phase(
      `server folder: ${f1(mib(folder.bytes))} MiB in ${folder.files.length} files and ${folder.folders.length} folders (seed ${s.seed}); ` +
        `zlib-6 ratio of the pools: ${Object.entries(folder.poolRatios).map(([name, r]) => `${name} ${r.toFixed(2)}x`).join(", ")}`
    )
    await runCommand("sync", [])
    phase("synced to disk")

    const tar = await tarBaseline(folder, NodePath.join(root, "baseline.tar.gz"))
    const tarMiBs = mib(folder.bytes) / (tar.ms / 1000)
    phase(
      `tar -czf (gzip -6): ${(tar.ms / 1000).toFixed(2)} s, ${tarMiBs.toFixed(1)} MiB/s, ${f1(mib(tar.sizeBytes))} MiB, CPU (tar + gzip) ${f1(tar.cpuS)} s; ` +
        `syncing the .tar.gz afterwards took ${(tar.syncMs / 1000).toFixed(2)} s more`
    )
    Fs.rmSync(NodePath.join(root, "baseline.tar.gz"))

    if (s.cpuProf) Fs.mkdirSync(profDir)
    const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: "1", DB_BACKUP_INTERVAL: "365 days", BACKUP_DIR: backupDir }
    controller = s.cpuProf ? await spawnProfiledController(dataDir, env, profDir) : await spawnController({ dataDir, logLevel: "Warn", env })
    await waitForHttp(controller, `${controller.baseUrl}/api/health/ping`, 60_000)
    const login = expectStatus("login", await api(controller, "POST", "/api/auth/login", undefined, ADMIN), 200) as { token: string }
    const token = login.token
    const created = expectStatus("POST /api/servers", await api(controller, "POST", "/api/servers", token, { name: "Backup bench", installDir: serverDir }), 201) as {
      id: string
    }
    expectStatus(
      "PUT backup-config",
      await api(controller, "PUT", `/api/servers/${created.id}/backup-config`, token, { paths: folder.topLevel, excludeLogs: false }),
      200
    )
    phase(`controller up (pid ${controller.pid}), entry ${created.id}, backup paths: ${folder.topLevel.join(" ")}`)

    const backup = await runBackup(controller, token, created.id, BUDGET_MS)
    const seconds = backup.ms / 1000
    const garrisonMiBs = mib(folder.bytes) / seconds
    // VmHWM catches a peak between samples, once the backup raised it above what start-up had reached.
    const hwmRaised = backup.hwmAfter !== undefined && backup.hwmBefore !== undefined && backup.hwmAfter > backup.hwmBefore
    const peak = hwmRaised ? Math.max(backup.rssPeakSampled, backup.hwmAfter!) : backup.rssPeakSampled
    const growth = peak - backup.rssBefore
    const zipPath = NodePath.join(backupDir, created.id, backup.status.filename!)
    const zipBytes = Fs.statSync(zipPath).size
    phase(
      `backup ${backup.status.filename}: ${seconds.toFixed(2)} s, ${garrisonMiBs.toFixed(1)} MiB/s, ${f1(mib(zipBytes))} MiB, controller CPU ${f1(backup.cpuS)} s; ` +
        `phases ${backup.phases.map((p) => `${p.phase || "(none)"}@${(p.atMs / 1000).toFixed(2)}s`).join(" ")}`
    )
    console.log(
      `  controller RSS: before ${f1(backup.rssBefore)} MiB, peak ${f1(peak)} MiB (sampled ${f1(backup.rssPeakSampled)} MiB over ${backup.samples} samples; ` +
        `VmHWM ${f1(backup.hwmBefore)} -> ${f1(backup.hwmAfter)} MiB), after ${f1(backup.rssAfter)} MiB; growth ${f1(growth)} MiB`
    )

    const check = await checkZip(zipPath, folder, seeded(s.seed + 1))
    phase(
      `zip checked: ${check.entries} entries, manifest lists ${check.manifestFiles} files` +
        (check.complete ? ", complete" : `; PROBLEMS: ${check.problems.join("; ")}`) +
        (check.warnings.length > 0 ? `; manifest warnings: ${check.warnings.slice(0, 3).join("; ")}` : "")
    )

    const ratio = garrisonMiBs / tarMiBs
    const ratioMet = ratio >= GOALS.throughputRatio
    const rssMet = growth < GOALS.rssGrowthMiB
    console.log(`  throughput garrison/tar ${ratio.toFixed(2)} (goal >= ${GOALS.throughputRatio}: ${verdict(ratioMet)})`)
    console.log(`  RSS growth ${f1(growth)} MiB (goal < ${GOALS.rssGrowthMiB} MiB: ${verdict(rssMet)})`)
    console.log(`  zip ${f1(mib(zipBytes))} MiB vs tar.gz ${f1(mib(tar.sizeBytes))} MiB (${(zipBytes / tar.sizeBytes).toFixed(3)}x)`)
    if (s.cpuProf) {
      await stopProcess(controller, 20_000)
      phase(`CPU profile(s) of the controller: ${Fs.readdirSync(profDir).map((name) => NodePath.join(profDir, name)).join(" ")}`)
    }

    return {
      headline:
        `${f1(mib(folder.bytes))} MiB, ${folder.files.length} files: garrison ${seconds.toFixed(1)} s ${garrisonMiBs.toFixed(1)} MiB/s, ` +
        `tar -czf ${(tar.ms / 1000).toFixed(1)} s ${tarMiBs.toFixed(1)} MiB/s, ratio ${ratio.toFixed(2)}; RSS ${f1(backup.rssBefore)} -> peak ${f1(peak)} MiB ` +
        `(+${f1(growth)}); zip ${f1(mib(zipBytes))} MiB vs tar.gz ${f1(mib(tar.sizeBytes))} MiB${check.complete ? "" : "; ZIP INCOMPLETE"}`,
      goals: [
        { description: `throughput garrison/tar -czf >= ${GOALS.throughputRatio}`, met: ratioMet },
        { description: `controller RSS growth < ${GOALS.rssGrowthMiB} MiB`, met: rssMet },
        { description: "the zip holds every file and folder, with the manifest", met: check.complete }
      ]
    }
  } catch (error) {
    if (controller !== undefined && !controller.hasExited()) console.error(`  controller output:\n${controller.output().slice(-4000)}`)
    throw error
  } finally {
    if (controller !== undefined) await stopProcess(controller, 10_000)
    if (keep) console.log(`  kept: ${root}`)
    else removeDir(root)
  }
}

export const benchmark: Benchmark = {
  name: "backups",
  description: "a 1 GiB server folder: backup throughput against tar -czf, controller RSS growth",
  // Making the folder (~10-20 s), tar (~30-60 s), the backup, the check: 10 min is ample.
  budgetMs: BUDGET_MS,
  run
}

// `node test/dist/bench/backups.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, () => killAllChildren())
