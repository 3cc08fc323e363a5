/**
 * Scheduled backups on `TestClock`: none until an interval is set, the
 * first at the next tick, then one per interval; and a backup of a running
 * server copies its SQLite database through SQLite's online backup (the
 * copy opens as a database, its journal is left out) while the rest of the
 * storage folder is copied as it stands (a game writing every millisecond
 * makes the online backup give way to `VACUUM INTO`: the backup ends); and
 * the hook before an update makes a pre-update backup. The schedule's rows
 * keep the marker "scheduler" as actor, unnamed; the hook's name who
 * started the update, by id and name.
 */
import { describe, expect, it } from "@effect/vitest"
import { auditRecorder, callWithText as call, eventually, fakeFleet, fakeInstall, requestBytes, sleepsOnTestClock, tempDir, testController, unzipEntries } from "@garrison/testkit"
import { Clock, Duration, Effect, LogLevel, TestClock } from "effect"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { BeforeServerUpdate, Hooks } from "@garrison/runtime"
import { BackupsPlugin } from "../../src/backups/index.js"

const ADMIN = "root:admin"
const STORAGE = "mpmissions/m/storage_1"
const require = createRequire(import.meta.url)

interface Db {
  exec(sql: string): void
  prepare(sql: string): { run(...args: ReadonlyArray<unknown>): unknown; all(): Array<Record<string, unknown>> }
  close(): void
}
const Sqlite = require("better-sqlite3") as new (file: string, options?: { readonly readonly?: boolean }) => Db

const setup = () => {
  const backupDir = tempDir("garrison-backups-store-")
  const audit = auditRecorder()
  return {
    audit,
    backupDir,
    layer: testController([audit.plugin, fakeFleet().plugin, BackupsPlugin], { dataPrefix: "garrison-backups-", logLevel: LogLevel.Error, config: { BACKUP_DIR: backupDir, RATE_LIMIT_API: "off" } })
  }
}

const server = Effect.gen(function* () {
  const dir = fakeInstall()
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'hostname = "Main";\ninstanceId = 1;\nclass Missions { class DayZ { template = "m"; }; };\n')
  Fs.mkdirSync(NodePath.join(dir, STORAGE, "data"), { recursive: true })
  Fs.writeFileSync(NodePath.join(dir, STORAGE, "data", "events.bin"), "world")
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), dir }
})

/** The backups of a server, newest first, with their times. */
const listed = (id: string) =>
  Effect.map(call("GET", `/api/servers/${id}/backups`, { as: ADMIN }), (r) =>
    (r.body as { items: ReadonlyArray<{ type: string; createdAt: string }> }).items.map((b) => ({ type: b.type, createdAt: new Date(b.createdAt).getTime() }))
  )

/**
 * The marker that the schedule has looked at the clock as it is now: its
 * job (every minute, spaced) ran for this moment and sleeps until its next
 * look, within a minute (nothing else in this controller sleeps there). A backup it was going to make would be on disk by then (the job
 * makes it before it sleeps again).
 */
const scheduleLooked = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  yield* eventually(sleepsOnTestClock, (sleeps) => sleeps.some((at) => at > now && at <= now + 60_000), 10_000)
})

const scheduled = (backupDir: string, id: string) => () => (Fs.existsSync(NodePath.join(backupDir, id)) ? Fs.readdirSync(NodePath.join(backupDir, id)).filter((n) => n.startsWith("scheduled-")) : [])

