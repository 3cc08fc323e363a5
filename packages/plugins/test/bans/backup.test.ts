/**
 * A large import asks the runtime for a backup: one appears (labelled
 * "bans-import") about a second later without the import waiting for it, a
 * run of imports shares it, and a small import leaves the backups alone.
 */
import { describe, expect, it } from "@effect/vitest"
import { BULK_WRITE_BACKUP_ROWS, Database } from "@garrison/runtime"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { withDatabaseCopy } from "../../../../test/support/sqliteFile.js"
import { bansController, call, makeFleet, realSleep } from "./support.js"

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

const importBackups = Effect.map(Database, (db) =>
  Fs.readdirSync(db.backupsDir)
    .filter((name) => name.endsWith("-bans-import.db"))
    .map((name) => NodePath.join(db.backupsDir, name))
)

/** When a backup began, from its name (`garrison-YYYYMMDDTHHMMSSmmm-...`). */
const takenAt = (backup: string) => {
  const [, y, mo, d, h, mi, sec, ms] = /garrison-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})-/.exec(backup) ?? []
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}.${ms}Z`)
}

const bansIn = (backup: string) => withDatabaseCopy(backup, (db) => Number(db.prepare("SELECT COUNT(*) FROM bans").pluck().all()[0]))

const importAll = (body: ReadonlyArray<unknown>) =>
  Effect.map(call("POST", "/api/bans/import", { as: MOD, json: body }), (reply) => {
    expect(reply.status).toBe(200)
    return Number(reply.body.added)
  })

describe("bans import backups", () => {
  it.scopedLive("ten large imports in a row take one backup, holding every import answered before it began", () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      const answeredAt: Array<number> = []
      for (let i = 0; i < 10; i++) {
        expect(yield* importAll(bans(i * 1000, BULK_WRITE_BACKUP_ROWS))).toBe(BULK_WRITE_BACKUP_ROWS)
        answeredAt.push(Date.now())
      }
      for (let i = 0; i < 150 && (yield* importBackups).length === 0; i++) yield* realSleep(20)
      yield* realSleep(1500)
      // One backup; a second could only follow a minute later, for imports answered after this one began.
      const taken = yield* importBackups
      expect(taken).toHaveLength(1)
      const began = takenAt(taken[0] ?? "")
      const before = answeredAt.filter((at) => at <= began).length
      // The first import was answered before the backup began: it did not wait for it.
      expect(before).toBeGreaterThanOrEqual(1)
      expect(bansIn(taken[0] ?? "")).toBeGreaterThanOrEqual(before * BULK_WRITE_BACKUP_ROWS)
    }).pipe(Effect.provide(bansController(fleet)))
  })

  it.scopedLive(`an import that adds fewer than ${BULK_WRITE_BACKUP_ROWS} bans takes no backup of its own`, () => {
    const fleet = makeFleet({ alpha: "stopped" })
    return Effect.gen(function* () {
      // 120 entries, but the 40 already stored are skipped: 80 added.
      expect(yield* importAll(bans(0, 40))).toBe(40)
      expect(yield* importAll(bans(0, 120))).toBe(80)
      yield* realSleep(2000)
      expect(yield* importBackups).toEqual([])
    }).pipe(Effect.provide(bansController(fleet)))
  })
})
