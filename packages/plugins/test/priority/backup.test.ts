/**
 * A large priority import asks the runtime for a backup ("priority-import")
 * that holds the imported entries; a small one does not (ruled out with a
 * marker request made after it). The request worker runs on the test clock.
 *
 * On SQLite a backup is a `.db` file, read with a copy of it; on PostgreSQL a
 * `.pgdump` (pg_dump's custom format), whose rows `pg_restore --data-only`
 * writes out.
 */
import { describe, expect, it } from "@effect/vitest"
import { BULK_WRITE_BACKUP_ROWS, Database } from "@garrison/runtime"
import { Effect, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { eventually, postgresDumpRows, sleepingUntil, testDatabaseEngine, withDatabaseCopy } from "@garrison/testkit"
import { call, makeController, MANAGER } from "./support.js"

const entries = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    platformId: String(76561198000000000n + BigInt(from + i)),
    name: `V${from + i}`,
    role: "VIP",
    expiresAt: null
  }))

const postgres = testDatabaseEngine() === "postgres"
/** A backup's extension on the run's engine. */
const EXT = postgres ? ".pgdump" : ".db"

/** How many priority entries a backup holds. */
const entriesIn = (backup: string): Effect.Effect<number> =>
  postgres
    ? Effect.map(Effect.promise(() => postgresDumpRows(backup, "priority_entries")), (rows) => rows.length)
    : Effect.sync(() => withDatabaseCopy(backup, (db) => Number(db.prepare("SELECT COUNT(*) FROM priority_entries").pluck().all()[0])))

const importBackups = Effect.map(Database, (db) =>
  Fs.readdirSync(db.backupsDir)
    .filter((name) => name.endsWith(`-priority-import${EXT}`))
    .map((name) => NodePath.join(db.backupsDir, name))
)

const importAll = (body: ReadonlyArray<unknown>) =>
  Effect.map(call("POST", "/api/priority-queue/import", { as: MANAGER, json: body }), (reply) => {
    expect(reply.status).toBe(200)
    return (reply.body as { readonly added: number }).added
  })

/** The backups taken on request (an import's or the test's marker), by name, oldest first. */
const requestedBackups = Effect.map(Database, (db) =>
  Fs.readdirSync(db.backupsDir)
    .filter((name) => name.endsWith(EXT) && /-(priority-import|marker)[a-z-]*\.[a-z]+$/.test(name))
    .sort()
)

// The runtime's backup-request worker takes its time from the test clock: it waits 1 s after a first
// request for the rest of a burst and keeps a minute between two backups it starts.
describe("priority import backups", () => {
  it.scoped(`an import adding ${BULK_WRITE_BACKUP_ROWS} entries is backed up; one adding fewer is not (${
    postgres ? "PostgreSQL: .pgdump files, rows read by pg_restore" : "SQLite: .db files, rows read from a copy"
  })`, () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          expect(yield* importAll(entries(0, BULK_WRITE_BACKUP_ROWS - 1))).toBe(BULK_WRITE_BACKUP_ROWS - 1)
          // A marker asked for after the small import: had it asked for a backup, the marker would share
          // it (the label would name both) or come after it.
          yield* Effect.flatMap(Database, (db) => db.requestBackup("marker"))
          yield* sleepingUntil(1000)
          yield* TestClock.adjust("1 second")
          expect(yield* eventually(requestedBackups, (names) => names.length > 0)).toEqual([`garrison-19700101T000001000-marker${EXT}`])
          expect(yield* importBackups).toEqual([])

          // The large import's backup comes a minute after the marker's began.
          expect(yield* importAll(entries(1000, BULK_WRITE_BACKUP_ROWS))).toBe(BULK_WRITE_BACKUP_ROWS)
          yield* sleepingUntil(61_000)
          yield* TestClock.adjust("1 minute")
          const taken = yield* eventually(importBackups, (found) => found.length > 0)
          expect(taken).toHaveLength(1)
          expect(NodePath.basename(taken[0] ?? "")).toBe(`garrison-19700101T000101000-priority-import${EXT}`)
          expect(yield* entriesIn(taken[0] ?? "")).toBe(2 * BULK_WRITE_BACKUP_ROWS - 1)
        }),
        controller.layer
      )
    })
  )
})
