/**
 * `snapshotSqlite`: a live database copied through SQLite's online backup,
 * confined like every other read: a symlink as the database's name is
 * refused, and while a folder on the way is swapped between a link inside
 * the root and one to another database outside (a worker thread, as fast
 * as it can), no copy ever holds the outside database.
 *
 * And it always ends: a game that writes between every step of the online
 * backup (restarting it each time) makes it give way to `VACUUM INTO` after
 * a few stalls or at its deadline on the clock; a lock the game keeps is
 * waited out on the clock, then the snapshot fails naming it; an
 * interrupted snapshot leaves no copy and no lock behind.
 */
import { describe, expect, it } from "@effect/vitest"
import { eventually, tempDir } from "@garrison/testkit/core"
import { Duration, Effect, Exit, Fiber, Option, TestClock } from "effect"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import * as ServerFiles from "../../src/files/ServerFiles.js"
import { snapshotSqlite } from "../../src/files/SqliteSnapshot.js"
import { startSwapper } from "./swapper.js"

const require = createRequire(import.meta.url)
interface Db {
  exec(sql: string): void
  prepare(sql: string): { all(): Array<Record<string, unknown>>; run(...args: ReadonlyArray<unknown>): unknown }
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

/** A database of `rows` rows of 2 KB (two rows to a 4 KiB page). */
const bigDatabase = (path: string, rows: number) => {
  const db = new Sqlite(path)
  db.exec("CREATE TABLE Players (UID TEXT PRIMARY KEY, Data BLOB)")
  const insert = db.prepare("INSERT INTO Players (UID, Data) VALUES (?, ?)")
  db.exec("BEGIN")
  for (let i = 0; i < rows; i++) insert.run(`p${i}`, Buffer.alloc(2000, i))
  db.exec("COMMIT")
  db.close()
}

/**
 * The game as the worst case for the online backup: a second connection
 * that commits a write before every step of it (each a `setImmediate`, as
 * better-sqlite3's steps are), until the scope ends. `writes()` counts them.
 */
const writeBetweenSteps = (path: string) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const db = new Sqlite(path)
      const update = db.prepare("UPDATE Players SET Data = ? WHERE UID = 'p0'")
      let writes = 0
      let running = true
      const write = () => {
        if (!running) return
        update.run(Buffer.alloc(2000, writes++ % 256))
        setImmediate(write)
      }
      setImmediate(write)
      return { writes: () => writes, stop: () => ((running = false), db.close()) }
    }),
    (writer) => Effect.sync(writer.stop)
  )

const soundCopy = (path: string, rows: number) => {
  const db = new Sqlite(path, { readonly: true })
  try {
    expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }])
    expect(db.prepare("SELECT COUNT(*) AS n FROM Players").all()).toEqual([{ n: rows }])
  } finally {
    db.close()
  }
}

/** Moves the test clock a step at a time until `fiber` is done (it may be between looks at the clock when it moves). */
const tickUntilDone = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, step: Duration.DurationInput) =>
  Effect.flatMap(
    eventually(Effect.zipRight(TestClock.adjust(step), Fiber.poll(fiber)), Option.isSome, 20_000),
    () => Fiber.await(fiber)
  )

