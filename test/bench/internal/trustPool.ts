/**
 * The trust benchmark's pool, written straight into a stopped controller's
 * `garrison.db` (its migrations already ran) with better-sqlite3, in big
 * transactions: N pool bans (`trust_bans`), one vouch each from this
 * community (`local`, `trust_vouches`), every player's service id
 * (`trust_players`), and the feed's clock (`trust_feed.at_ms`) at the last
 * change, as if the pool had been written through the API.
 *
 * The rows are deterministic but for the ban ids (random UUIDs, as the pool
 * makes them): ban `i` is player `poolPlayer(i)` (distinct 17-digit Steam64s,
 * 765611979… ), changed at `updatedMsOf(i)` (one second apart, so the feed's
 * ticks are unique and in row order), with the status `statusOf(i)`: 88 %
 * active, 5 % overturned, 5 % expired, 2 % pending.
 *
 * For speed the tables' own indexes (not the primary keys) are dropped while
 * the rows go in and made again from their own SQL afterwards, so the schema
 * is exactly the migrations'; the connection runs `synchronous = OFF` (the
 * seeding is not what is measured) and checkpoints the WAL before it closes.
 */
import { serviceIdOf } from "@garrison/plugins/trust"
import { randomUUID } from "node:crypto"
import { createRequire } from "node:module"

interface Statement {
  run(...params: ReadonlyArray<unknown>): unknown
  all(...params: ReadonlyArray<unknown>): ReadonlyArray<unknown>
  get(...params: ReadonlyArray<unknown>): unknown
}
export interface SeedDatabase {
  prepare(source: string): Statement
  pragma(source: string): unknown
  exec(source: string): void
  transaction<A extends ReadonlyArray<unknown>>(f: (...args: A) => void): (...args: A) => void
  close(): void
}
export type SeedDatabaseConstructor = new (filename: string, options?: { readonly readonly?: boolean; readonly fileMustExist?: boolean }) => SeedDatabase
const require = createRequire(import.meta.url)
export const openSqlite = (file: string, options: { readonly readonly?: boolean } = {}): SeedDatabase => {
  const Sqlite = require("better-sqlite3") as SeedDatabaseConstructor
  return new Sqlite(file, { fileMustExist: true, ...options })
}

const STEAM64_BASE = 76561197960265728n
/** Far from every other benchmark's players. */
const FIRST_PLAYER = 10_000_000n
const START_MS = Date.parse("2025-01-01T00:00:00.000Z")
/** Rows per transaction. */
const CHUNK = 100_000
const CATEGORIES = ["cheating", "cheating", "cheating", "cheating", "cheating", "cheating", "exploiting", "griefing", "ban-evasion", "toxicity"] as const

export type PoolStatus = "active" | "overturned" | "expired" | "pending"

/** The `i`th pool ban's player. */
export const poolPlayer = (i: number): string => (STEAM64_BASE + FIRST_PLAYER + BigInt(i)).toString()

/** The `i`th pool ban's change on the feed (epoch ms): unique and increasing with `i`. */
export const updatedMsOf = (i: number): number => START_MS + i * 1000

export const statusOf = (i: number): PoolStatus => {
  if (i % 20 === 7) return "overturned"
  if (i % 20 === 13) return "expired"
  if (i % 50 === 21) return "pending"
  return "active"
}

export interface SeedReport {
  readonly bans: number
  readonly byStatus: Readonly<Record<PoolStatus, number>>
  readonly ms: number
}

/** The non-automatic indexes of `tables`, with the SQL that makes each. */
const indexesOf = (db: SeedDatabase, tables: ReadonlyArray<string>): ReadonlyArray<{ readonly name: string; readonly sql: string }> =>
  db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => "?").join(", ")})`)
    .all(...tables) as ReadonlyArray<{ name: string; sql: string }>

/** Writes `count` pool bans into `file` (a controller's `garrison.db`, the controller stopped, the pool empty). */
export const seedTrustPool = (file: string, count: number): SeedReport => {
  const started = performance.now()
  const db = openSqlite(file)
  try {
    db.pragma("synchronous = OFF")
    db.pragma("cache_size = -1048576")
    const existing = db.prepare("SELECT COUNT(*) AS n FROM trust_bans").get() as { n: number }
    if (existing.n !== 0) throw new Error(`${file} already holds ${existing.n} pool bans`)
    const local = db.prepare("SELECT id FROM trust_communities WHERE id = 'local'").get()
    if (local === undefined) throw new Error(`${file} has no 'local' community: the controller did not start on it`)

    const tables = ["trust_bans", "trust_vouches", "trust_players"]
    const indexes = indexesOf(db, tables)
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`)

    const insertBan = db.prepare(
      "INSERT INTO trust_bans (id, platform_id, reason_category, status, expires_ms, activated_ms, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    )
    const insertVouch = db.prepare(
      "INSERT INTO trust_vouches (ban_id, community_id, reason_category, local_ban_id, note, submitted_ms, submitted_by) VALUES (?, 'local', ?, ?, NULL, ?, 'bench')"
    )
    const insertPlayer = db.prepare("INSERT INTO trust_players (service_id, platform_id) VALUES (?, ?)")
    const byStatus: Record<PoolStatus, number> = { active: 0, overturned: 0, expired: 0, pending: 0 }
    const chunk = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const id = randomUUID()
        const player = poolPlayer(i)
        const status = statusOf(i)
        const category = CATEGORIES[i % CATEGORIES.length]!
        const updated = updatedMsOf(i)
        // Submitted (and created) a minute before the change that put it where it is on the feed.
        const created = updated - 60_000
        byStatus[status]++
        insertBan.run(id, player, category, status, status === "expired" ? updated : null, status === "pending" ? null : created, created, updated)
        insertVouch.run(id, category, randomUUID(), created)
        insertPlayer.run(serviceIdOf(player), player)
      }
    })
    for (let from = 0; from < count; from += CHUNK) chunk(from, Math.min(count, from + CHUNK))
    db.prepare("UPDATE trust_feed SET at_ms = ? WHERE id = 1").run(updatedMsOf(count - 1))

    for (const index of indexes) db.exec(index.sql)
    db.pragma("wal_checkpoint(TRUNCATE)")
    return { bans: count, byStatus, ms: performance.now() - started }
  } finally {
    db.close()
  }
}
