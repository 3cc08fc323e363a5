/**
 * "Back up soon": a request returns at once, a burst becomes one or two
 * backups, and no request waits more than a minute for its backup.
 *
 * The worker is engine-free; the test through the layer is SQLite on every
 * pass (`helpers.ts`' `withDatabase`): it opens the `.db` backup it asked for.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { Deferred, Effect, Fiber, TestClock } from "effect"
import * as NodePath from "node:path"
import { Database } from "../../src/database/index.js"
import { labelFor, makeBackupRequests } from "../../src/database/internal/requests.js"
import { backupNames, tempDataDir, waitForSleeper, waitUntil, withDatabase, withFile } from "./helpers.js"

/** A worker over a recorder: each "backup" notes its label and the TestClock time. */
const recorded = Effect.gen(function*() {
  const requests = yield* makeBackupRequests()
  const taken: Array<{ readonly label: string; readonly at: number }> = []
  const backup = (label: string) =>
    Effect.flatMap(TestClock.currentTimeMillis, (at) => Effect.sync(() => void taken.push({ label, at })))
  const worker = yield* Effect.fork(requests.serve(backup))
  return { requests, taken, worker }
})

describe("requested backups", () => {
  it.effect("ten requests in a row take one backup, a second after the first request", () =>
    Effect.gen(function*() {
      const { requests, taken, worker } = yield* recorded
      for (let i = 0; i < 10; i++) {
        yield* requests.request("bans-import")
        yield* TestClock.adjust("50 millis")
      }
      yield* TestClock.adjust("499 millis")
      expect(taken).toEqual([])
      yield* TestClock.adjust("1 millis")
      expect(taken).toEqual([{ label: "bans-import", at: 1000 }])
      // Nothing else follows.
      yield* TestClock.adjust("10 minutes")
      expect(taken).toHaveLength(1)
      yield* Fiber.interrupt(worker)
    }))

  it.effect("requests spread over a minute take two backups: the second covers the rest a minute after the first", () =>
    Effect.gen(function*() {
      const { requests, taken, worker } = yield* recorded
      yield* requests.request("bans-import")
      yield* TestClock.adjust("1 second")
      expect(taken).toEqual([{ label: "bans-import", at: 1000 }])
      // Nine more imports, one every five seconds, some of them priority imports.
      for (let i = 0; i < 9; i++) {
        yield* TestClock.adjust("5 seconds")
        yield* requests.request(i % 2 === 0 ? "priority-import" : "bans-import")
      }
      yield* TestClock.adjust("14 seconds") // 60 s after the first backup started
      expect(taken).toEqual([{ label: "bans-import", at: 1000 }])
      yield* TestClock.adjust("1 second")
      expect(taken).toEqual([
        { label: "bans-import", at: 1000 },
        { label: "priority-import-bans-import", at: 61_000 }
      ])
      yield* TestClock.adjust("1 hour")
      expect(taken).toHaveLength(2)
      yield* Fiber.interrupt(worker)
    }))

  it.effect("a request returns at once, even while a backup is running", () =>
    Effect.gen(function*() {
      const requests = yield* makeBackupRequests()
      const release = yield* Deferred.make<void>()
      const started = yield* Deferred.make<void>()
      const worker = yield* Effect.fork(
        requests.serve(() => Deferred.succeed(started, undefined).pipe(Effect.zipRight(Deferred.await(release))))
      )
      yield* requests.request("first")
      yield* TestClock.adjust("1 second")
      yield* Deferred.await(started)
      // The backup hangs; asking again does not wait for it.
      const asked = yield* Effect.fork(requests.request("second"))
      expect((yield* Fiber.join(asked))).toBeUndefined()
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.interrupt(worker)
    }))

  it("labels name each reason once, in order of arrival", () => {
    expect(labelFor(["bans-import", "bans-import", "Priority Import"])).toBe("bans-import-priority-import")
  })

  it.effect("through the database layer: a real backup labelled by the reason, holding the rows written before the request", () =>
    Effect.gen(function*() {
      const dataDir = tempDataDir()
      yield* withDatabase(
        dataDir,
        Effect.gen(function*() {
          const db = yield* Database
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE bans (n INTEGER NOT NULL)`
          yield* sql`WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 500) INSERT INTO bans (n) SELECT n FROM s`
          yield* db.requestBackup("bans-import")
          yield* waitForSleeper
          expect(backupNames(dataDir)).toEqual([])
          yield* TestClock.adjust("1 second")
          yield* waitUntil(() => backupNames(dataDir).length === 1)
          expect(backupNames(dataDir)).toEqual(["garrison-19700101T000001000-bans-import.db"])
          const [backup] = backupNames(dataDir)
          const rows = yield* withFile(
            NodePath.join(db.backupsDir, String(backup)),
            Effect.flatMap(SqlClient.SqlClient, (s) => s<{ readonly count: number }>`SELECT COUNT(*) AS count FROM bans`)
          )
          expect(rows).toEqual([{ count: 500 }])
        })
      )
    }))
})
