/**
 * `snapshotSqlite`: a live database copied through SQLite's online backup,
 * confined like every other read: a symlink as the database's name is
 * refused, and while a folder on the way is swapped between a link inside
 * the root and one to another database outside (a worker thread, as fast
 * as it can), no copy ever holds the outside database.
 */
import { describe, expect, it } from "@effect/vitest"
import { tempDir } from "@garrison/testkit"
import { Effect, Exit } from "effect"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import * as ServerFiles from "../../src/files/ServerFiles.js"
import { snapshotSqlite } from "../../src/files/SqliteSnapshot.js"
import { startSwapper } from "./swapper.js"

const require = createRequire(import.meta.url)
interface Db {
  exec(sql: string): void
  prepare(sql: string): { all(): Array<Record<string, unknown>> }
  close(): void
}
const Sqlite = require("better-sqlite3") as new (file: string, options?: { readonly readonly?: boolean }) => Db

const database = (path: string, table: string) => {
  const db = new Sqlite(path)
  db.exec(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO ${table} (v) VALUES ('${table}')`)
  db.close()
}
const tablesOf = (path: string) => {
  const db = new Sqlite(path, { readonly: true })
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r["name"])
  } finally {
    db.close()
  }
}

describe("snapshotSqlite", () => {
  it.effect("copies a database through the online backup; a symlink as its name is refused", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-sqlite-root-")
      const out = tempDir("garrison-sqlite-out-")
      Fs.mkdirSync(NodePath.join(root, "storage"))
      database(NodePath.join(root, "storage", "players.db"), "inside")
      database(NodePath.join(out, "other.db"), "outside")
      Fs.symlinkSync(NodePath.join(out, "other.db"), NodePath.join(root, "storage", "link.db"))
      const files = ServerFiles.local(root)
      yield* snapshotSqlite(files, "storage/players.db", NodePath.join(out, "copy.db"))
      expect(tablesOf(NodePath.join(out, "copy.db"))).toEqual(["inside"])
      const refused = yield* Effect.exit(snapshotSqlite(files, "storage/link.db", NodePath.join(out, "copy2.db")))
      expect(Exit.isFailure(refused) && JSON.stringify(refused.cause)).toContain("symlink")
      expect(Fs.existsSync(NodePath.join(out, "copy2.db"))).toBe(false)
      const missing = yield* Effect.exit(snapshotSqlite(files, "storage/none.db", NodePath.join(out, "copy3.db")))
      expect(Exit.isFailure(missing) && JSON.stringify(missing.cause)).toContain("not-found")
    }))

  it.scoped("a folder swapped for a link to another database between the proof and SQLite's open: never copied", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-sqlite-root-")
      const outside = tempDir("garrison-sqlite-outside-")
      const out = tempDir("garrison-sqlite-out-")
      Fs.mkdirSync(NodePath.join(root, "real"))
      database(NodePath.join(root, "real", "players.db"), "inside")
      database(NodePath.join(outside, "players.db"), "outside")
      Fs.symlinkSync(NodePath.join(root, "real"), NodePath.join(root, "storage"))
      const swapper = yield* startSwapper({ mode: "link", target: NodePath.join(root, "storage"), inside: NodePath.join(root, "real"), outside })
      const files = ServerFiles.local(root)
      let copied = 0
      let refused = 0
      for (let i = 0; i < 300; i++) {
        const copy = NodePath.join(out, `copy-${i}.db`)
        const exit = yield* Effect.exit(snapshotSqlite(files, "storage/players.db", copy))
        if (Exit.isSuccess(exit)) {
          copied++
          expect(tablesOf(copy)).toEqual(["inside"])
        } else {
          refused++
        }
      }
      expect(copied + refused).toBe(300)
      expect(swapper.swaps()).toBeGreaterThan(10)
    }))
})
