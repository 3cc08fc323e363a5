/**
 * The simulator's persistence folder in process: `players.db` as a real
 * SQLite database in rollback-journal mode, saves in one transaction, the
 * world files replaced atomically. The running server's saves are covered
 * in storage.e2e.test.ts.
 */
import { integrityCheck, tempDir, withReadOnlyDatabase } from "@garrison/testkit"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { describe, expect, it } from "vitest"
import { Storage, StorageError, WORLD_FILES } from "../src/storage.js"

interface Row {
  readonly UID: string
  readonly Alive: number
  readonly Data: Buffer
  readonly Updated: number
}

const rows = (folder: string): ReadonlyArray<Row> =>
  withReadOnlyDatabase(NodePath.join(folder, "players.db"), (db) => db.prepare("SELECT UID, Alive, Data, Updated FROM Players ORDER BY UID").all() as Array<Row>)

const A = "76561198012345678"
const B = "76561198000000042"

describe("players.db", () => {
  it("is created on first open: a rollback-journal SQLite database with the Players table", () => {
    const folder = NodePath.join(tempDir("garrison-sim-storage-"), "storage_1")
    const storage = Storage.open(folder)
    try {
      expect([storage.created, storage.loaded]).toEqual([true, 0])
      withReadOnlyDatabase(NodePath.join(folder, "players.db"), (db) => {
        expect(db.prepare("PRAGMA journal_mode").pluck().all()).toEqual(["delete"])
        expect(db.prepare("SELECT name, type, pk FROM pragma_table_info('Players') ORDER BY cid").all()).toEqual([
          { name: "UID", type: "TEXT", pk: 1 },
          { name: "Alive", type: "INTEGER", pk: 0 },
          { name: "Data", type: "BLOB", pk: 0 },
          { name: "Updated", type: "INTEGER", pk: 0 }
        ])
        expect(integrityCheck(db)).toEqual(["ok"])
      })
      for (const name of WORLD_FILES) {
        expect(Fs.readFileSync(NodePath.join(folder, "data", name)).subarray(0, 6)).toEqual(Buffer.from("DZSIM\0"))
      }
    } finally {
      storage.close()
    }
  })

  it("saves characters in one transaction (insert or replace, new Data, Updated now) and counts them on the next open", () => {
    const folder = tempDir("garrison-sim-storage-")
    const storage = Storage.open(folder)
    const before = Date.now()
    expect(storage.savePlayers([{ uid: A, alive: true }, { uid: B, alive: false }])).toBe(2)
    const first = rows(folder)
    expect(first.map((r) => [r.UID, r.Alive])).toEqual([[B, 0], [A, 1]])
    for (const row of first) {
      expect(row.Data.length).toBeGreaterThanOrEqual(256)
      expect(row.Data.length).toBeLessThanOrEqual(768)
      expect(row.Updated).toBeGreaterThanOrEqual(before)
    }
    expect(storage.savePlayers([{ uid: A, alive: false }])).toBe(1)
    const second = rows(folder)
    expect(second.map((r) => [r.UID, r.Alive])).toEqual([[B, 0], [A, 0]])
    expect(second[1]!.Data.equals(first[1]!.Data)).toBe(false)
    expect(second[0]!.Data.equals(first[0]!.Data)).toBe(true)
    storage.close()
    // No journal is left once a write has committed, and a closed storage writes nothing.
    expect(Fs.readdirSync(folder).sort()).toEqual(["data", "players.db"])
    expect(storage.savePlayers([{ uid: "76561198000000001", alive: true }])).toBe(0)

    const again = Storage.open(folder)
    expect([again.created, again.loaded]).toEqual([false, 2])
    again.close()
  })

  it("a save that finds the file locked gives up after the busy timeout; its rows go with the next save", () => {
    const folder = tempDir("garrison-sim-storage-")
    const storage = Storage.open(folder, { busyTimeoutMs: 50 })
    const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => { exec(source: string): void; close(): void }
    const other = new Sqlite(NodePath.join(folder, "players.db"))
    try {
      other.exec("BEGIN EXCLUSIVE")
      expect(() => storage.savePlayers([{ uid: A, alive: true }])).toThrow(/cannot save 1 character\(s\): database is locked/)
      other.exec("COMMIT")
    } finally {
      other.close()
    }
    // A left meanwhile: the next save (B only online) still writes A.
    expect(storage.savePlayers([{ uid: B, alive: true }])).toBe(2)
    expect(storage.savePlayers([{ uid: B, alive: true }])).toBe(1)
    storage.close()
    expect(rows(folder).map((r) => r.UID)).toEqual([B, A])
  })

  it("an empty (0-byte) players.db is an empty database", () => {
    const folder = tempDir("garrison-sim-storage-")
    Fs.writeFileSync(NodePath.join(folder, "players.db"), "")
    const storage = Storage.open(folder)
    expect([storage.created, storage.loaded]).toEqual([false, 0])
    storage.savePlayers([{ uid: A, alive: true }])
    storage.close()
    expect(rows(folder).map((r) => r.UID)).toEqual([A])
  })

  it("a database left in WAL mode is switched back to a rollback journal", () => {
    const folder = tempDir("garrison-sim-storage-")
    const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => { pragma(source: string): unknown; close(): void }
    const wal = new Sqlite(NodePath.join(folder, "players.db"))
    wal.pragma("journal_mode = WAL")
    wal.close()
    Storage.open(folder).close()
    withReadOnlyDatabase(NodePath.join(folder, "players.db"), (db) => expect(db.prepare("PRAGMA journal_mode").pluck().all()).toEqual(["delete"]))
  })

  it("a file that is not a SQLite database is refused", () => {
    const folder = tempDir("garrison-sim-storage-")
    Fs.writeFileSync(NodePath.join(folder, "players.db"), "this is not a database, just some text that is long enough")
    expect(() => Storage.open(folder)).toThrow(StorageError)
    expect(() => Storage.open(folder)).toThrow(/players\.db: file is not a database/)
  })
})

describe("data/*.bin", () => {
  it("are replaced atomically with fresh content after the DZSIM header", () => {
    const folder = tempDir("garrison-sim-storage-")
    const storage = Storage.open(folder)
    const data = NodePath.join(folder, "data")
    const read = () => WORLD_FILES.map((name) => ({ bytes: Fs.readFileSync(NodePath.join(data, name)), inode: Fs.statSync(NodePath.join(data, name)).ino }))
    const before = read()
    storage.saveWorld()
    const after = read()
    storage.close()
    for (const [i, file] of after.entries()) {
      expect(file.bytes.subarray(0, 6)).toEqual(Buffer.from("DZSIM\0"))
      expect(file.bytes.length).toBe(before[i]!.bytes.length)
      expect(file.bytes.equals(before[i]!.bytes)).toBe(false)
      // A new file renamed over the old one, never the old one rewritten in place.
      expect(file.inode).not.toBe(before[i]!.inode)
    }
    expect(Fs.readdirSync(data).sort()).toEqual([...WORLD_FILES].sort())
  })
})
