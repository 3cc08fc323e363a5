/**
 * The adm benchmark's kill feed: N kills written straight into a stopped
 * controller's `garrison.db` (the game log's migrations already ran) with
 * better-sqlite3 in big transactions, as if the ingester had read them from
 * the servers' admin logs: `game_kills`, the players they name
 * (`game_players`, every one linked to a Steam64 as RCON would) and each
 * server's open season (`game_seasons`).
 *
 * Deterministic: kill `i` happens at `killAtMs(i)` (2 to 3 a minute on the
 * whole fleet, two sometimes in one second so the id breaks ties), on
 * one of BENCH servers weighted 40/25/15/10/10 %; 76 % by a player, the
 * rest by infected, animals or the environment. Killers and victims are
 * drawn from `players` with weights 1/(rank + 10) and 1/(rank + 100): a
 * few players are in a few percent of all kills (rank 0 the busiest, its
 * Steam64 `killPoolSteam64(0)`), most in a handful. Row ids are the
 * ingester's `<server>:<file>:<byte offset>`.
 *
 * As in `trustPool.ts`, the tables' own indexes are dropped while the rows
 * go in and made again from their own SQL afterwards (so the schema is
 * exactly the migrations'), the connection runs `synchronous = OFF` and
 * checkpoints the WAL before it closes. No `ANALYZE`: the product never
 * runs one, so the planner sees what it sees in a real deployment.
 */
import { seededRandom } from "../../support/seededRandom.js"
import { dayzIdOf } from "./admLog.js"
import { openSqlite, type SeedDatabase } from "./trustPool.js"

const STEAM64_BASE = 76561198000000000n
/** Far from the other benchmarks' players. */
const FIRST_PLAYER = 30_000_000n
const START_MS = Date.parse("2026-01-01T00:00:00.000Z")
const CHUNK = 100_000
const SERVER_WEIGHTS = [40, 25, 15, 10, 10] as const
const WEAPONS = ["M4-A1", "AKM", "FX-45", "Mosin 91/30", "SVD", "CR-75", "Blaze", "KA-M", "BK-12", "Deagle"]
const PARTS = ["Head", "Torso", "Torso", "Torso", "LeftArm", "RightArm", "LeftLeg", "RightLeg", "Brain", "RightHand"]
const ZOMBIES = ["ZmbM_CitizenASkinny_Brown", "ZmbM_PatrolNormal_Autumn", "ZmbF_JournalistNormal_White", "ZmbM_Jacket_blue"]

export const killPoolServer = (n: number): string => `bench-server-${n}`
export const killPoolSteam64 = (rank: number): string => (STEAM64_BASE + FIRST_PLAYER + BigInt(rank)).toString()
/** Kill `i`'s time: 24 s apart on average (1,000,000 kills span some 9 months); one pair in three in the same second. */
export const killAtMs = (i: number): number => START_MS + (Math.floor(i / 2) * 48 + (i % 2 === 1 && i % 6 !== 1 ? 20 : 0)) * 1000

export interface KillPoolReport {
  readonly kills: number
  readonly players: number
  readonly ms: number
  /** Kills each server holds. */
  readonly byServer: ReadonlyArray<number>
  /** Kills naming the busiest player (rank 0), as killer or victim. */
  readonly busiest: number
  /** The newest kill's time. */
  readonly newestMs: number
}

