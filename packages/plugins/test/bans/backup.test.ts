/**
 * A large import asks the runtime for a backup: one appears (labelled
 * "bans-import") a second later without the import waiting for it, a run
 * of imports shares it, and a small import leaves the backups alone. The
 * request worker runs on the test clock; what must not happen is ruled out
 * with a marker request made after the imports.
 *
 * On SQLite a backup is a `.db` file, read with a copy of it; on PostgreSQL a
 * `.pgdump` (pg_dump's custom format), whose rows `pg_restore --data-only`
 * writes out.
 */
import { describe, expect, it } from "@effect/vitest"
import { BULK_WRITE_BACKUP_ROWS, Database } from "@garrison/runtime"
import { Clock, Effect, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { postgresDumpRows, testDatabaseEngine, withDatabaseCopy } from "@garrison/testkit"
import { bansController, call, eventually, makeFleet, sleepingUntil } from "./support.js"

const MOD = "mod:bans.manage"

/** `count` importable bans for players not banned yet, numbered from `from`. */
const bans = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    platformId: String(76561198000000000n + BigInt(from + i)),
    playerName: `P${from + i}`,
    reason: "imported",
    bannedBy: "old-admin",
    bannedAt: "2024-01-01T00:00:00.000Z"
  }))

const postgres = testDatabaseEngine() === "postgres"
/** A backup's extension on the run's engine. */
const EXT = postgres ? ".pgdump" : ".db"
const whatIsChecked = postgres ? "PostgreSQL: .pgdump files, rows read by pg_restore" : "SQLite: .db files, rows read from a copy"

const importBackups = Effect.map(Database, (db) =>
  Fs.readdirSync(db.backupsDir)
    .filter((name) => name.endsWith(`-bans-import${EXT}`))
    .map((name) => NodePath.join(db.backupsDir, name))
)

/** When a backup began, from its name (`garrison-YYYYMMDDTHHMMSSmmm-...`). */
const takenAt = (backup: string) => {
  const [, y, mo, d, h, mi, sec, ms] = /garrison-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})-/.exec(backup) ?? []
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}.${ms}Z`)
}

/** How many bans a backup holds. */
const bansIn = (backup: string): Effect.Effect<number> =>
  postgres
    ? Effect.map(Effect.promise(() => postgresDumpRows(backup, "bans")), (rows) => rows.length)
    : Effect.sync(() => withDatabaseCopy(backup, (db) => Number(db.prepare("SELECT COUNT(*) FROM bans").pluck().all()[0])))

const importAll = (body: ReadonlyArray<unknown>) =>
  Effect.map(call("POST", "/api/bans/import", { as: MOD, json: body }), (reply) => {
    expect(reply.status).toBe(200)
    return Number(reply.body.added)
  })

/** The backups taken on request (an import's or the test's marker), by name, oldest first. */
const requestedBackups = Effect.map(Database, (db) =>
  Fs.readdirSync(db.backupsDir)
    .filter((name) => name.endsWith(EXT) && /-(bans-import|marker)[a-z-]*\.[a-z]+$/.test(name))
    .sort()
)

/** Asks for a backup labelled "marker": the next request after whatever the imports asked for. */
const requestMarker = Effect.flatMap(Database, (db) => db.requestBackup("marker"))

// The runtime's backup-request worker takes its time from the test clock: it waits 1 s after a first
// request for the rest of a burst and keeps a minute between two backups it starts.
describe("bans import backups", () => {
  it.scoped(`ten large imports in a row take one backup, holding every import answered before it began (${whatIsChecked})`, () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      const answeredAt: Array<number> = []
      for (let i = 0; i < 10; i++) {
        expect(yield* importAll(bans(i * 1000, BULK_WRITE_BACKUP_ROWS))).toBe(BULK_WRITE_BACKUP_ROWS)
        answeredAt.push(yield* Clock.currentTimeMillis)
      }
      // The worker took the first request and waits until 1 s for the rest of the burst.
      yield* sleepingUntil(1000)
      expect(yield* importBackups).toEqual([])
      yield* TestClock.adjust("1 second")
      const taken = yield* eventually(importBackups, (found) => found.length > 0)
      expect(taken).toHaveLength(1)
      const began = takenAt(taken[0] ?? "")
      expect(began).toBe(1000)
      // Every import was answered before the backup began (the clock stood at 0): none waited for it.
      const before = answeredAt.filter((at) => at <= began).length
      expect(before).toBe(10)
      expect(yield* bansIn(taken[0] ?? "")).toBe(before * BULK_WRITE_BACKUP_ROWS)
      // Nothing else is owed: a marker asked for now is the next backup, on its own, a minute after the first began.
      yield* requestMarker
      yield* sleepingUntil(61_000)
      yield* TestClock.adjust("1 minute")
      const all = yield* eventually(requestedBackups, (names) => names.length > 1)
      expect(all).toEqual([`garrison-19700101T000001000-bans-import${EXT}`, `garrison-19700101T000101000-marker${EXT}`])
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scoped(`an import that adds fewer than ${BULK_WRITE_BACKUP_ROWS} bans takes no backup of its own (${whatIsChecked})`, () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      // 120 entries, but the 40 already stored are skipped: 80 added.
      expect(yield* importAll(bans(0, 40))).toBe(40)
      expect(yield* importAll(bans(0, 120))).toBe(80)
      // A marker asked for after both imports: had either asked for a backup, the marker would share it
      // (the label would name both) or come after it.
      yield* requestMarker
      yield* sleepingUntil(1000)
      yield* TestClock.adjust("1 second")
      const taken = yield* eventually(requestedBackups, (names) => names.length > 0)
      expect(taken).toEqual([`garrison-19700101T000001000-marker${EXT}`])
    }).pipe(Effect.provide(bansController(fleet)))
  })
})
