/**
 * Pruning: the newest `keep`, plus one per interval for `keep` intervals and
 * one per day for 7 days, so bursts of shutdown or import backups cannot
 * push every older backup out.
 *
 * The policy is engine-free; pruning real files runs on SQLite on every pass
 * (`helpers.ts`' `withDatabase`), over `.db` backup files.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either, TestClock } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { settingsConfig } from "../../src/config/GarrisonConfig.js"
import { Database } from "../../src/database/index.js"
import { backupFileName } from "../../src/database/internal/files.js"
import { backupsToKeep, type DatedBackup, type RetentionPolicy } from "../../src/database/internal/retention.js"
import { backupNames, tempDataDir, withDatabase } from "./helpers.js"

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
const MINUTE = 60 * 1000
const policy: RetentionPolicy = { keep: 3, intervalMs: HOUR, days: 7 }

/** Backups named by their time, newest first, as `listBackups` returns them. */
const dated = (times: ReadonlyArray<number>): Array<DatedBackup> =>
  [...times].sort((a, b) => b - a).map((takenAt) => ({ path: `t${takenAt}`, takenAt }))

const kept = (times: ReadonlyArray<number>, now: number, p: RetentionPolicy = policy) =>
  [...backupsToKeep(dated(times), now, p)].map((path) => Number(path.slice(1))).sort((a, b) => a - b)

describe("backup retention", () => {
  it("keeps the newest `keep` when they are an interval apart, and nothing more", () => {
    const now = 10 * DAY + 10 * HOUR
    const hourly = Array.from({ length: 10 }, (_, i) => now - i * HOUR)
    expect(kept(hourly, now)).toEqual([now - 2 * HOUR, now - HOUR, now])
  })

  it("a burst of backups minutes apart does not push out the older hourly ones", () => {
    const hour10 = 10 * DAY + 10 * HOUR
    const now = hour10 + 30 * MINUTE
    const hourly = [hour10 - 3 * HOUR, hour10 - 2 * HOUR, hour10 - HOUR, hour10]
    // A restart loop: a shutdown backup every minute since 10:01.
    const burst = Array.from({ length: 30 }, (_, i) => now - i * MINUTE)
    // The newest 3 of the burst, and the newest of each of the last 3 hours: 08:00, 09:00 and (10:xx) the burst's.
    expect(kept([...hourly, ...burst], now)).toEqual([hour10 - 2 * HOUR, hour10 - HOUR, now - 2 * MINUTE, now - MINUTE, now])
  })

  it("keeps the newest of each of the last 7 days", () => {
    const today = 20 * DAY
    const now = today + 12 * HOUR
    const times: Array<number> = []
    for (let day = 0; day < 10; day++) times.push(today - day * DAY + HOUR, today - day * DAY + 11 * HOUR)
    const olderDays = [6, 5, 4, 3, 2, 1].map((day) => today - day * DAY + 11 * HOUR)
    // Today: 01:00 is among the newest 3, 11:00 is the newest of today (and of its hour).
    expect(kept(times, now)).toEqual([...olderDays, today + HOUR, today + 11 * HOUR])
  })

  it("keeps backups dated in the future (the clock went back) among the newest", () => {
    const now = 5 * DAY
    expect(kept([now + HOUR, now - 10 * DAY], now, { keep: 1, intervalMs: HOUR, days: 7 })).toEqual([now + HOUR])
  })

  it.effect("pruneBackups applies the policy to real files and leaves other files alone", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      const noon = Date.UTC(2025, 2, 10, 12, 0, 0, 0)
      const now = noon + 30 * MINUTE
      const backups = NodePath.join(dataDir, "backups")
      const write = (at: number, label: string) => {
        NodeFs.writeFileSync(NodePath.join(backups, backupFileName(at, label, 0)), "")
        return backupFileName(at, label, 0)
      }
      const { removed, expected } = yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          yield* TestClock.setTime(now)
          NodeFs.writeFileSync(NodePath.join(backups, "notes.txt"), "operator's file")
          const [, at11, at10] = [0, 1, 2, 3].map((h) => write(noon - h * HOUR, "scheduled"))
          const lastWeek = write(now - 6 * DAY, "scheduled")
          write(now - 8 * DAY, "scheduled")
          const shutdowns = Array.from({ length: 6 }, (_, i) => write(now - i * MINUTE, "shutdown"))
          return { removed: yield* db.pruneBackups, expected: [shutdowns[0], shutdowns[1], shutdowns[2], at11, at10, lastWeek] }
        }),
        { backupKeep: 3, backupInterval: Duration.hours(1) }
      )
      // Gone: 12:00 (its hour has a newer one), 09:00 (4 hours back), 8 days back, three older shutdown backups.
      expect(removed).toBe(6)
      expect(backupNames(dataDir)).toEqual(expected.map(String).sort())
      expect(NodeFs.existsSync(NodePath.join(backups, "notes.txt"))).toBe(true)
    }))

  it.effect("settings: an hourly interval and 10 kept by default; DB_BACKUP_KEEP below 1 is refused", () =>
    Effect.gen(function*() {
      const read = (env: ReadonlyArray<readonly [string, string]>) =>
        settingsConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(env))), Effect.either)
      const defaults = yield* read([])
      expect(Either.isRight(defaults) && Duration.toMillis(defaults.right.backupInterval)).toBe(HOUR)
      expect(Either.isRight(defaults) && defaults.right.backupKeep).toBe(10)
      for (const keep of ["0", "-3"]) {
        const refused = yield* read([["DB_BACKUP_KEEP", keep]])
        expect(Either.isLeft(refused) && String(refused.left)).toContain("expected at least 1")
      }
      const one = yield* read([["DB_BACKUP_KEEP", "1"]])
      expect(Either.isRight(one) && one.right.backupKeep).toBe(1)
    }))
})