describe("snapshotSqlite always ends", () => {
  it.scoped("a game writing between every step makes the online backup give way to VACUUM INTO after a few stalls", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-sqlite-root-")
      const out = tempDir("garrison-sqlite-out-")
      bigDatabase(NodePath.join(root, "players.db"), 200)
      const writer = yield* writeBetweenSteps(NodePath.join(root, "players.db"))
      const copy = NodePath.join(out, "copy.db")
      const made = yield* snapshotSqlite(ServerFiles.local(root), "players.db", copy, { pagesPerStep: 4 })
      expect(made.method).toBe("vacuum-into")
      expect(made.stalls).toBe(4)
      expect(made.gaveWay).toContain("no progress 4 times")
      expect(writer.writes()).toBeGreaterThan(0)
      soundCopy(copy, 200)
    }))

  it.scoped("a quiet database is copied by the online backup, step by step", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-sqlite-root-")
      const out = tempDir("garrison-sqlite-out-")
      bigDatabase(NodePath.join(root, "players.db"), 200)
      const made = yield* snapshotSqlite(ServerFiles.local(root), "players.db", NodePath.join(out, "copy.db"), { pagesPerStep: 4 })
      expect(made).toEqual({ method: "online-backup", stalls: 0, gaveWay: null })
      soundCopy(NodePath.join(out, "copy.db"), 200)
    }))

  it.scoped("past its deadline on the clock, the online backup gives way however many stalls it may still have", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-sqlite-root-")
      const out = tempDir("garrison-sqlite-out-")
      bigDatabase(NodePath.join(root, "players.db"), 200)
      yield* writeBetweenSteps(NodePath.join(root, "players.db"))
      const copy = NodePath.join(out, "copy.db")
      const fiber = yield* Effect.fork(
        snapshotSqlite(ServerFiles.local(root), "players.db", copy, { pagesPerStep: 4, maxStalls: Number.POSITIVE_INFINITY, deadline: Duration.minutes(10) })
      )
      const exit = yield* tickUntilDone(fiber, Duration.minutes(1))
      expect(Exit.isSuccess(exit) && exit.value).toMatchObject({ method: "vacuum-into", gaveWay: "the online backup ran past its deadline" })
      soundCopy(copy, 200)
    }))

  it.scoped("a lock the game keeps is waited out on the clock, then the snapshot fails naming it and leaves no copy", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-sqlite-root-")
      const out = tempDir("garrison-sqlite-out-")
      bigDatabase(NodePath.join(root, "players.db"), 20)
      const game = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const db = new Sqlite(NodePath.join(root, "players.db"))
          db.exec("BEGIN EXCLUSIVE")
          db.prepare("DELETE FROM Players WHERE UID = 'p1'").run()
          return db
        }),
        (db) => Effect.sync(() => db.close())
      )
      const copy = NodePath.join(out, "copy.db")
      const fiber = yield* Effect.fork(snapshotSqlite(ServerFiles.local(root), "players.db", copy, { lockWait: Duration.seconds(2) }))
      const exit = yield* tickUntilDone(fiber, Duration.millis(200))
      expect(Exit.isFailure(exit)).toBe(true)
      const message = JSON.stringify(exit)
      expect(message).toContain("SqliteSnapshotFailed")
      expect(message).toContain("held its lock on the file for longer than 2s")
      expect(Fs.existsSync(copy)).toBe(false)
      // Once the game lets go, the next snapshot is whole (and sees the game's commit).
      game.exec("COMMIT")
      const made = yield* snapshotSqlite(ServerFiles.local(root), "players.db", copy)
      expect(made.method).toBe("online-backup")
      soundCopy(copy, 19)
    }))

  it.scoped("an interrupted snapshot stops stepping, leaves no copy and holds no lock", () =>
    Effect.gen(function* () {
      const root = tempDir("garrison-sqlite-root-")
      const out = tempDir("garrison-sqlite-out-")
      const path = NodePath.join(root, "players.db")
      bigDatabase(path, 200)
      const writer = yield* writeBetweenSteps(path)
      const copy = NodePath.join(out, "copy.db")
      const fiber = yield* Effect.fork(
        snapshotSqlite(ServerFiles.local(root), "players.db", copy, { pagesPerStep: 1, maxStalls: Number.POSITIVE_INFINITY, deadline: Duration.hours(1) })
      )
      // The online backup made its copy file: it is stepping.
      yield* eventually(Effect.sync(() => Fs.existsSync(copy)), (made) => made, 10_000)
      yield* Fiber.interrupt(fiber)
      expect(Fs.existsSync(copy)).toBe(false)
      const before = writer.writes()
      yield* eventually(Effect.sync(writer.writes), (n) => n > before + 10, 10_000)
      const check = new Sqlite(path)
      check.exec("BEGIN EXCLUSIVE")
      check.exec("COMMIT")
      check.close()
    }))
})