describe("backups: schedule and running servers", () => {
  it.scoped("scheduled backups follow the interval on the clock", () =>
    Effect.gen(function* () {
      const { audit, backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const { id } = yield* server
        const list = scheduled(backupDir, id)
        yield* TestClock.adjust(Duration.minutes(5))
        expect(list()).toEqual([])
        expect((yield* call("PUT", `/api/servers/${id}/backup-config`, { as: ADMIN, json: { intervalMinutes: 60 } })).status).toBe(200)
        // The schedule looks every minute: a minute at a time until it has made one (it may be between looks when the clock moves).
        const tick = (wanted: number) => eventually(Effect.zipRight(TestClock.adjust(Duration.minutes(1)), Effect.sync(list)), (names) => names.length >= wanted, 10_000)
        yield* tick(1)
        const first = (yield* listed(id)).find((b) => b.type === "scheduled")!
        const config = (yield* call("GET", `/api/servers/${id}/backup-config`, { as: ADMIN })).body as { nextScheduledAt: string }
        expect(new Date(config.nextScheduledAt).getTime()).toBe(Math.ceil((first.createdAt + 3_600_000) / 60_000) * 60_000)
        // Half an interval later: still one.
        const now = yield* Clock.currentTimeMillis
        yield* TestClock.adjust(Duration.millis(Math.max(0, first.createdAt + 30 * 60_000 - now)))
        yield* scheduleLooked
        expect(list()).toHaveLength(1)
        yield* tick(2)
        const second = (yield* listed(id)).filter((b) => b.type === "scheduled")[0]!
        expect(second.createdAt - first.createdAt).toBeGreaterThanOrEqual(59 * 60_000)
        expect(list()).toHaveLength(2)
        // No principal behind the schedule: its rows keep the marker, with no name.
        // (The row follows the zip on disk: waited for.)
        const made = yield* eventually(Effect.sync(() => audit.rows.filter((row) => row.action === "backup.created")), (rows) => rows.length >= 2)
        expect(made.map((row) => [row.actor, row.actorName, (row.details as { type: string }).type])).toEqual([
          ["scheduler", null, "scheduled"],
          ["scheduler", null, "scheduled"]
        ])
        // Off again: no more.
        expect((yield* call("PUT", `/api/servers/${id}/backup-config`, { as: ADMIN, json: { intervalMinutes: 0 } })).status).toBe(200)
        yield* TestClock.adjust(Duration.hours(3))
        yield* scheduleLooked
        expect(list()).toHaveLength(2)
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("a running server's players.db is copied whole while the game writes it every millisecond", () =>
    Effect.gen(function* () {
      const { backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const path = NodePath.join(dir, STORAGE, "players.db")
        // The game: a write every millisecond, each of which restarts SQLite's online backup; the scope's end stops it.
        const game = yield* Effect.acquireRelease(
          Effect.sync(() => {
            const db = new Sqlite(path)
            db.exec("CREATE TABLE Players (UID TEXT PRIMARY KEY, Data BLOB)")
            const insert = db.prepare("INSERT OR REPLACE INTO Players (UID, Data) VALUES (?, ?)")
            for (let i = 0; i < 200; i++) insert.run(`p${i}`, Buffer.alloc(2000, i))
            let writes = 0
            const writer = setInterval(() => insert.run(`p${writes % 200}`, Buffer.alloc(2000, writes++)), 1)
            return { writes: () => writes, stop: () => (clearInterval(writer), db.close()) }
          }),
          (game) => Effect.sync(game.stop)
        )
        // A journal file beside it, as a writer leaves one: not wanted in the copy.
        Fs.writeFileSync(`${path}-journal`, "")
        expect((yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })).status).toBe(200)
        expect((yield* call("POST", `/api/servers/${id}/backups`, { as: ADMIN })).status).toBe(202)
        const status = yield* eventually(
          Effect.map(call("GET", `/api/servers/${id}/backup-status`, { as: ADMIN }), (r) => r.body as { state: string; filename: string; error: string | null }),
          (s) => s.state !== "running",
          20_000
        )
        expect(status).toMatchObject({ state: "done", error: null })
        const zip = yield* Effect.promise(() => unzipEntries(Fs.readFileSync(NodePath.join(backupDir, id, status.filename))))
        expect([...zip.keys()].filter((n) => n.includes("players.db"))).toEqual([`install/${STORAGE}/players.db`])
        const copy = NodePath.join(tempDir("garrison-backups-copy-"), "players.db")
        Fs.writeFileSync(copy, zip.get(`install/${STORAGE}/players.db`)!)
        const check = new Sqlite(copy, { readonly: true })
        expect(check.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }])
        expect(check.prepare("SELECT COUNT(*) AS n FROM Players").all()).toEqual([{ n: 200 }])
        check.close()
        const manifest = JSON.parse(zip.get("garrison-backup.json")!.toString("utf8")) as { running: boolean; warnings: ReadonlyArray<string> }
        expect(manifest.running).toBe(true)
        // A consistent copy, not a file caught mid-write: no warning about it.
        expect(manifest.warnings.filter((w) => w.includes("players.db"))).toEqual([])
        const download = yield* requestBytes("GET", `/api/servers/${id}/backups/${status.filename}/download?secrets=include`, { as: ADMIN })
        expect(download.bytes.byteLength).toBe(Fs.statSync(NodePath.join(backupDir, id, status.filename)).size)
        expect(game.writes()).toBeGreaterThan(0)
      }).pipe(Effect.provide(layer))
    }))
})

describe("backups: before an update", () => {
  it.scopedLive("the BeforeServerUpdate hook makes a pre-update backup, named after who started the update by id and name", () =>
    Effect.gen(function* () {
      const { audit, backupDir, layer } = setup()
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const hooks = yield* Hooks
        // Outside any request (as on a rollout's operation): the row is named from `by` alone.
        yield* hooks.run(BeforeServerUpdate, { serverId: id, name: "Main", installDir: dir, by: { id: "u-7", name: "someone" }, reason: "mod-rollout" as const })
        const names = Fs.readdirSync(NodePath.join(backupDir, id))
        expect(names.filter((n) => n.startsWith("pre-update-"))).toHaveLength(1)
        expect(audit.rows.filter((row) => row.action === "backup.created")).toEqual([
          expect.objectContaining({ actor: "u-7", actorName: "someone", ip: null, target: id, details: expect.objectContaining({ type: "pre-update" }) })
        ])
      }).pipe(Effect.provide(layer))
    }))
})