/** Draws ranks 0..n-1 with weight 1 / (rank + offset). */
const zipf = (n: number, offset: number, next: () => number) => {
  const cumulative = new Float64Array(n)
  let total = 0
  for (let i = 0; i < n; i++) cumulative[i] = total += 1 / (i + offset)
  return (): number => {
    const x = next() * total
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

const indexesOf = (db: SeedDatabase, tables: ReadonlyArray<string>): ReadonlyArray<{ readonly name: string; readonly sql: string }> =>
  db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => "?").join(", ")})`)
    .all(...tables) as ReadonlyArray<{ name: string; sql: string }>

/** Writes `count` kills among `players` players on `servers` servers into `file` (the game log's tables empty). */
export const seedKillPool = (file: string, count: number, players: number, seed: number): KillPoolReport => {
  const started = performance.now()
  const db = openSqlite(file)
  try {
    db.pragma("synchronous = OFF")
    db.pragma("cache_size = -1048576")
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'game_kills'").all() as ReadonlyArray<unknown>).length
    if (tables === 0) throw new Error(`${file} has no game_kills table: the controller did not load the game log plugin`)
    const existing = db.prepare("SELECT COUNT(*) AS n FROM game_kills").get() as { n: number }
    if (existing.n !== 0) throw new Error(`${file} already holds ${existing.n} kills`)

    const random = seededRandom(seed, "kills")
    const killerRank = zipf(players, 10, random.next)
    const victimRank = zipf(players, 100, random.next)
    const ids = Array.from({ length: players }, (_, rank) => dayzIdOf(killPoolSteam64(rank)))
    const names = Array.from({ length: players }, (_, rank) => `Survivor ${rank}`)
    const serverOf = (() => {
      const table: Array<number> = []
      SERVER_WEIGHTS.forEach((weight, server) => {
        for (let w = 0; w < weight; w++) table.push(server)
      })
      return () => table[random.int(0, table.length)]!
    })()
    const seasons = SERVER_WEIGHTS.map((_, n) => `bench-season-${n}`)

    const indexes = indexesOf(db, ["game_kills", "game_players"])
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`)

    const insertSeason = db.prepare("INSERT INTO game_seasons (id, server_id, number, reason, started_ms, ended_ms) VALUES (?, ?, 1, 'first', ?, NULL)")
    const insertPlayer = db.prepare(
      "INSERT INTO game_players (id, steam64, name, name_folded, first_seen_ms, last_seen_ms) VALUES (?, ?, ?, ?, ?, ?)"
    )
    const insertKill = db.prepare(
      `INSERT INTO game_kills (id, server_id, season_id, at_ms, killer_kind, killer_id, killer_name, victim_id, victim_name, weapon, distance, zone,
        headshot, killer_x, killer_y, killer_z, victim_x, victim_y, victim_z) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    const newestMs = killAtMs(count - 1)
    db.transaction(() => {
      seasons.forEach((season, n) => insertSeason.run(season, killPoolServer(n), START_MS))
      for (let rank = 0; rank < players; rank++) insertPlayer.run(ids[rank], killPoolSteam64(rank), names[rank], names[rank]!.toLowerCase(), START_MS, newestMs)
    })()

    const byServer = SERVER_WEIGHTS.map(() => 0)
    const offsets = SERVER_WEIGHTS.map(() => 0)
    let busiest = 0
    const chunk = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const server = serverOf()
        byServer[server]!++
        offsets[server]! += 2_000 + random.int(0, 60_000)
        // A new log every 2,000 kills or so of a server: ids name the file the kill was read from.
        const day = Math.floor(byServer[server]! / 2_000)
        const id = `${killPoolServer(server)}:DayZServer_x64_2026-${String(1 + (day % 12)).padStart(2, "0")}-${String(1 + (day % 28)).padStart(2, "0")}_18-00-00.ADM:${offsets[server]}`
        const victim = victimRank()
        const kind = random.next()
        const x = () => 1000 + random.next() * 13_000
        const z = () => 5 + random.next() * 400
        const victimPos = [x(), x(), z()] as const
        if (kind < 0.76) {
          let killer = killerRank()
          if (killer === victim) killer = (killer + 1) % players
          if (killer === 0 || victim === 0) busiest++
          const part = PARTS[random.int(0, PARTS.length)]!
          insertKill.run(
            id,
            killPoolServer(server),
            seasons[server],
            killAtMs(i),
            "player",
            ids[killer],
            names[killer],
            ids[victim],
            names[victim],
            WEAPONS[random.int(0, WEAPONS.length)],
            Math.round(random.next() * 30_000) / 100,
            part,
            part === "Head" || part === "Brain" ? 1 : 0,
            x(),
            x(),
            z(),
            ...victimPos
          )
        } else {
          if (victim === 0) busiest++
          const [killerKind, killerName] = kind < 0.96 ? ["zombie", ZOMBIES[random.int(0, ZOMBIES.length)]!] : kind < 0.99 ? ["animal", "Animal_CanisLupus_Grey"] : ["environment", "LandMineTrap"]
          insertKill.run(id, killPoolServer(server), seasons[server], killAtMs(i), killerKind, null, killerName, ids[victim], names[victim], null, null, "Torso", 0, null, null, null, ...victimPos)
        }
      }
    })
    for (let from = 0; from < count; from += CHUNK) chunk(from, Math.min(count, from + CHUNK))

    for (const index of indexes) db.exec(index.sql)
    db.pragma("wal_checkpoint(TRUNCATE)")
    return { kills: count, players, ms: performance.now() - started, byServer, busiest, newestMs }
  } finally {
    db.close()
  }
}
