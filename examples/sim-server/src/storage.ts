/**
 * The mission's persistence folder (`mpmissions/<template>/storage_<instanceId>`),
 * written the way DayZ writes it while it runs:
 *
 * - `players.db`: a SQLite database in the default rollback-journal mode
 *   (a `players.db-journal` exists during each write, never a `-wal`), one
 *   row per character in `Players` (`UID` the Steam64, `Alive`, `Data` a
 *   few hundred random bytes standing for the character, `Updated` in ms).
 *   Rows are written in one transaction per save, so a reader, or SQLite's
 *   online backup API, always sees a whole save.
 * - `data/*.bin`: the world (`DZSIM\0` and random bytes), each file
 *   replaced atomically (temporary file in the same folder, then rename).
 *
 * better-sqlite3 ships no type declarations (and `@types/better-sqlite3` is
 * not installed), so the small surface used here is typed locally and
 * loaded through `createRequire`.
 */
import { randomBytes, randomInt } from "node:crypto"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"

interface RawStatement {
  run(...params: ReadonlyArray<unknown>): unknown
  pluck(toggle?: boolean): RawStatement
  get(...params: ReadonlyArray<unknown>): unknown
}

interface RawDatabase {
  prepare(source: string): RawStatement
  exec(source: string): void
  pragma(source: string, options?: { readonly simple?: boolean }): unknown
  transaction<A extends ReadonlyArray<unknown>>(fn: (...args: A) => void): (...args: A) => void
  close(): void
}

type RawDatabaseConstructor = new(filename: string, options?: { readonly timeout?: number }) => RawDatabase

const require = createRequire(import.meta.url)

/** The world's files under `data/`, as a fresh DayZ storage folder has them. */
export const WORLD_FILES = ["building.bin", "dynamic_000.bin", "events.bin", "types.bin", "vehicles.bin"] as const

const HEADER = Buffer.from("DZSIM\0")
const worldFile = () => Buffer.concat([HEADER, randomBytes(64)])
/** A character's saved state: a few hundred random bytes. */
const characterData = () => randomBytes(randomInt(256, 769))

/** One character as the server saves it. */
export interface Character {
  /** The player's Steam64 id. */
  readonly uid: string
  readonly alive: boolean
}

export class StorageError extends Error {}

const message = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

/**
 * Milliseconds a save waits for a reader (a backup copying the file, an
 * integrity check) to let go before it gives up: saves are synchronous, so
 * this is how long RCon and the mod can stall. A save that gives up is
 * retried at the next interval.
 */
const BUSY_TIMEOUT_MS = 1_000

export class Storage {
  private db: RawDatabase | undefined
  private readonly upsert: RawStatement
  private readonly saveAll: (rows: ReadonlyArray<Character>, now: number) => void
  /** Characters whose last save failed (a player who left meanwhile is not in the next periodic save otherwise). */
  private readonly pending = new Map<string, Character>()

  private constructor(
    readonly folder: string,
    db: RawDatabase,
    /** Rows in `Players` when the server started. */
    readonly loaded: number,
    /** Whether `players.db` had to be created. */
    readonly created: boolean
  ) {
    this.db = db
    this.upsert = db.prepare("INSERT OR REPLACE INTO Players (UID, Alive, Data, Updated) VALUES (?, ?, ?, ?)")
    this.saveAll = db.transaction((rows: ReadonlyArray<Character>, now: number) => {
      for (const row of rows) this.upsert.run(row.uid, row.alive ? 1 : 0, characterData(), now)
    })
  }

  /**
   * Opens (creates when missing) `<folder>/players.db` and the `Players`
   * table, and writes the `data/*.bin` files that are missing. An empty
   * (0-byte) `players.db` is an empty database. Throws `StorageError` when
   * the file is not a database, or is damaged. `busyTimeoutMs`: how long a
   * save waits for a reader to let go (tests shorten it).
   */
  static open(folder: string, options: { readonly busyTimeoutMs?: number } = {}): Storage {
    const data = NodePath.join(folder, "data")
    Fs.mkdirSync(data, { recursive: true })
    const file = NodePath.join(folder, "players.db")
    const created = !Fs.existsSync(file)
    const Sqlite = require("better-sqlite3") as RawDatabaseConstructor
    let db: RawDatabase | undefined
    let loaded: number
    try {
      db = new Sqlite(file, { timeout: options.busyTimeoutMs ?? BUSY_TIMEOUT_MS })
      // A rollback journal, as DayZ keeps it (also undoes a WAL someone else switched the file to).
      db.pragma("journal_mode = DELETE")
      db.exec("CREATE TABLE IF NOT EXISTS Players (UID TEXT PRIMARY KEY, Alive INTEGER, Data BLOB, Updated INTEGER)")
      loaded = Number(db.prepare("SELECT count(*) FROM Players").pluck().get())
    } catch (cause) {
      db?.close()
      throw new StorageError(`cannot open ${file}: ${message(cause)}`)
    }
    for (const name of WORLD_FILES) {
      const path = NodePath.join(data, name)
      if (!Fs.existsSync(path)) Fs.writeFileSync(path, worldFile())
    }
    return new Storage(folder, db, loaded, created)
  }

  get isOpen(): boolean {
    return this.db !== undefined
  }

  /**
   * Writes a row for each character (insert or replace, new `Data`,
   * `Updated` now), with those of a failed earlier save, in one
   * transaction. Throws when SQLite does (for example the file stayed
   * locked longer than the busy timeout); the rows are then kept for the
   * next save.
   */
  savePlayers(characters: ReadonlyArray<Character>): number {
    if (this.db === undefined) return 0
    const rows = new Map(this.pending)
    for (const character of characters) rows.set(character.uid, character)
    if (rows.size === 0) return 0
    try {
      this.saveAll([...rows.values()], Date.now())
    } catch (cause) {
      for (const character of characters) this.pending.set(character.uid, character)
      throw new StorageError(`cannot save ${rows.size} character(s): ${message(cause)}`)
    }
    this.pending.clear()
    return rows.size
  }

  /** Rewrites every `data/*.bin` with fresh content, each atomically (temporary file in the same folder, then rename). */
  saveWorld(): void {
    const data = NodePath.join(this.folder, "data")
    Fs.mkdirSync(data, { recursive: true })
    for (const name of WORLD_FILES) {
      const target = NodePath.join(data, name)
      const temporary = NodePath.join(data, `.${name}.${process.pid}.tmp`)
      try {
        Fs.writeFileSync(temporary, worldFile())
        Fs.renameSync(temporary, target)
      } catch (cause) {
        Fs.rmSync(temporary, { force: true })
        throw new StorageError(`cannot save ${target}: ${message(cause)}`)
      }
    }
  }

  /** Closes the database; later saves do nothing. */
  close(): void {
    const db = this.db
    this.db = undefined
    db?.close()
  }
}
